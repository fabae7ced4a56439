import type { RecordBatch } from 'apache-arrow';
import type { SelectedBatch } from '../../data/selection-types.ts';
import { BleCodeScratch, bleCodedColumn, BleEntryTexts, markNulls, bleCodedColumnWithNullBits, bleColumnAllNull, bleFalseBits, bleNumberColumn, BleCodedColumn } from './column-access.ts';
import { BleGrowableInt32 } from './growable.ts';
import { BLE_NO_CHANNEL, BLE_ROLE, BLE_ROLES, BLE_VOTE, BLE_VOTES, BleObservationStore, type BleEventGroups } from './observation-store.ts';
import { BlePayloadColumns } from './payload-features.ts';

/**
 * The scan: two passes over the selected rows that turn them into mergeable per-address state.
 *
 * - Scalar accumulators per address (row counts, type votes, roles) merge by +.
 * - Transmitter events (time, receiver, RSSI, payload) are grouped by address, in input order
 *   within each address; everything downstream reads them sorted by time (a stable sort), so
 *   any split of the input into batches gives the same result.
 *
 * The first pass (`add`, per batch) decides each row's transmitter and counts; the second
 * (`finish`) places every event straight into its address's group, whose sizes the first pass
 * counted, so events are never held in arrival order and sorted afterwards.
 *
 * Rows are attributed to the address that *transmitted* them: ScanA for SCAN_REQ, InitA for
 * CONNECT_IND (their TxAdd describes that address), AdvA otherwise. The AdvA a SCAN_REQ or
 * CONNECT_IND addresses, and the TargetA of a directed PDU, are *referenced*: they get a type
 * vote (from RxAdd / advertiser_addr_type) and a role count, not an event (the RSSI is not theirs).
 */

