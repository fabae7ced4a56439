/**
 * The normalized BLE record table: its columns (docs/capture-schema.md), and the writer the
 * link-layer and HCI decoders fill one record at a time. Rows go into typed-array builders and
 * are sealed into Arrow record batches of BATCH_ROWS rows; dictionary columns get their final
 * dictionaries when the table is assembled.
 */
import {
  Bool,
  Data,
  Dictionary,
  Field,
  Float64,
  Int8,
  Int16,
  Int32,
  List,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Uint8,
  Uint16,
  Uint32,
  Utf8,
  makeData,
  makeVector,
  type Vector,
  DataType,
} from 'apache-arrow';
import { createAdSummary, fnv1a64, parseAdStructures, type AdSummary } from './ad-structures.ts';
import { ADV_TYPE_NAMES } from './adv-types.ts';
import { formatAddress, formatUuid } from './address.ts';
import { BoolColumn, GrowingDictionary, IndexColumn, NumberColumn, PairIndex, Utf8ListColumn, utf8Data, type SealedIndices } from './column-builders.ts';

/** Rows per Arrow record batch. */
export const BATCH_ROWS = 65_536;
/**
 * Distinct values the value dictionaries hold before a drain forgets them. A week of real
 * traffic has millions of distinct payloads (5–20 % of packets in the captures here): kept, they
 * would grow without end (~0.2 kB each); forgotten, a value seen again costs one decode.
 */
export const DICTIONARY_ENTRY_LIMIT = 500_000;

/** Values of `advertiser_addr_type`, indexed by HCI address type (0–3). */
export const ADDRESS_TYPE_NAMES = ['public', 'random', 'public_identity', 'random_identity'] as const;

/** The record table's columns, in order, with their Arrow types. */
export const BLE_RECORD_COLUMNS: ReadonlyArray<{ name: string; type: () => DataType }> = [
  { name: 'ts_ms', type: () => new Float64() },
  { name: 'capture_id', type: () => new Dictionary(new Utf8(), new Int8(), 0) },
  { name: 'receiver', type: () => new Dictionary(new Utf8(), new Int16(), 1) },
  { name: 'channel', type: () => new Uint8() },
  { name: 'rssi', type: () => new Int8() },
  { name: 'adv_type', type: () => new Dictionary(new Utf8(), new Int8(), 2) },
  { name: 'tx_add', type: () => new Uint8() },
  { name: 'rx_add', type: () => new Uint8() },
  { name: 'advertiser_addr', type: () => new Dictionary(new Utf8(), new Int32(), 4) },
  { name: 'initiator_addr', type: () => new Dictionary(new Utf8(), new Int32(), 5) },
  { name: 'scanner_addr', type: () => new Dictionary(new Utf8(), new Int32(), 6) },
  { name: 'flags', type: () => new Uint8() },
  { name: 'local_name', type: () => new Dictionary(new Utf8(), new Int32(), 8) },
  { name: 'tx_power', type: () => new Int8() },
  { name: 'appearance', type: () => new Uint16() },
  { name: 'company_id', type: () => new Uint16() },
  { name: 'manufacturer_data', type: () => new Dictionary(new Utf8(), new Int32(), 9) },
  { name: 'service_uuids', type: () => new List(new Field('item', new Utf8(), true)) },
  { name: 'service_data', type: () => new Dictionary(new Utf8(), new Int32(), 10) },
  { name: 'payload_signature', type: () => new Dictionary(new Utf8(), new Int32(), 7) },
  { name: 'crc_ok', type: () => new Bool() },
  { name: 'advertiser_addr_type', type: () => new Dictionary(new Utf8(), new Int8(), 3) },
  { name: 'address_resolved', type: () => new Bool() },
  { name: 'service_data_uuid', type: () => new Dictionary(new Utf8(), new Int32(), 11) },
  { name: 'frame_number', type: () => new Uint32() },
];

/** One sealed batch: Data per plain column, raw indices per dictionary column. */
interface SealedBatch {
  length: number;
  columns: Array<Data | SealedIndices>;
}

