import type { RecordBatch } from 'apache-arrow';
import type { SelectedBatch } from '../../data/selection-types.ts';
import { parseBleAddress } from './ah.ts';
import { bleBooleanColumn, bleCellText, bleCodedColumn, bleListText, bleNumberColumn, type BleCodedColumn } from './column-access.ts';
import { BleGrowableFloat64, BleGrowableInt32 } from './growable.ts';

/**
 * The scan: one pass over the selected rows that turns them into mergeable per-address state.
 *
 * - Scalar accumulators per address (row counts, type votes, roles, first/last time) merge by
 *   +, min and max.
 * - Transmitter events (time, receiver, RSSI, payload, channel) are appended per row; per
 *   address they merge by concatenation in input order, and everything downstream reads them
 *   sorted by time (a stable sort), so any split of the input into batches gives the same
 *   result.
 *
 * Rows are attributed to the address that *transmitted* them: ScanA for SCAN_REQ, InitA for
 * CONNECT_IND (their TxAdd describes that address), AdvA otherwise. The AdvA a SCAN_REQ or
 * CONNECT_IND addresses, and the TargetA of a directed PDU, are *referenced*: they get a type
 * vote (from RxAdd / advertiser_addr_type) and a role count, not an event (the RSSI is not theirs).
 */

/** Address type votes: indices into the per-address vote array. */
export const BLE_VOTE = { public: 0, random: 1, publicIdentity: 2, randomIdentity: 3 } as const;
const VOTES = 4;

/** Role counts per address. */
export const BLE_ROLE = { advertiser: 0, scanner: 1, initiator: 2, referenced: 3 } as const;
const ROLES = 4;

/** How a PDU type attributes its addresses. */
const enum RowRole {
  Advertiser = 0,
  ScanRequest = 1,
  ConnectRequest = 2,
  NoAddress = 3,
}

export interface BlePayloadFeatures {
  signature: string;
  companyId: number;
  manufacturerData: string;
  serviceUuids: string;
  txPower: number;
  localName: string;
  appearance: number;
  serviceDataUuid: string;
  /** Structure of the payload without its rotating content: what "same vendor and model" shares. */
  template: string;
}

export interface BleScanColumns {
  advertiser: string;
  initiator: string;
  scanner?: string;
}

export interface BleScanOptions {
  columns: BleScanColumns;
  includeCrcBad: boolean;
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
  readonly payloadIds = new Map<string, number>();
  readonly payloads: BlePayloadFeatures[] = [];
  /** Capture ids seen, with their time origin metadata (RFC3339 or null for absolute clocks). */
  readonly captures = new Map<string, string | null>();