/** How a PDU type attributes its addresses. */
const enum RowRole {
  Advertiser = 0,
  ScanRequest = 1,
  ConnectRequest = 2,
  NoAddress = 3,
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


/**
 * Transmitted events per address by role and vote, counted by the first pass in one increment
 * per event (slot `role * TALLY_VOTES + vote + 1`, vote -1 for none) instead of one for the role
 * and one for the vote: each read-modify-write at an address-dependent index costs the row loop
 * about 2 ms per million rows. `finish` adds them to the store's roles and votes. RowRole's
 * transmitter roles have the numbers of BLE_ROLE's (advertiser 0, scanner 1, initiator 2).
 */
const TALLY_VOTES = BLE_VOTES + 1;
/** Slots per address: three roles by five votes, padded to a power of two. */
const TALLY = 16;

/** The global id of an address code met for the first time (the caller re-reads the per-address arrays, which may have grown). */
function newAddress(store: BleObservationStore, tallies: BleGrowableInt32, column: BleCodedColumn, map: Int32Array, code: number): number {
  const id = store.addressId(column.text(code).toUpperCase());
  tallies.ensure((id + 1) * TALLY, 0);
  map[code] = id;
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

/** An all-null address column reads like an absent one (and is not read at all). */
function presentCodes(batch: RecordBatch, name: string | undefined, scratch: BleCodeScratch): BleCodedColumn | undefined {
  return name === undefined || bleColumnAllNull(batch, name) ? undefined : bleCodedColumn(batch, name, scratch);
}

const NO_CODES = new Int32Array(0);
const NO_MAP = new Int32Array(0);
const NO_TABLE = new Int8Array(0);
const NO_VALUES = new Float64Array(0);
const NO_BITS = new Uint8Array(0);
const EMPTY_COLUMN = new BleCodedColumn(NO_CODES, 0, NO_CODES, true, undefined, []);

/** Scans selected batches into a store. Batches may come from several captures. */
export class BleScanner {
  readonly store = new BleObservationStore();
  private readonly roleCache = new WeakMap<object, Int8Array>();
  private readonly typeCache = new WeakMap<object, Int8Array>();
  private readonly receiverCache = new WeakMap<object, Int32Array>();
  private readonly payloadCache = new WeakMap<object, Int32Array>();
  private unknownReceiver = -1;
  private readonly entryTexts = new BleEntryTexts();
  private readonly advertiserScratch = new BleCodeScratch();
  private readonly initiatorScratch = new BleCodeScratch();
  private readonly scannerScratch = new BleCodeScratch();
  private readonly advTypeScratch = new BleCodeScratch();
  private readonly addrTypeScratch = new BleCodeScratch();
  /** Per scanned batch: its columns and each row's transmitter (-1: no event), for the second pass. */
  private readonly scanned: Array<{ columns: BatchColumns; transmitter: Int32Array }> = [];
  private readonly state = new ScanState();

  constructor(private readonly options: BleScanOptions) {}

  /**
   * The first pass over one batch. The row loop reads the columns' own arrays (see
   * column-access.ts); strings are only touched the first time a dictionary code is met. Absent
   * optional columns read as empty arrays behind a flag, so the loop has no per-row undefined
   * checks. Call `finish` after the last batch.
   */
  add(selected: SelectedBatch): void {
    const { batch, mask } = selected;
    const store = this.store;
    if (!store.captures.has(selected.captureId)) {
      store.captures.set(selected.captureId, batch.schema.metadata.get('sextant.time_origin') ?? null);
    }
    if (selected.selectedCount === 0 || batch.numRows === 0) return;
    const columns = this.options.columns;
    const time = bleNumberColumn(batch, batch.schema.metadata.get('sextant.time_column') ?? 'ts_ms');
    // The address and type columns are read by this pass only: their null-marked copies reuse scratch buffers.
    const advertiser = bleCodedColumn(batch, columns.advertiser, this.advertiserScratch);
    if (!time || !advertiser) {
      store.selectedRows += selected.selectedCount;
      store.noTimestamp += time ? 0 : selected.selectedCount;
      store.noAddress += advertiser ? 0 : selected.selectedCount;
      return;
    }
    const initiator = presentCodes(batch, columns.initiator, this.initiatorScratch);
    const scanner = presentCodes(batch, columns.scanner, this.scannerScratch);
    const advType = bleCodedColumn(batch, 'adv_type', this.advTypeScratch);
    const addrType = bleCodedColumn(batch, 'advertiser_addr_type', this.addrTypeScratch);
    const txAdd = bleNumberColumn(batch, 'tx_add', true);
    const rxAdd = bleNumberColumn(batch, 'rx_add', true);
    const rssi = bleNumberColumn(batch, 'rssi', true);
    const channel = bleNumberColumn(batch, batch.schema.metadata.get('sextant.channel_column') ?? 'channel', true);
    const crc = bleFalseBits(batch, 'crc_ok');
    // Read again by the second pass: raw codes and the null bitmap rather than a copy with nulls marked.
    const receiver = bleCodedColumnWithNullBits(batch, 'receiver');
    const signature = bleCodedColumnWithNullBits(batch, 'payload_signature');

    const rows = batch.numRows;
    const roleOf = derivedCodes(this.roleCache, advType, (text) => ROLE_OF_ADV_TYPE[text] ?? (text.startsWith('RESERVED') ? RowRole.NoAddress : RowRole.Advertiser));
    const voteOf = derivedCodes(this.typeCache, addrType, (text) => VOTE_OF_TYPE_NAME[text] ?? -1);
    const batchColumns: BatchColumns = {
      payloadColumns: new BlePayloadColumns(batch, this.entryTexts),
      rows,
      mask,
      time,
      advertiser,
      advertiserMap: store.codeMap(advertiser),
      initiator: initiator ?? EMPTY_COLUMN,
      initiatorMap: initiator ? store.codeMap(initiator) : NO_MAP,
      scanner: scanner ?? EMPTY_COLUMN,
      scannerMap: scanner ? store.codeMap(scanner) : NO_MAP,
      roleCodes: advType ? advType.codes : NO_CODES,
      roleOf: roleOf ?? NO_TABLE,
      typeCodes: addrType ? addrType.codes : NO_CODES,
      voteOf: voteOf ?? NO_TABLE,
      tx: txAdd ?? NO_VALUES,
      rx: rxAdd ?? NO_VALUES,
      rssi: rssi ?? NO_VALUES,
      channel: channel ?? NO_VALUES,
      crcBits: crc ? crc.bits : NO_BITS,
      crcOffset: crc ? crc.offset : 0,
      excludeCrcBad: !this.options.includeCrcBad,
      receiver: receiver ?? EMPTY_COLUMN,
      receiverMap: receiver ? this.codeTable(this.receiverCache, receiver) : NO_MAP,
      signature: signature ?? EMPTY_COLUMN,
      payloadMap: signature ? this.codeTable(this.payloadCache, signature) : NO_MAP,
      flags: (initiator ? HAS_INITIATOR : 0) | (scanner ? HAS_SCANNER : 0) | (roleOf ? HAS_ROLE : 0) | (voteOf ? HAS_TYPE : 0) | (txAdd ? HAS_TX : 0) | (rxAdd ? HAS_RX : 0) | (rssi ? HAS_RSSI : 0) | (crc ? HAS_CRC : 0) | (receiver ? HAS_RECEIVER : 0) | (signature ? HAS_SIGNATURE : 0) | (channel ? HAS_CHANNEL : 0),
    };
    const transmitter = new Int32Array(rows);
    scanRows(store, this.state, batchColumns, transmitter);
    // Kept for the second pass without the columns read from scratch buffers (the next batch overwrites them).
    this.scanned.push({ columns: { ...batchColumns, advertiser: EMPTY_COLUMN, initiator: EMPTY_COLUMN, scanner: EMPTY_COLUMN, roleCodes: NO_CODES, typeCodes: NO_CODES }, transmitter });
  }

  /**
   * The second pass: every event written into its address's group (sizes are the transmitter
   * role counts of the first pass), in input order, then each group put in time order.
   */
  finish(): BleObservationStore {
    const store = this.store;
    const addresses = store.addressCount;
    // Addresses made outside the row loop (the store's addressId is public) have no tallies yet.
    this.state.tallies.ensure(addresses * TALLY, 0);
    const start = addTallies(store, this.state.tallies.values);
    const events = start[addresses];
    const groups: BleEventGroups = {
      start,
      time: new Float64Array(events),
      receiver: new Int32Array(events),
      rssi: new Float64Array(events),
      payload: new Int32Array(events),
      channel: new Uint8Array(events),
    };
    const fill = start.slice(0, addresses);
    const scratch = { receiver: new BleCodeScratch(), signature: new BleCodeScratch() };
    for (const { columns, transmitter } of this.scanned) placeEvents(this, store, columns, transmitter, fill, groups, scratch);
    this.scanned.length = 0;
    // Groups keep input order: while event times never went down in input order, all are in time order.
    for (let a = 0; this.state.timesDescend && a < addresses; a++) {
      const from = start[a];
      const to = start[a + 1];
      const time = groups.time;
      for (let index = from + 1; index < to; index++) {
        if (time[index] < time[index - 1]) {
          sortGroup(groups, from, to);
          break;
        }
      }
    }
    store.events = groups;
    return store;
  }

  /** The receiver id of a code met for the first time. */
  newReceiver(column: BleCodedColumn, map: Int32Array, code: number): number {
    const id = this.namedReceiver(column.text(code));
    map[code] = id;
    return id;
  }

  /** The id of "(unknown receiver)", for rows without one. */
  noReceiver(): number {
    if (this.unknownReceiver < 0) this.unknownReceiver = this.namedReceiver('(unknown receiver)');
    return this.unknownReceiver;
  }

  /** Per code space, the global id of each code (-2 = not yet). */
  private codeTable(cache: WeakMap<object, Int32Array>, column: BleCodedColumn): Int32Array {
    let map = cache.get(column.space);
    if (!map || map.length < column.size) {
      map = new Int32Array(column.size).fill(-2);
      cache.set(column.space, map);
    }
    return map;
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
}

const HAS_INITIATOR = 1;
const HAS_SCANNER = 2;
const HAS_ROLE = 4;
const HAS_TYPE = 8;
const HAS_TX = 16;
const HAS_RX = 32;
const HAS_RSSI = 64;
const HAS_CRC = 128;
const HAS_RECEIVER = 256;
const HAS_SIGNATURE = 512;
const HAS_CHANNEL = 1024;

/** One batch's columns as the row loop reads them; absent optional columns are empty arrays behind a flag. */
interface BatchColumns {
  payloadColumns: BlePayloadColumns;
  rows: number;
  mask: Uint8Array;
  time: ArrayLike<number>;
  advertiser: BleCodedColumn;
  advertiserMap: Int32Array;
  initiator: BleCodedColumn;
  initiatorMap: Int32Array;
  scanner: BleCodedColumn;
  scannerMap: Int32Array;
  roleCodes: ArrayLike<number>;
  roleOf: Int8Array;
  typeCodes: ArrayLike<number>;
  voteOf: Int8Array;
  tx: ArrayLike<number>;
  rx: ArrayLike<number>;
  rssi: ArrayLike<number>;
  channel: ArrayLike<number>;
  /** Bit `crcOffset + row` is 0 when the CRC failed. */
  crcBits: Uint8Array;
  crcOffset: number;
  excludeCrcBad: boolean;
  receiver: BleCodedColumn;
  receiverMap: Int32Array;
  signature: BleCodedColumn;
  payloadMap: Int32Array;
  flags: number;
}

/** What the first pass keeps besides the store: the transmitted-event tallies and the input order of event times. */
class ScanState {
  readonly tallies = new BleGrowableInt32(1024);
  /** Time of the last event so far, in input order. */
  lastEventTime = -Infinity;
  /** Whether an event's time was ever below the one before it (then some group may need sorting). */
  timesDescend = false;
}

/**
 * Adds the tallies of transmitted events to the store's roles and votes; returns each address's
 * group start (group sizes are the transmitter role counts).
 */
function addTallies(store: BleObservationStore, tallies: Int32Array): Int32Array {
  const addresses = store.addressCount;
  const roles = store.roles.values;
  const votes = store.votes.values;
  const start = new Int32Array(addresses + 1);
  for (let a = 0; a < addresses; a++) {
    let transmitted = 0;
    for (let role = BLE_ROLE.advertiser; role <= BLE_ROLE.initiator; role++) {
      const slot = a * TALLY + role * TALLY_VOTES;
      let count = tallies[slot];
      for (let vote = 0; vote < BLE_VOTES; vote++) {
        const voted = tallies[slot + 1 + vote];
        votes[a * BLE_VOTES + vote] += voted;
        count += voted;
      }
      roles[a * BLE_ROLES + role] += count;
      transmitted += count;
    }
    start[a + 1] = start[a] + transmitted;
  }
  return start;
}

/**
 * The first pass's row loop, apart from the scanner so that it is compiled once and reused by
 * every batch and run. Counts into the store's per-address arrays and the state's tallies,
 * adds to the store's row totals, and writes each row's transmitter (-1 for rows without an event).
 */
function scanRows(store: BleObservationStore, state: ScanState, c: BatchColumns, transmitterOf: Int32Array): void {
  const { rows, mask, time, advertiserMap, initiatorMap, scannerMap, roleCodes, roleOf, typeCodes, voteOf, tx, rx, crcBits, crcOffset, flags } = c;
  const advertiserCodes = c.advertiser.codes;
  const initiatorCodes = c.initiator.codes;
  const scannerCodes = c.scanner.codes;
  const hasInitiator = (flags & HAS_INITIATOR) !== 0;
  const hasScanner = (flags & HAS_SCANNER) !== 0;
  const hasRole = (flags & HAS_ROLE) !== 0;
  const hasType = (flags & HAS_TYPE) !== 0;
  const hasTx = (flags & HAS_TX) !== 0;
  const hasRx = (flags & HAS_RX) !== 0;
  const hasCrc = (flags & HAS_CRC) !== 0;
  const excludeCrcBad = c.excludeCrcBad;
  // Re-read after each new address: the arrays grow then.
  let votes = store.votes.values;
  let roles = store.roles.values;
  let crcBadRows = store.crcBadRows.values;
  let tallies = state.tallies.values;
  let lastEventTime = state.lastEventTime;
  let timesDescend = state.timesDescend;
  let selectedRows = 0;
  let crcBadExcluded = 0;
  let crcBadIncluded = 0;
  let noTimestamp = 0;
  let noAddress = 0;

  transmitterOf.fill(-1);
  for (let row = 0; row < rows; row++) {
    if (mask[row] === 0) continue;
    selectedRows++;
    let crcBad = false;
    if (hasCrc) {
      const bit = crcOffset + row;
      crcBad = (crcBits[bit >> 3] & (1 << (bit & 7))) === 0;
      if (crcBad && excludeCrcBad) {
        crcBadExcluded++;
        continue;
      }
    }
    const ts = time[row];
    if (Number.isNaN(ts)) {
      noTimestamp++;
      continue;
    }
    let role = RowRole.Advertiser;
    if (hasRole) {
      const code = roleCodes[row];
      if (code >= 0) role = roleOf[code];
    }
    if (role === RowRole.NoAddress) {
      noAddress++;
      continue;
    }
    let adv = -1;
    const advCode = advertiserCodes[row];
    if (advCode >= 0) {
      adv = advertiserMap[advCode];
      if (adv === -2) {
        adv = newAddress(store, state.tallies, c.advertiser, advertiserMap, advCode);
        ({ votes, roles, crcBadRows, tallies } = grownArrays(store, state));
      }
    }
    const txValue = hasTx ? tx[row] : Number.NaN;
    const rxValue = hasRx ? rx[row] : Number.NaN;
    const typeCode = hasType ? typeCodes[row] : -1;
    let transmitter = -1;
    let transmitterVote: number;
    if (role === RowRole.Advertiser) {
      transmitter = adv;
      transmitterVote = typeCode >= 0 ? voteOf[typeCode] : txValue === 0 ? BLE_VOTE.public : txValue === 1 ? BLE_VOTE.random : -1;
      // TargetA of a directed PDU (or directed HCI report), described by RxAdd.
      const targetCode = hasInitiator ? initiatorCodes[row] : -1;
      if (targetCode >= 0) {
        let target = initiatorMap[targetCode];
        if (target === -2) {
          target = newAddress(store, state.tallies, c.initiator, initiatorMap, targetCode);
          ({ votes, roles, crcBadRows, tallies } = grownArrays(store, state));
        }
        roles[target * BLE_ROLES + BLE_ROLE.referenced]++;
        if (crcBad) crcBadRows[target]++;
        if (rxValue === 0 || rxValue === 1) votes[target * BLE_VOTES + rxValue]++;
      }
    } else {
      if (role === RowRole.ScanRequest) {
        const code = hasScanner ? scannerCodes[row] : -1;
        if (code >= 0) {
          transmitter = scannerMap[code];
          if (transmitter === -2) {
            transmitter = newAddress(store, state.tallies, c.scanner, scannerMap, code);
            ({ votes, roles, crcBadRows, tallies } = grownArrays(store, state));
          }
        }
      } else {
        const code = hasInitiator ? initiatorCodes[row] : -1;
        if (code >= 0) {
          transmitter = initiatorMap[code];
          if (transmitter === -2) {
            transmitter = newAddress(store, state.tallies, c.initiator, initiatorMap, code);
            ({ votes, roles, crcBadRows, tallies } = grownArrays(store, state));
          }
        }
      }
      transmitterVote = txValue === 0 ? BLE_VOTE.public : txValue === 1 ? BLE_VOTE.random : -1;
      if (adv >= 0) {
        roles[adv * BLE_ROLES + BLE_ROLE.referenced]++;
        if (crcBad) crcBadRows[adv]++;
        const vote = typeCode >= 0 ? voteOf[typeCode] : rxValue === 0 ? BLE_VOTE.public : rxValue === 1 ? BLE_VOTE.random : -1;
        if (vote >= 0) votes[adv * BLE_VOTES + vote]++;
      }
    }
    if (transmitter < 0) {
      noAddress++;
      continue;
    }
    if (crcBad) {
      crcBadIncluded++;
      crcBadRows[transmitter]++;
    }
    tallies[transmitter * TALLY + role * TALLY_VOTES + transmitterVote + 1]++;
    transmitterOf[row] = transmitter;
    if (ts < lastEventTime) timesDescend = true;
    lastEventTime = ts;
  }
  state.lastEventTime = lastEventTime;
  state.timesDescend = timesDescend;
  store.selectedRows += selectedRows;
  store.crcBadExcluded += crcBadExcluded;
  store.crcBadIncluded += crcBadIncluded;
  store.noTimestamp += noTimestamp;
  store.noAddress += noAddress;
}

/** The per-address arrays as they are after a new address (once per address, not per row). */
function grownArrays(store: BleObservationStore, state: ScanState): { votes: Int32Array; roles: Int32Array; crcBadRows: Int32Array; tallies: Int32Array } {
  return { votes: store.votes.values, roles: store.roles.values, crcBadRows: store.crcBadRows.values, tallies: state.tallies.values };
}

/** The second pass's row loop: each event of one batch into its address's group, at `fill[address]`. */
function placeEvents(scanner: BleScanner, store: BleObservationStore, c: BatchColumns, transmitterOf: Int32Array, fill: Int32Array, groups: BleEventGroups, scratch: PlacementScratch): void {
  const { rows, time, rssi, channel, receiverMap, payloadMap, flags } = c;
  // Null rows of the receiver and signature columns marked -1 in copies made here (the columns
  // kept raw codes and a validity bitmap, see bleCodedColumnWithNullBits): the loop then reads
  // codes only, and the copies reuse two buffers across batches.
  const receiverCodes = nullsMarked(c.receiver, rows, scratch.receiver);
  const signatureCodes = nullsMarked(c.signature, rows, scratch.signature);
  const hasRssi = (flags & HAS_RSSI) !== 0;
  const hasReceiver = (flags & HAS_RECEIVER) !== 0;
  const hasSignature = (flags & HAS_SIGNATURE) !== 0;
  const hasChannel = (flags & HAS_CHANNEL) !== 0;
  const eventTime = groups.time;
  const eventReceiver = groups.receiver;
  const eventRssi = groups.rssi;
  const eventPayload = groups.payload;
  const eventChannel = groups.channel;
  for (let row = 0; row < rows; row++) {
    const transmitter = transmitterOf[row];
    if (transmitter < 0) continue;
    const at = fill[transmitter]++;
    eventTime[at] = time[row];
    let receiverId: number;
    const receiverCode = hasReceiver ? receiverCodes[row] : -1;
    if (receiverCode >= 0) {
      receiverId = receiverMap[receiverCode];
      if (receiverId === -2) receiverId = scanner.newReceiver(c.receiver, receiverMap, receiverCode);
    } else {
      receiverId = scanner.noReceiver();
    }
    eventReceiver[at] = receiverId;
    eventRssi[at] = hasRssi ? rssi[row] : Number.NaN;
    // A null channel reads NaN; anything outside a byte is not a channel index.
    const channelIndex = hasChannel ? channel[row] : Number.NaN;
    eventChannel[at] = channelIndex >= 0 && channelIndex < BLE_NO_CHANNEL ? channelIndex : BLE_NO_CHANNEL;
    let payload = -1;
    const payloadCode = hasSignature ? signatureCodes[row] : -1;
    if (payloadCode >= 0) {
      payload = payloadMap[payloadCode];
      if (payload === -2) {
        payload = store.payloadId(c.signature, payloadCode, c.payloadColumns, row);
        payloadMap[payloadCode] = payload;
      }
    }
    eventPayload[at] = payload;
  }
}

/** The second pass's buffers for null-marked code copies, reused by every batch. */
interface PlacementScratch {
  receiver: BleCodeScratch;
  signature: BleCodeScratch;
}

/** The codes of a column kept with a null bitmap, nulls marked -1 in a copy in `scratch`; other columns' codes as they are. */
function nullsMarked(column: BleCodedColumn, rows: number, scratch: BleCodeScratch): ArrayLike<number> {
  const bits = column.nullBits;
  if (bits === undefined) return column.codes;
  const codes = scratch.take(rows);
  codes.set((column.codes as Int32Array).subarray(0, rows));
  markNulls(codes, bits, column.nullOffset);
  return codes;
}

/** Stable sort of one group by time: positions follow input order, so the position tie-break keeps it stable. */
function sortGroup(groups: BleEventGroups, from: number, to: number): void {
  const { time, receiver, rssi, payload, channel } = groups;
  const length = to - from;
  const positions = new Int32Array(length);
  for (let index = 0; index < length; index++) positions[index] = from + index;
  positions.sort((x, y) => time[x] - time[y] || x - y);
  const times = new Float64Array(length);
  const receivers = new Int32Array(length);
  const rssis = new Float64Array(length);
  const payloads = new Int32Array(length);
  const channels = new Uint8Array(length);
  for (let index = 0; index < length; index++) {
    const at = positions[index];
    times[index] = time[at];
    receivers[index] = receiver[at];
    rssis[index] = rssi[at];
    payloads[index] = payload[at];
    channels[index] = channel[at];
  }
  time.set(times, from);
  receiver.set(receivers, from);
  rssi.set(rssis, from);
  payload.set(payloads, from);
  channel.set(channels, from);
}