/** Counts the import report derives from the records. */
export interface RecordStats {
  records: number;
  recordsCrcOk: number;
  advTypeCounts: Map<string, number>;
  advertisers: number;
  advertisersCrcOk: number;
  /** Smallest and largest finite `ts_ms`, or null when no record has one. */
  bounds: { min: number; max: number } | null;
  receivers: string[];
  channels: number[];
}

/** Collects records; the decoders call `begin`, the setters, then `end`. */
export class RecordWriter {
  constructor(private readonly dictionaryEntryLimit = DICTIONARY_ENTRY_LIMIT) {}

  private row = 0;
  private readonly batches: SealedBatch[] = [];
  /** Rows in `batches`. */
  private sealedRows = 0;
  /** Whether rows were drained: the rest is then assembled with compacted dictionaries too. */
  private drained = false;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly ad: AdSummary = createAdSummary();
  private readonly hash = new Uint32Array(2);
  private readonly valueHash = new Uint32Array(2);
  /** Decoded AD payloads: raw-bytes hash → entry; AD_FIELD_COUNT ints per entry. */
  private adKeys = new PairIndex();
  private adFields = new Int32Array(1024 * AD_FIELD_COUNT);
  private adEntries = 0;
  /** Service UUIDs of the cached payloads: (offset from payload start, size) pairs. */
  private uuidPositions = new Int32Array(1024);
  private uuidPositionCount = 0;
  private readonly receiverNames: string[] = [];
  private readonly receiverIndices = new Map<string, number>();
  private readonly receiverUsed: number[] = [];

  // Columns, in BLE_RECORD_COLUMNS order.
  private readonly tsMs = new NumberColumn(new Float64(), BATCH_ROWS);
  private readonly captureId = new IndexColumn(BATCH_ROWS);
  private readonly receiver = new IndexColumn(BATCH_ROWS);
  private readonly channel = new NumberColumn(new Uint8(), BATCH_ROWS);
  private readonly rssi = new NumberColumn(new Int8(), BATCH_ROWS);
  private readonly advType = new IndexColumn(BATCH_ROWS);
  private readonly txAdd = new NumberColumn(new Uint8(), BATCH_ROWS);
  private readonly rxAdd = new NumberColumn(new Uint8(), BATCH_ROWS);
  private readonly advertiserAddr = new IndexColumn(BATCH_ROWS);
  private readonly initiatorAddr = new IndexColumn(BATCH_ROWS);
  private readonly scannerAddr = new IndexColumn(BATCH_ROWS);
  private advertiserAddresses = new GrowingDictionary();
  private initiatorAddresses = new GrowingDictionary();
  private scannerAddresses = new GrowingDictionary();
  private readonly addressTypesUsed = new Uint8Array(ADDRESS_TYPE_NAMES.length);
  private readonly flags = new NumberColumn(new Uint8(), BATCH_ROWS);
  private readonly localName = new IndexColumn(BATCH_ROWS);
  private names = new GrowingDictionary();
  private readonly txPower = new NumberColumn(new Int8(), BATCH_ROWS);
  private readonly appearance = new NumberColumn(new Uint16(), BATCH_ROWS);
  private readonly companyId = new NumberColumn(new Uint16(), BATCH_ROWS);
  private readonly manufacturerData = new IndexColumn(BATCH_ROWS);
  private manufacturerValues = new GrowingDictionary();
  private readonly serviceUuids = new Utf8ListColumn(BATCH_ROWS);
  private readonly serviceData = new IndexColumn(BATCH_ROWS);
  private serviceDataValues = new GrowingDictionary();
  private readonly payloadSignature = new IndexColumn(BATCH_ROWS);
  private signatures = new GrowingDictionary();
  private readonly crcOk = new BoolColumn(BATCH_ROWS);
  private readonly advertiserAddrType = new IndexColumn(BATCH_ROWS);
  private readonly addressResolved = new BoolColumn(BATCH_ROWS);
  private readonly serviceDataUuid = new IndexColumn(BATCH_ROWS);
  private serviceDataUuids = new GrowingDictionary();
  private readonly frameNumber = new NumberColumn(new Uint32(), BATCH_ROWS);