  // Transmitter events, one per used row.
  readonly eventAddress = new BleGrowableInt32(1 << 14);
  readonly eventTime = new BleGrowableFloat64(1 << 14);
  readonly eventReceiver = new BleGrowableInt32(1 << 14);
  readonly eventRssi = new BleGrowableFloat64(1 << 14);
  readonly eventPayload = new BleGrowableInt32(1 << 14);

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
    return this.eventAddress.length;
  }

  addressId(text: string): number {
    let id = this.addressIds.get(text);
    if (id === undefined) {
      id = this.addressTexts.length;
      this.addressTexts.push(text);
      this.addressIds.set(text, id);
      const value = parseBleAddress(text);
      this.addressValues.push(value ?? Number.NaN);
      this.votes.ensure((id + 1) * VOTES, 0);
      this.roles.ensure((id + 1) * ROLES, 0);
      this.crcBadRows.ensure(id + 1, 0);
    }
    return id;
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

function addressCode(store: BleObservationStore, column: BleCodedColumn | undefined, map: Int32Array | undefined, row: number): number {
  if (!column || !map) return -1;
  const code = column.code(row);
  if (code < 0) return -1;
  let id = map[code];
  if (id === -2) {
    id = store.addressId(column.text(code).toUpperCase());
    map[code] = id;
  }
  return id;
}

const ROLE_OF_ADV_TYPE: Record<string, RowRole> = {
  SCAN_REQ: RowRole.ScanRequest,
  AUX_SCAN_REQ: RowRole.ScanRequest,
  CONNECT_IND: RowRole.ConnectRequest,
  AUX_CONNECT_REQ: RowRole.ConnectRequest,
};

const VOTE_OF_TYPE_NAME: Record<string, number> = {
  public: BLE_VOTE.public,
  random: BLE_VOTE.random,
  public_identity: BLE_VOTE.publicIdentity,
  random_identity: BLE_VOTE.randomIdentity,
};

/** Per code space: a small table derived from each dictionary entry once (not per row). */
function derivedCodes(cache: WeakMap<object, Int8Array>, column: BleCodedColumn | undefined, derive: (text: string) => number): Int8Array | undefined {
  if (!column) return undefined;
  let table = cache.get(column.space);
  if (!table || table.length < column.size) {
    table = new Int8Array(column.size);
    for (let code = 0; code < column.size; code++) table[code] = derive(column.text(code));
    cache.set(column.space, table);
  }
  return table;
}

/** Scans selected batches into a store. Batches may come from several captures. */
export class BleScanner {
  readonly store = new BleObservationStore();
  private readonly roleCache = new WeakMap<object, Int8Array>();
  private readonly typeCache = new WeakMap<object, Int8Array>();
  private readonly receiverCache = new WeakMap<object, Int32Array>();
  private readonly payloadCache = new WeakMap<object, Int32Array>();

  constructor(private readonly options: BleScanOptions) {}

  add(selected: SelectedBatch): void {
    const { batch, mask } = selected;
    const store = this.store;
    if (!store.captures.has(selected.captureId)) {
      store.captures.set(selected.captureId, batch.schema.metadata.get('sextant.time_origin') ?? null);
    }
    if (selected.selectedCount === 0 || batch.numRows === 0) return;
    const columns = this.options.columns;
    const time = bleNumberColumn(batch, batch.schema.metadata.get('sextant.time_column') ?? 'ts_ms');
    const advertiser = bleCodedColumn(batch, columns.advertiser);
    if (!time || !advertiser) {
      store.selectedRows += selected.selectedCount;
      store.noTimestamp += time ? 0 : selected.selectedCount;
      store.noAddress += advertiser ? 0 : selected.selectedCount;
      return;
    }
    const initiator = bleCodedColumn(batch, columns.initiator);
    const scanner = columns.scanner ? bleCodedColumn(batch, columns.scanner) : undefined;
    const advertiserMap = store.codeMap(advertiser);
    const initiatorMap = initiator ? store.codeMap(initiator) : undefined;
    const scannerMap = scanner ? store.codeMap(scanner) : undefined;
    const advType = bleCodedColumn(batch, 'adv_type');
    const roleOf = derivedCodes(this.roleCache, advType, (text) => ROLE_OF_ADV_TYPE[text] ?? (text.startsWith('RESERVED') ? RowRole.NoAddress : RowRole.Advertiser));
    const addrType = bleCodedColumn(batch, 'advertiser_addr_type');
    const voteOf = derivedCodes(this.typeCache, addrType, (text) => VOTE_OF_TYPE_NAME[text] ?? -1);
    const txAdd = bleNumberColumn(batch, 'tx_add');
    const rxAdd = bleNumberColumn(batch, 'rx_add');
    const rssi = bleNumberColumn(batch, 'rssi');
    const crc = this.options.includeCrcBad ? undefined : bleBooleanColumn(batch, 'crc_ok');
    const crcSeen = this.options.includeCrcBad ? bleBooleanColumn(batch, 'crc_ok') : undefined;
    const receiver = bleCodedColumn(batch, 'receiver');
    const receiverMap = receiver ? this.receiverCodes(receiver) : undefined;
    const signature = bleCodedColumn(batch, 'payload_signature');
    const payloadMap = signature ? this.payloadCodes(signature) : undefined;
    const votes = store.votes;
    const roles = store.roles;

    for (let row = 0; row < batch.numRows; row++) {
      if (mask[row] === 0) continue;
      store.selectedRows++;
      if (crc && crc[row] === 0) {
        store.crcBadExcluded++;
        continue;
      }
      const ts = time[row];
      if (Number.isNaN(ts)) {
        store.noTimestamp++;
        continue;
      }
      const role = roleOf ? (advType!.code(row) >= 0 ? roleOf[advType!.code(row)] : RowRole.Advertiser) : RowRole.Advertiser;
      if (role === RowRole.NoAddress) {
        store.noAddress++;
        continue;
      }
      const adv = addressCode(store, advertiser, advertiserMap, row);
      const tx = txAdd ? txAdd[row] : Number.NaN;
      const rx = rxAdd ? rxAdd[row] : Number.NaN;
      let transmitter: number;
      let transmitterVote: number;
      if (role === RowRole.Advertiser) {
        transmitter = adv;
        const typeCode = addrType ? addrType.code(row) : -1;
        transmitterVote = typeCode >= 0 && voteOf ? voteOf[typeCode] : tx === 0 ? BLE_VOTE.public : tx === 1 ? BLE_VOTE.random : -1;
        // TargetA of a directed PDU (or directed HCI report), described by RxAdd.
        const target = addressCode(store, initiator, initiatorMap, row);
        if (target >= 0) {
          roles.values[target * ROLES + BLE_ROLE.referenced]++;
          if (crcSeen && crcSeen[row] === 0) store.crcBadRows.values[target]++;
          if (rx === 0 || rx === 1) votes.values[target * VOTES + rx]++;
        }
      } else {
        transmitter = role === RowRole.ScanRequest ? addressCode(store, scanner, scannerMap, row) : addressCode(store, initiator, initiatorMap, row);
        transmitterVote = tx === 0 ? BLE_VOTE.public : tx === 1 ? BLE_VOTE.random : -1;
        if (adv >= 0) {
          roles.values[adv * ROLES + BLE_ROLE.referenced]++;
          if (crcSeen && crcSeen[row] === 0) store.crcBadRows.values[adv]++;
          const typeCode = addrType ? addrType.code(row) : -1;
          const vote = typeCode >= 0 && voteOf ? voteOf[typeCode] : rx === 0 ? BLE_VOTE.public : rx === 1 ? BLE_VOTE.random : -1;
          if (vote >= 0) votes.values[adv * VOTES + vote]++;
        }
      }
      if (transmitter < 0) {
        store.noAddress++;
        continue;
      }
      if (crcSeen && crcSeen[row] === 0) {
        store.crcBadIncluded++;
        store.crcBadRows.values[transmitter]++;
      }
      if (transmitterVote >= 0) votes.values[transmitter * VOTES + transmitterVote]++;
      roles.values[transmitter * ROLES + (role === RowRole.ScanRequest ? BLE_ROLE.scanner : role === RowRole.ConnectRequest ? BLE_ROLE.initiator : BLE_ROLE.advertiser)]++;
      store.eventAddress.push(transmitter);
      store.eventTime.push(ts);
      const receiverCode = receiver ? receiver.code(row) : -1;
      store.eventReceiver.push(receiverCode >= 0 && receiverMap ? this.receiverId(receiver!, receiverMap, receiverCode) : this.receiverId(undefined, undefined, -1));
      store.eventRssi.push(rssi ? rssi[row] : Number.NaN);
      const payloadCode = signature ? signature.code(row) : -1;
      store.eventPayload.push(payloadCode >= 0 && payloadMap ? this.payloadId(batch, signature!, payloadMap, payloadCode, row) : -1);
    }
  }

  private receiverCodes(column: BleCodedColumn): Int32Array {
    let map = this.receiverCache.get(column.space);
    if (!map || map.length < column.size) {
      map = new Int32Array(column.size).fill(-2);
      this.receiverCache.set(column.space, map);
    }
    return map;
  }

  private receiverId(column: BleCodedColumn | undefined, map: Int32Array | undefined, code: number): number {
    if (!column || !map || code < 0) return this.namedReceiver('(unknown receiver)');
    let id = map[code];
    if (id === -2) {
      id = this.namedReceiver(column.text(code));
      map[code] = id;
    }
    return id;
  }

  private namedReceiver(name: string): number {
    const store = this.store;
    let id = store.receiverIds.get(name);
    if (id === undefined) {
      id = store.receiverNames.length;
      store.receiverNames.push(name);
      store.receiverIds.set(name, id);
    }
    return id;
  }

  private payloadCodes(column: BleCodedColumn): Int32Array {
    let map = this.payloadCache.get(column.space);
    if (!map || map.length < column.size) {
      map = new Int32Array(column.size).fill(-2);
      this.payloadCache.set(column.space, map);
    }
    return map;
  }

  /** The payload's global id; its AD features are read from the first row that carries it. */
  private payloadId(batch: RecordBatch, column: BleCodedColumn, map: Int32Array, code: number, row: number): number {
    let id = map[code];
    if (id !== -2) return id;
    const signature = column.text(code);
    const store = this.store;
    const known = store.payloadIds.get(signature);
    if (known !== undefined) {
      map[code] = known;
      return known;
    }
    id = store.payloads.length;
    store.payloads.push(readPayloadFeatures(batch, row, signature));
    store.payloadIds.set(signature, id);
    map[code] = id;
    return id;
  }
}

function numberCell(batch: RecordBatch, name: string, row: number): number {
  const vector = batch.getChild(name);
  const value: unknown = vector ? vector.get(row) : null;
  return typeof value === 'number' ? value : Number.NaN;
}

/** The AD features of the payload at `row`: all are functions of the AD bytes, hence of the signature. */
export function readPayloadFeatures(batch: RecordBatch, row: number, signature: string): BlePayloadFeatures {
  const companyId = numberCell(batch, 'company_id', row);
  const manufacturerData = bleCellText(batch, 'manufacturer_data', row);
  const serviceUuids = bleListText(batch, 'service_uuids', row);
  const txPower = numberCell(batch, 'tx_power', row);
  const localName = bleCellText(batch, 'local_name', row);
  const appearance = numberCell(batch, 'appearance', row);
  const serviceDataUuid = bleCellText(batch, 'service_data_uuid', row);
  // Rotating tokens change the bytes of manufacturer data but not its length or its first
  // octet (the vendor's message type, e.g. Apple's 0x10 Nearby Info): the template keeps those.
  const template = [
    Number.isNaN(companyId) ? '' : companyId,
    manufacturerData.length / 2,
    manufacturerData.slice(0, 2),
    serviceUuids,
    serviceDataUuid,
    Number.isNaN(txPower) ? '' : txPower,
    Number.isNaN(appearance) ? '' : appearance,
    localName,
  ].join('|');
  return { signature, companyId, manufacturerData, serviceUuids, txPower, localName, appearance, serviceDataUuid, template };
}
