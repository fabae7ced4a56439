import type { BleCodedColumn } from './column-access.ts';
import { BleGrowableInt32 } from '../shared/growable.ts';
import { BLE_ROLE, BLE_ROLES, BLE_VOTE, BLE_VOTES, type BleObservationStore } from './observation-store.ts';
import type { BlePayloadColumns } from './payload-features.ts';

/**
 * The scan's first pass (see observations.ts): the row loops that decide each row's
 * transmitter, count per address, and tally the transmitted events by role and vote.
 */

/** How a PDU type attributes its addresses. */
const enum RowRole {
  Advertiser = 0,
  ScanRequest = 1,
  ConnectRequest = 2,
  NoAddress = 3,
}

const ROLE_OF_ADV_TYPE: Record<string, RowRole> = {
  SCAN_REQ: RowRole.ScanRequest,
  AUX_SCAN_REQ: RowRole.ScanRequest,
  CONNECT_IND: RowRole.ConnectRequest,
  AUX_CONNECT_REQ: RowRole.ConnectRequest,
};

/** The role of a PDU type name (adv_type). */
export function roleOfAdvType(text: string): number {
  return ROLE_OF_ADV_TYPE[text] ?? (text.startsWith('RESERVED') ? RowRole.NoAddress : RowRole.Advertiser);
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

export const HAS_INITIATOR = 1;
export const HAS_SCANNER = 2;
export const HAS_ROLE = 4;
export const HAS_TYPE = 8;
export const HAS_TX = 16;
export const HAS_RX = 32;
export const HAS_RSSI = 64;
export const HAS_CRC = 128;
export const HAS_RECEIVER = 256;
export const HAS_SIGNATURE = 512;
export const HAS_CHANNEL = 1024;

/** One batch's columns as the row loop reads them; absent optional columns are empty arrays behind a flag. */
export interface BatchColumns {
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
export class ScanState {
  readonly tallies = new BleGrowableInt32(1024);
  /** Time of the last event so far, in input order. */
  lastEventTime = -Infinity;
  /** Whether an event's time was ever below the one before it (then some group may need sorting). */
  timesDescend = false;

  /** Makes room for the tallies of `addresses` addresses (those made outside the row loops have none yet). */
  ensureTallies(addresses: number): void {
    this.tallies.ensure(addresses * TALLY, 0);
  }
}

/**
 * Adds the tallies of transmitted events to the store's roles and votes; returns each address's
 * group start (group sizes are the transmitter role counts).
 */
export function addTallies(store: BleObservationStore, tallies: Int32Array): Int32Array {
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
 * The first pass over one batch: counts into the store's per-address arrays and the state's
 * tallies, adds to the store's row totals, and writes each row's transmitter (-1 for rows
 * without an event). Batches of advertising PDUs only take a shorter loop.
 */
export function scanRows(store: BleObservationStore, state: ScanState, c: BatchColumns, transmitterOf: Int32Array): void {
  const advertisersOnly = (c.flags & HAS_INITIATOR) === 0 && ((c.flags & HAS_ROLE) === 0 || onlyAdvertisers(c.roleOf));
  if (advertisersOnly) scanAdvertiserRows(store, state, c, transmitterOf);
  else scanMixedRows(store, state, c, transmitterOf);
}

/**
 * The first pass's general row loop, apart from the scanner so that it is compiled once and reused by
 * every batch and run. Counts into the store's per-address arrays and the state's tallies,
 * adds to the store's row totals, and writes each row's transmitter (-1 for rows without an event).
 */
function scanMixedRows(store: BleObservationStore, state: ScanState, c: BatchColumns, transmitterOf: Int32Array): void {
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

/** Whether every PDU type of a role table is attributed to its AdvA (no scan or connect requests, nothing reserved). */
function onlyAdvertisers(roleOf: Int8Array): boolean {
  for (let code = 0; code < roleOf.length; code++) if (roleOf[code] !== RowRole.Advertiser) return false;
  return true;
}

/**
 * `scanMixedRows` for batches whose every row has the advertiser role and that have no initiator
 * (TargetA) column: no referenced addresses, no role per row. What advertising-only captures
 * are; the general loop's role and target branches cost it about 15% of its time.
 */
function scanAdvertiserRows(store: BleObservationStore, state: ScanState, c: BatchColumns, transmitterOf: Int32Array): void {
  const { rows, mask, time, advertiserMap, typeCodes, voteOf, tx, crcBits, crcOffset, flags } = c;
  const advertiserCodes = c.advertiser.codes;
  const hasType = (flags & HAS_TYPE) !== 0;
  const hasTx = (flags & HAS_TX) !== 0;
  const hasCrc = (flags & HAS_CRC) !== 0;
  const excludeCrcBad = c.excludeCrcBad;
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
    const advCode = advertiserCodes[row];
    if (advCode < 0) {
      noAddress++;
      continue;
    }
    let adv = advertiserMap[advCode];
    if (adv === -2) {
      adv = newAddress(store, state.tallies, c.advertiser, advertiserMap, advCode);
      crcBadRows = store.crcBadRows.values;
      tallies = state.tallies.values;
    }
    const typeCode = hasType ? typeCodes[row] : -1;
    let vote: number;
    if (typeCode >= 0) vote = voteOf[typeCode];
    else {
      const txValue = hasTx ? tx[row] : Number.NaN;
      vote = txValue === 0 ? BLE_VOTE.public : txValue === 1 ? BLE_VOTE.random : -1;
    }
    if (crcBad) {
      crcBadIncluded++;
      crcBadRows[adv]++;
    }
    tallies[adv * TALLY + RowRole.Advertiser * TALLY_VOTES + vote + 1]++;
    transmitterOf[row] = adv;
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