  // The record being written.
  private currentAdvType = -1;
  private currentAdvertiserSent = false;
  /** Index of the record's AdvA in the address dictionary, or -1. */
  private currentAdvertiser = -1;
  private currentCrc = -1;
  private currentTs = Number.NaN;

  // Statistics.
  private records = 0;
  private recordsCrcOk = 0;
  private readonly advTypeCounts = new Float64Array(ADV_TYPE_NAMES.length);
  /** Per address-dictionary entry: 1 seen as an advertiser, 2 also in a CRC-good record. */
  private advertiserSeen = new Uint8Array(1024);
  /** The same flags by address, for the advertisers of dictionaries already forgotten. */
  private readonly forgottenAdvertisers = new AddressFlags();
  /** How often a drain forgot the dictionaries. */
  private dictionaryResets = 0;
  private readonly channelsSeen = new Uint8Array(256);
  private minTs = Number.POSITIVE_INFINITY;
  private maxTs = Number.NEGATIVE_INFINITY;

  /** The dictionary index of a receiver name, registering it on first use. */
  receiverIndex(name: string): number {
    let index = this.receiverIndices.get(name);
    if (index === undefined) {
      index = this.receiverNames.length;
      this.receiverNames.push(name);
      this.receiverIndices.set(name, index);
    }
    return index;
  }

  /** Starts a record. `tsMs` may be NaN (no timestamp: ts_ms is null). */
  begin(tsMs: number, receiver: number, frame: number): void {
    const row = this.row;
    this.currentAdvType = -1;
    this.currentAdvertiserSent = false;
    this.currentAdvertiser = -1;
    this.currentCrc = -1;
    this.currentTs = tsMs;
    if (tsMs === tsMs) this.tsMs.set(row, tsMs);
    this.captureId.set(row, 0);
    this.receiver.set(row, receiver);
    if (this.receiverUsed[receiver] !== 1) this.receiverUsed[receiver] = 1;
    this.frameNumber.set(row, frame);
  }

  setChannel(channel: number): void {
    this.channel.set(this.row, channel);
    this.channelsSeen[channel] = 1;
  }

  setRssi(dbm: number): void {
    this.rssi.set(this.row, dbm);
  }

  /** `advertiserSent`: the record's AdvA is the sender's (counts it as an advertiser). */
  setAdvType(code: number, advertiserSent: boolean): void {
    this.advType.set(this.row, code);
    this.currentAdvType = code;
    this.currentAdvertiserSent = advertiserSent;
  }

  setTxAdd(bit: number): void {
    this.txAdd.set(this.row, bit);
  }

  setRxAdd(bit: number): void {
    this.rxAdd.set(this.row, bit);
  }

  /**
   * AdvA from `bytes[offset..offset+6)` (over-the-air order) and its address type:
   * 0 public, 1 random, 2 public identity, 3 random identity (HCI-resolved).
   */
  setAdvertiser(bytes: Uint8Array, offset: number, addressType: number): void {
    const index = addressIndex(this.advertiserAddresses, bytes, offset);
    this.advertiserAddr.set(this.row, index);
    if (addressType >= 0) {
      this.advertiserAddrType.set(this.row, addressType);
      this.addressTypesUsed[addressType] = 1;
    }
    this.currentAdvertiser = index;
  }

  setInitiator(bytes: Uint8Array, offset: number): void {
    this.initiatorAddr.set(this.row, addressIndex(this.initiatorAddresses, bytes, offset));
  }

  setScanner(bytes: Uint8Array, offset: number): void {
    this.scannerAddr.set(this.row, addressIndex(this.scannerAddresses, bytes, offset));
  }

  setCrcOk(ok: boolean): void {
    this.crcOk.set(this.row, ok);
    this.currentCrc = ok ? 1 : 0;
  }

  setAddressResolved(resolved: boolean): void {
    this.addressResolved.set(this.row, resolved);
  }

