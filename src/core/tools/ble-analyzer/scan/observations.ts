import type { RecordBatch } from 'apache-arrow';
import type { SelectedBatch } from '../../../data/selection-types.ts';
import { BleCodeScratch, bleCodedColumn, bleCodedColumnWithNullBits, bleColumnAllNull, BleCodedColumn, BleEntryTexts, bleFalseBits, bleNumberColumn, markNulls } from './column-access.ts';
import { fitsFloat32, receiverIds, rssiValues } from './event-columns.ts';
import { BLE_NO_CHANNEL, BLE_VOTE, BleObservationStore, type BleEventGroups } from './observation-store.ts';
import { BlePayloadColumns } from './payload-features.ts';
import { BlePayloadTemplates } from './payload-templates.ts';
import { addTallies, HAS_CHANNEL, HAS_CRC, HAS_INITIATOR, HAS_RECEIVER, HAS_ROLE, HAS_RSSI, HAS_RX, HAS_SCANNER, HAS_SIGNATURE, HAS_TX, HAS_TYPE, roleOfAdvType, ScanState, scanRows, type BatchColumns } from './scan-rows.ts';

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
 * counted, so events are never held in arrival order and sorted afterwards. The first pass's
 * row loops live in scan-rows.ts.
 *
 * Rows are attributed to the address that *transmitted* them: ScanA for SCAN_REQ, InitA for
 * CONNECT_IND (their TxAdd describes that address), AdvA otherwise. The AdvA a SCAN_REQ or
 * CONNECT_IND addresses, and the TargetA of a directed PDU, are *referenced*: they get a type
 * vote (from RxAdd / advertiser_addr_type) and a role count, not an event (the RSSI is not theirs).
 */

export interface BleScanColumns {
  advertiser: string;
  initiator: string;
  scanner?: string;
}

export interface BleScanOptions {
  columns: BleScanColumns;
  includeCrcBad: boolean;
}

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
  /** Whether every RSSI value scanned so far fits a 32-bit float exactly (event-columns.ts). */
  private rssiFitsFloat32 = true;
  private readonly entryTexts = new BleEntryTexts();
  private readonly templates = new BlePayloadTemplates();
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
    if (rssi && this.rssiFitsFloat32) this.rssiFitsFloat32 = fitsFloat32(rssi, rows);
    const roleOf = derivedCodes(this.roleCache, advType, roleOfAdvType);
    const voteOf = derivedCodes(this.typeCache, addrType, (text) => VOTE_OF_TYPE_NAME[text] ?? -1);
    const batchColumns: BatchColumns = {
      payloadColumns: new BlePayloadColumns(batch, this.entryTexts, this.templates),
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
    this.state.ensureTallies(addresses);
    const start = addTallies(store, this.state.tallies.values);
    const events = start[addresses];
    const groups: BleEventGroups = {
      start,
      time: new Float64Array(events),
      receiver: receiverIds(events, this.largestReceiverId()),
      rssi: rssiValues(events, this.rssiFitsFloat32),
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

  /**
   * At least the largest receiver id the second pass can give: the ids given so far, one more
   * per receiver code not met yet, and "(unknown receiver)".
   */
  private largestReceiverId(): number {
    const maps = new Set<Int32Array>();
    for (const { columns } of this.scanned) maps.add(columns.receiverMap);
    let unmet = 0;
    for (const map of maps) for (let code = 0; code < map.length; code++) if (map[code] === -2) unmet++;
    return this.store.receiverNames.length + unmet;
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

/**
 * Stable sort of one group by time. A group out of order is most often a few runs each in time
 * order (one per capture of the selection: a dataset window's receivers come one after another),
 * so the runs are found and merged pairwise, the earlier run's event first on equal times — a
 * natural merge sort, n · log(runs) steps and the stable sort's result. (A comparator sort of
 * the positions took ~0.4 s of each 2.5 M-row window of three receivers.)
 */
function sortGroup(groups: BleEventGroups, from: number, to: number): void {
  const { time, receiver, rssi, payload, channel } = groups;
  const length = to - from;
  let order = new Int32Array(length);
  let merged = new Int32Array(length);
  for (let index = 0; index < length; index++) order[index] = from + index;
  let runs = [0];
  for (let index = 1; index < length; index++) if (time[from + index] < time[from + index - 1]) runs.push(index);
  runs.push(length);
  while (runs.length > 2) {
    const next = [0];
    let run = 0;
    for (; run + 2 < runs.length; run += 2) {
      mergeRuns(order, merged, runs[run], runs[run + 1], runs[run + 2], time);
      next.push(runs[run + 2]);
    }
    if (run + 1 < runs.length) {
      // An odd run left over: carried as it is.
      merged.set(order.subarray(runs[run], runs[run + 1]), runs[run]);
      next.push(runs[run + 1]);
    }
    [order, merged] = [merged, order];
    runs = next;
  }
  const positions = order;
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

/** Merges the ordered runs [low, middle) and [middle, high) of `from` into `into` by time, the first run's first on ties. */
function mergeRuns(from: Int32Array, into: Int32Array, low: number, middle: number, high: number, time: Float64Array): void {
  let left = low;
  let right = middle;
  let out = low;
  while (left < middle && right < high) into[out++] = time[from[right]] < time[from[left]] ? from[right++] : from[left++];
  while (left < middle) into[out++] = from[left++];
  while (right < high) into[out++] = from[right++];
}
