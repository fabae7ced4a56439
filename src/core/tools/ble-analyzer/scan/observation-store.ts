import { parseBleAddress } from '../shared/ah.ts';
import type { BleCodedColumn } from './column-access.ts';
import type { BleReceiverIds, BleRssiValues } from './event-columns.ts';
import { BleGrowableFloat64, BleGrowableInt32 } from '../shared/growable.ts';
import { BlePayloadColumns, readPayloadFeatures, type BlePayloadFeatures } from './payload-features.ts';
import { BleSignatureTable } from './signature-table.ts';

/**
 * What the scan (observations.ts) collects: per-address counters, the address, receiver and
 * payload dictionaries of the analysis, and the transmitter events grouped by address.
 */

/** Address type votes: indices into the per-address vote array. */
export const BLE_VOTE = { public: 0, random: 1, publicIdentity: 2, randomIdentity: 3 } as const;
/** Votes per address in `votes`. */
export const BLE_VOTES = 4;

/** Role counts per address. */
export const BLE_ROLE = { advertiser: 0, scanner: 1, initiator: 2, referenced: 3 } as const;
/** Role counts per address in `roles`. */
export const BLE_ROLES = 4;

/** Events grouped by address: group `a` is [start[a], start[a + 1]) of the parallel arrays. */
export interface BleEventGroups {
  start: Int32Array;
  time: Float64Array;
  /** Narrow where nothing is lost (event-columns.ts). */
  receiver: BleReceiverIds;
  rssi: BleRssiValues;
  payload: Int32Array;
  /** Channel index (37–39 for the primary advertising channels); 255 where the capture does not say. */
  channel: Uint8Array;
}

/** `BleEventGroups.channel` of events whose capture has no channel. */
export const BLE_NO_CHANNEL = 255;

function emptyEventGroups(): BleEventGroups {
  return { start: new Int32Array(1), time: new Float64Array(0), receiver: new Int32Array(0), rssi: new Float64Array(0), payload: new Int32Array(0), channel: new Uint8Array(0) };
}

/**
 * The value of an address printed `AA:BB:CC:DD:EE:FF` (either case), as `parseBleAddress` gives
 * it, read character by character; undefined for any other text (which `parseBleAddress` then
 * reads). Every new address of a scan is parsed, and the general parser's regular expression
 * and six parseInt calls cost about half a microsecond each time.
 */
export function colonAddressValue(text: string): number | undefined {
  if (text.length !== 17) return undefined;
  let value = 0;
  for (let index = 0; index < 17; index++) {
    const char = text.charCodeAt(index);
    if (index % 3 === 2) {
      if (char !== 0x3a) return undefined;
      continue;
    }
    const digit = char >= 0x30 && char <= 0x39 ? char - 0x30 : char >= 0x41 && char <= 0x46 ? char - 0x37 : char >= 0x61 && char <= 0x66 ? char - 0x57 : -1;
    if (digit < 0) return undefined;
    value = value * 16 + digit;
  }
  return value;
}

/** What the scan collected. */
export class BleObservationStore {
  readonly addressIds = new Map<string, number>();
  readonly addressTexts: string[] = [];
  readonly addressValues = new BleGrowableFloat64(256);
  readonly votes = new BleGrowableInt32(1024);
  readonly roles = new BleGrowableInt32(1024);
  /** Per address: rows (any role) whose CRC failed; only counted when CRC-bad rows are kept. */
  readonly crcBadRows = new BleGrowableInt32(256);
  readonly receiverIds = new Map<string, number>();
  readonly receiverNames: string[] = [];
  /** Payload ids by signature. */
  private readonly payloadSignatures = new BleSignatureTable();
  /** Per payload id: the first row that carried it, where its AD features are read when first asked for. */
  private readonly payloadColumns: BlePayloadColumns[] = [];
  private readonly payloadRows: number[] = [];
  private readonly payloadFeatureCache: Array<BlePayloadFeatures | undefined> = [];
  /** Capture ids seen, with their time origin metadata (RFC3339 or null for absolute clocks). */
  readonly captures = new Map<string, string | null>();

  /** Transmitter events, one per used row, grouped by address (set by `BleScanner.finish`). */
  events: BleEventGroups = emptyEventGroups();

  selectedRows = 0;
  crcBadExcluded = 0;
  crcBadIncluded = 0;
  noTimestamp = 0;
  noAddress = 0;

  private readonly codeCaches = new WeakMap<object, Int32Array>();

  get addressCount(): number {
    return this.addressTexts.length;
  }

  get eventCount(): number {
    return this.events.time.length;
  }

  get payloadCount(): number {
    return this.payloadSignatures.size;
  }

  addressId(text: string): number {
    let id = this.addressIds.get(text);
    if (id === undefined) {
      id = this.addressTexts.length;
      this.addressTexts.push(text);
      this.addressIds.set(text, id);
      this.addressValues.push(colonAddressValue(text) ?? parseBleAddress(text) ?? Number.NaN);
      this.votes.ensure((id + 1) * BLE_VOTES, 0);
      this.roles.ensure((id + 1) * BLE_ROLES, 0);
      this.crcBadRows.ensure(id + 1, 0);
    }
    return id;
  }

  /**
   * The payload id of the signature of code `code` of `column`, made on first sight; `row` of
   * the batch of `columns` carries it. An ASCII dictionary entry is looked up by its bytes (see
   * BleSignatureTable), anything else by its text.
   */
  payloadId(column: BleCodedColumn, code: number, columns: BlePayloadColumns, row: number): number {
    const known = this.payloadSignatures.size;
    const bytes = column.entryBytes;
    const offsets = column.entryOffsets;
    let id = bytes && offsets ? this.payloadSignatures.idOfAscii(bytes, offsets[code], offsets[code + 1]) : -1;
    if (id < 0) id = this.payloadSignatures.idOfText(column.text(code));
    if (id === known) {
      this.payloadColumns.push(columns);
      this.payloadRows.push(row);
      this.payloadFeatureCache.push(undefined);
    }
    return id;
  }

  /** The signature text of a payload id. */
  payloadSignature(id: number): string {
    return this.payloadSignatures.text(id);
  }

  /** The AD features of a payload, read from the first row that carried it (only payloads asked for are read). */
  payloadFeatures(id: number): BlePayloadFeatures {
    let features = this.payloadFeatureCache[id];
    if (!features) {
      features = readPayloadFeatures(this.payloadColumns[id], this.payloadRows[id]);
      this.payloadFeatureCache[id] = features;
    }
    return features;
  }

  /** Per code space (one dictionary), the global id of each code, filled lazily (-2 = not yet). */
  codeMap(column: BleCodedColumn): Int32Array {
    let map = this.codeCaches.get(column.space);
    if (!map || map.length < column.size) {
      const grown = new Int32Array(column.size).fill(-2);
      if (map) grown.set(map);
      map = grown;
      this.codeCaches.set(column.space, map);
    }
    return map;
  }
}