  /**
   * The AD structures in `bytes[start..end)`: the AD columns and the signature. Advertisers
   * repeat their payloads, so decoded payloads are cached by a hash of their raw bytes and a
   * repeated payload costs one hash and one lookup.
   */
  setAdData(bytes: Uint8Array, start: number, end: number): void {
    if (end <= start) return;
    const hash = this.hash;
    fnv1a64(bytes, start, end, hash);
    const low = hash[1];
    const high = hash[0] ^ Math.imul(end - start, 0x9e3779b1);
    let entry = this.adKeys.get(low, high);
    if (entry < 0) {
      entry = this.decodeAd(bytes, start, end);
      this.adKeys.set(low, high, entry);
    }
    const fields = this.adFields;
    const at = entry * AD_FIELD_COUNT;
    const signature = fields[at + AD_SIGNATURE];
    if (signature < 0) return;
    const row = this.row;
    this.payloadSignature.set(row, signature);
    const flags = fields[at + AD_FLAGS];
    if (flags >= 0) this.flags.set(row, flags);
    const txPower = fields[at + AD_TX_POWER];
    if (txPower >= 0) this.txPower.set(row, txPower > 127 ? txPower - 256 : txPower);
    const appearance = fields[at + AD_APPEARANCE];
    if (appearance >= 0) this.appearance.set(row, appearance);
    const name = fields[at + AD_NAME];
    if (name >= 0) this.localName.set(row, name);
    const company = fields[at + AD_COMPANY];
    if (company >= 0) {
      this.companyId.set(row, company);
      this.manufacturerData.set(row, fields[at + AD_MANUFACTURER]);
    }
    const serviceData = fields[at + AD_SERVICE_DATA];
    if (serviceData >= 0) {
      this.serviceData.set(row, serviceData);
      this.serviceDataUuid.set(row, fields[at + AD_SERVICE_DATA_UUID]);
    }
    const uuidCount = fields[at + AD_UUID_COUNT];
    if (uuidCount > 0) {
      const list = this.serviceUuids;
      const uuids = this.uuidPositions;
      let position = fields[at + AD_UUID_START];
      list.open(row);
      for (let index = 0; index < uuidCount; index++, position += 2) list.itemUuid(bytes, start + uuids[position], uuids[position + 1]);
      list.close(row);
    }
  }

  /** Parses an AD payload seen for the first time into a new cache entry; returns its index. */
  private decodeAd(bytes: Uint8Array, start: number, end: number): number {
    const entry = this.adEntries++;
    if ((entry + 1) * AD_FIELD_COUNT > this.adFields.length) {
      const grown = new Int32Array(this.adFields.length * 2);
      grown.set(this.adFields);
      this.adFields = grown;
    }
    const fields = this.adFields;
    const at = entry * AD_FIELD_COUNT;
    fields.fill(-1, at, at + AD_FIELD_COUNT);
    const ad = this.ad;
    parseAdStructures(bytes, start, end, ad);
    if (ad.structures === 0) return entry;
    fields[at + AD_FLAGS] = ad.flags;
    fields[at + AD_TX_POWER] = ad.txPower;
    fields[at + AD_APPEARANCE] = ad.appearance;
    if (ad.nameStart >= 0) {
      // Devices pad names with NULs; they are not part of the name.
      let nameEnd = ad.nameEnd;
      while (nameEnd > ad.nameStart && bytes[nameEnd - 1] === 0) nameEnd--;
      if (nameEnd > ad.nameStart) fields[at + AD_NAME] = this.bytesIndex(this.names, bytes, ad.nameStart, nameEnd, TEXT_UTF8);
    }
    if (ad.companyId >= 0) {
      fields[at + AD_COMPANY] = ad.companyId;
      fields[at + AD_MANUFACTURER] = this.bytesIndex(this.manufacturerValues, bytes, ad.manufacturerStart, ad.manufacturerEnd, TEXT_HEX);
    }
    if (ad.serviceDataStart >= 0) {
      const uuidEnd = ad.serviceDataUuidStart + ad.serviceDataUuidSize;
      fields[at + AD_SERVICE_DATA_UUID] = this.bytesIndex(this.serviceDataUuids, bytes, ad.serviceDataUuidStart, uuidEnd, TEXT_UUID);
      fields[at + AD_SERVICE_DATA] = this.bytesIndex(this.serviceDataValues, bytes, ad.serviceDataStart, ad.serviceDataEnd, TEXT_HEX);
    }
    fields[at + AD_UUID_COUNT] = ad.uuidCount;
    if (ad.uuidCount > 0) {
      if (this.uuidPositionCount + ad.uuidCount * 2 > this.uuidPositions.length) {
        const grown = new Int32Array(Math.max(this.uuidPositions.length * 2, this.uuidPositionCount + ad.uuidCount * 2));
        grown.set(this.uuidPositions);
        this.uuidPositions = grown;
      }
      fields[at + AD_UUID_START] = this.uuidPositionCount;
      for (let index = 0; index < ad.uuidCount; index++) {
        // Positions relative to the payload start: equal payloads put them at equal offsets.
        this.uuidPositions[this.uuidPositionCount++] = ad.uuidOffsets[index] - start;
        this.uuidPositions[this.uuidPositionCount++] = ad.uuidSizes[index];
      }
    }
    const hash = this.valueHash;
    fnv1a64(bytes, start, ad.signatureEnd, hash);
    const high = hash[0];
    const low = hash[1];
    let signature = this.signatures.find(low, high);
    if (signature < 0) signature = this.signatures.insert(low, high, hex32(high) + hex32(low));
    fields[at + AD_SIGNATURE] = signature;
    return entry;
  }

  /**
   * The dictionary index of the value `bytes[start..end)`, looked up by its FNV-1a hash so
   * that a repeated value costs no string; the text is made once per distinct value.
   */
  private bytesIndex(dictionary: GrowingDictionary, bytes: Uint8Array, start: number, end: number, form: number): number {
    const hash = this.valueHash;
    fnv1a64(bytes, start, end, hash);
    // The length is folded into the key too: a false match needs a 64-bit collision of values
    // of one length (about 1 in 10^7 for a million distinct values).
    const high = hash[0] ^ Math.imul(end - start, 0x9e3779b1);
    const found = dictionary.find(hash[1], high);
    if (found >= 0) return found;
    return dictionary.insert(hash[1], high, this.text(bytes, start, end, form));
  }

  private text(bytes: Uint8Array, start: number, end: number, form: number): string {
    if (form === TEXT_HEX) {
      let text = '';
      for (let index = start; index < end; index++) text += HEX_DIGITS[bytes[index]];
      return text;
    }
    if (form === TEXT_UUID) return formatUuid(bytes, start, end - start);
    // Arrow Utf8 must hold valid UTF-8: decoding replaces invalid sequences with U+FFFD.
    return this.decoder.decode(bytes.subarray(start, end));
  }

  /** Ends the record: counts it and seals the batch when it is full. */
  end(): void {
    this.records++;
    const crcOk = this.currentCrc !== 0;
    if (crcOk) this.recordsCrcOk++;
    if (this.currentAdvType >= 0) this.advTypeCounts[this.currentAdvType]++;
    const advertiser = this.currentAdvertiser;
    if (this.currentAdvertiserSent && advertiser >= 0) {
      if (advertiser >= this.advertiserSeen.length) {
        const grown = new Uint8Array(Math.max(advertiser + 1, this.advertiserSeen.length * 2));
        grown.set(this.advertiserSeen);
        this.advertiserSeen = grown;
      }
      this.advertiserSeen[advertiser] |= crcOk ? 3 : 1;
    }
    const ts = this.currentTs;
    if (ts === ts) {
      if (ts < this.minTs) this.minTs = ts;
      if (ts > this.maxTs) this.maxTs = ts;
    }
    this.row++;
    if (this.row === BATCH_ROWS) this.seal();
  }

  private seal(): void {
    const length = this.row;
    if (length === 0) return;
    this.batches.push({
      length,
      columns: [
        this.tsMs.seal(length),
        this.captureId.seal(length),
        this.receiver.seal(length),
        this.channel.seal(length),
        this.rssi.seal(length),
        this.advType.seal(length),
        this.txAdd.seal(length),
        this.rxAdd.seal(length),
        this.advertiserAddr.seal(length),
        this.initiatorAddr.seal(length),
        this.scannerAddr.seal(length),
        this.flags.seal(length),
        this.localName.seal(length),
        this.txPower.seal(length),
        this.appearance.seal(length),
        this.companyId.seal(length),
        this.manufacturerData.seal(length),
        this.serviceUuids.seal(length),
        this.serviceData.seal(length),
        this.payloadSignature.seal(length),
        this.crcOk.seal(length),
        this.advertiserAddrType.seal(length),
        this.addressResolved.seal(length),
        this.serviceDataUuid.seal(length),
        this.frameNumber.seal(length),
      ],
    });
    this.sealedRows += length;
    this.row = 0;
  }

  /** What the report needs from the records. */
  stats(): RecordStats {
    const advTypeCounts = new Map<string, number>();
    this.advTypeCounts.forEach((count, code) => {
      if (count > 0) advTypeCounts.set(ADV_TYPE_NAMES[code], count);
    });
    const channels: number[] = [];
    this.channelsSeen.forEach((seen, channel) => {
      if (seen) channels.push(channel);
    });
    return {
      records: this.records,
      recordsCrcOk: this.recordsCrcOk,
      advTypeCounts,
      ...this.advertiserCounts(),
      bounds: this.minTs <= this.maxTs ? { min: this.minTs, max: this.maxTs } : null,
      receivers: this.receiverNames.filter((_, index) => this.receiverUsed[index] === 1),
      channels,
    };
  }

  /** Rows written and not yet drained into a table. */
  get pendingRows(): number {
    return this.sealedRows + this.row;
  }

  /**
   * Seals the last batch and assembles the table. Every batch of a dictionary column shares
   * one dictionary; fixed dictionaries (receivers, adv_type, advertiser_addr_type) keep only
   * the values that occur, in code order. `metadata` becomes the schema metadata. After a
   * `drain`, the rest is assembled as a drain is.
   */
  toTable(captureId: string, metadata: Map<string, string>): Table {
    this.seal();
    return this.assemble(captureId, metadata, this.drained);
  }

  /**
   * The rows written since the last drain as a table, then forgotten: how a streaming import
   * writes a file of any size in pieces. Each dictionary keeps only the values these rows use
   * (in first-seen order), so memory stays at one drain's rows plus each dictionary's distinct
   * values. Null when no row is pending.
   */
  drain(captureId: string, metadata: Map<string, string>): Table | null {
    this.seal();
    if (this.batches.length === 0) return null;
    this.drained = true;
    const table = this.assemble(captureId, metadata, true);
    if (this.dictionaryEntries() > this.dictionaryEntryLimit) this.forgetDictionaries();
    return table;
  }

  /** Times a drain forgot the value dictionaries. */
  get dictionaryResetCount(): number {
    return this.dictionaryResets;
  }

  private dictionaryEntries(): number {
    return (
      this.adEntries +
      this.advertiserAddresses.values.length +
      this.initiatorAddresses.values.length +
      this.scannerAddresses.values.length +
      this.names.values.length +
      this.manufacturerValues.values.length +
      this.serviceDataValues.values.length +
      this.signatures.values.length +
      this.serviceDataUuids.values.length
    );
  }

  /**
   * Starts the value dictionaries and the payload cache afresh. Only between drains: no pending
   * row refers to them then, and each drained table carried its own dictionaries. The advertiser
   * flags move to a table keyed by address, so the report still counts each advertiser once.
   */
  private forgetDictionaries(): void {
    this.foldAdvertiserFlags(this.forgottenAdvertisers);
    this.advertiserSeen = new Uint8Array(1024);
    this.advertiserAddresses = new GrowingDictionary();
    this.initiatorAddresses = new GrowingDictionary();
    this.scannerAddresses = new GrowingDictionary();
    this.names = new GrowingDictionary();
    this.manufacturerValues = new GrowingDictionary();
    this.serviceDataValues = new GrowingDictionary();
    this.signatures = new GrowingDictionary();
    this.serviceDataUuids = new GrowingDictionary();
    this.adKeys = new PairIndex();
    this.adFields = new Int32Array(1024 * AD_FIELD_COUNT);
    this.adEntries = 0;
    this.uuidPositions = new Int32Array(1024);
    this.uuidPositionCount = 0;
    this.dictionaryResets++;
  }

  private foldAdvertiserFlags(into: AddressFlags): void {
    const seen = this.advertiserSeen;
    const count = Math.min(seen.length, this.advertiserAddresses.values.length);
    for (let index = 0; index < count; index++) {
      if (seen[index] === 0) continue;
      const { low, high } = this.advertiserAddresses.keyOf(index);
      into.add(low, high, seen[index]);
    }
  }

  /** Distinct advertisers, and those seen in a CRC-good record, over the whole file. */
  private advertiserCounts(): { advertisers: number; advertisersCrcOk: number } {
    if (this.dictionaryResets === 0) {
      return {
        advertisers: this.advertiserSeen.reduce((count, seen) => count + (seen ? 1 : 0), 0),
        advertisersCrcOk: this.advertiserSeen.reduce((count, seen) => count + (seen & 2 ? 1 : 0), 0),
      };
    }
    const all = this.forgottenAdvertisers.copy();
    this.foldAdvertiserFlags(all);
    return { advertisers: all.size, advertisersCrcOk: all.countWith(2) };
  }

  private assemble(captureId: string, metadata: Map<string, string>, onlyUsedValues: boolean): Table {
    const advTypesUsed = Array.from(this.advTypeCounts, (count) => (count > 0 ? 1 : 0));
    const dictionaries: Record<string, { values: ReadonlyArray<string>; used: ArrayLike<number> | null }> = {
      capture_id: { values: [captureId], used: null },
      receiver: { values: this.receiverNames, used: this.receiverNames.map((_, index) => (this.receiverUsed[index] === 1 ? 1 : 0)) },
      adv_type: { values: ADV_TYPE_NAMES, used: advTypesUsed },
      advertiser_addr_type: { values: ADDRESS_TYPE_NAMES, used: this.addressTypesUsed },
      advertiser_addr: { values: this.advertiserAddresses.values, used: null },
      initiator_addr: { values: this.initiatorAddresses.values, used: null },
      scanner_addr: { values: this.scannerAddresses.values, used: null },
      payload_signature: { values: this.signatures.values, used: null },
      local_name: { values: this.names.values, used: null },
      manufacturer_data: { values: this.manufacturerValues.values, used: null },
      service_data: { values: this.serviceDataValues.values, used: null },
      service_data_uuid: { values: this.serviceDataUuids.values, used: null },
    };
    const fields = BLE_RECORD_COLUMNS.map((column) => new Field(column.name, column.type(), true));
    const schema = new Schema(fields, metadata);
    const encoder = new TextEncoder();
    const dictionaryColumns = new Map<number, { remap: Int32Array | null; vector: Vector<Utf8> }>();
    fields.forEach((field, position) => {
      const dictionary = dictionaries[field.name];
      if (!dictionary) return;
      let values = dictionary.values;
      let remap: Int32Array | null = null;
      const used = onlyUsedValues && field.name !== 'capture_id' ? this.valuesUsedByBatches(position, values.length) : dictionary.used;
      if (used) {
        remap = new Int32Array(values.length);
        const kept: string[] = [];
        values.forEach((value, index) => {
          if (used[index]) {
            remap![index] = kept.length;
            kept.push(value);
          }
        });
        values = kept;
      }
      dictionaryColumns.set(position, { remap, vector: makeVector(utf8Data(values, encoder)) });
    });

    const batches = this.batches.map((batch) => {
      const children = batch.columns.map((column, position) => {
        const dictionary = dictionaryColumns.get(position);
        if (!dictionary) return column as Data;
        const type = fields[position].type;
        if (!DataType.isDictionary(type)) throw new Error(`column ${fields[position].name} is not a dictionary`);
        const sealed = column as SealedIndices;
        return makeData({
          type,
          length: sealed.length,
          nullCount: sealed.nullCount,
          nullBitmap: sealed.nullBitmap,
          data: dictionaryIndices(sealed.indices, dictionary.remap, type.indices.bitWidth),
          dictionary: dictionary.vector,
        });
      });
      return new RecordBatch(schema, makeData({ type: new Struct(fields), length: batch.length, nullCount: 0, children }));
    });
    this.batches.length = 0;
    this.sealedRows = 0;
    return batches.length > 0 ? new Table(schema, batches) : new Table(schema);
  }

  /** 1 per dictionary entry that a pending batch of the column at `position` refers to. */
  private valuesUsedByBatches(position: number, size: number): Uint8Array {
    const used = new Uint8Array(size);
    for (const batch of this.batches) {
      // Null rows hold index 0: marking it keeps at most one unused value.
      const { indices } = batch.columns[position] as SealedIndices;
      for (let row = 0; row < indices.length; row++) used[indices[row]] = 1;
    }
    return used;
  }
}

/** Indices remapped (when a dictionary was compacted) and converted to the schema's width. */
function dictionaryIndices(indices: Int32Array, remap: Int32Array | null, bitWidth: number): Int8Array | Int16Array | Int32Array {
  const out = bitWidth === 8 ? new Int8Array(indices.length) : bitWidth === 16 ? new Int16Array(indices.length) : remap ? indices : null;
  if (out === null) return indices;
  if (remap) for (let row = 0; row < indices.length; row++) out[row] = remap[indices[row]];
  else out.set(indices);
  return out;
}

// A cached AD payload's fields (-1 = absent): dictionary indices, or raw values.
const AD_SIGNATURE = 0;
const AD_FLAGS = 1;
const AD_TX_POWER = 2;
const AD_APPEARANCE = 3;
const AD_NAME = 4;
const AD_COMPANY = 5;
const AD_MANUFACTURER = 6;
const AD_SERVICE_DATA = 7;
const AD_SERVICE_DATA_UUID = 8;
const AD_UUID_START = 9;
const AD_UUID_COUNT = 10;
const AD_FIELD_COUNT = 11;

const TEXT_HEX = 0;
const TEXT_UUID = 1;
const TEXT_UTF8 = 2;
const HEX_DIGITS = Array.from({ length: 256 }, (_, value) => value.toString(16).padStart(2, '0'));

/** An address's dictionary index, keyed by its two halves (no string unless it is new). */
function addressIndex(dictionary: GrowingDictionary, bytes: Uint8Array, offset: number): number {
  const low = bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24);
  const high = bytes[offset + 4] | (bytes[offset + 5] << 8);
  const found = dictionary.find(low, high);
  return found >= 0 ? found : dictionary.insert(low, high, formatAddress(bytes, offset));
}

function hex32(value: number): string {
  return value.toString(16).padStart(8, '0');
}

/** Flag bits by 48-bit address (its two halves), OR-ed together: advertisers across dictionary resets. */
class AddressFlags {
  private readonly index = new PairIndex();
  private flags = new Uint8Array(1024);
  private entries = 0;

  get size(): number {
    return this.entries;
  }

  add(low: number, high: number, bits: number): void {
    let entry = this.index.get(low, high);
    if (entry < 0) {
      entry = this.entries++;
      if (entry >= this.flags.length) {
        const grown = new Uint8Array(this.flags.length * 2);
        grown.set(this.flags);
        this.flags = grown;
      }
      this.index.set(low, high, entry);
    }
    this.flags[entry] |= bits;
  }

  countWith(bit: number): number {
    let count = 0;
    for (let entry = 0; entry < this.entries; entry++) if (this.flags[entry] & bit) count++;
    return count;
  }

  copy(): AddressFlags {
    const copy = new AddressFlags();
    this.index.forEach((low, high, entry) => copy.add(low, high, this.flags[entry]));
    return copy;
  }
}
