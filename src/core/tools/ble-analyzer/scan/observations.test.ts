import { describe, expect, it } from 'vitest';
import { Bool, Dictionary, Float64, Int32, Int8, Table, Uint8, Utf8, vectorFromArray, type RecordBatch, type Vector } from 'apache-arrow';
import type { SelectedBatch } from '../../../data/selection-types.ts';
import { parseBleAddress } from '../shared/ah.ts';
import { BLE_NO_CHANNEL, colonAddressValue, type BleObservationStore } from './observation-store.ts';
import { BleScanner } from './observations.ts';

/** A small deterministic generator, so failures reproduce. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface RandomRow {
  ts: number | null;
  advertiser: string | null;
  initiator: string | null;
  scanner: string | null;
  advType: string | null;
  addrType: string | null;
  txAdd: number | null;
  rxAdd: number | null;
  rssi: number | null;
  channel: number | null;
  receiver: string | null;
  payload: string | null;
  crcOk: boolean | null;
}

const ADV_TYPES = ['ADV_IND', 'ADV_IND', 'ADV_IND', 'ADV_NONCONN_IND', 'ADV_DIRECT_IND', 'SCAN_REQ', 'AUX_SCAN_REQ', 'CONNECT_IND', 'AUX_CONNECT_REQ', 'RESERVED_7'];
const ADDR_TYPES = ['public', 'random', 'random', 'public_identity', 'random_identity', 'unknown_kind'];

/** Rows with every case the scan distinguishes: roles, nulls, CRC failures, unordered times, odd channels. */
function randomRows(random: () => number, count: number, options: { sortedTimes: boolean; roleColumns: boolean; nulls: boolean }): RandomRow[] {
  const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
  const maybe = <T,>(value: T, share = 0.05): T | null => (options.nulls && random() < share ? null : value);
  const address = () => `${pick(['c0', 'D1', 'e2', '4a', '7F'])}:00:00:00:00:${Math.floor(random() * 40).toString(16).padStart(2, '0')}`;
  const rows: RandomRow[] = [];
  let ts = 1_000;
  for (let index = 0; index < count; index++) {
    ts += options.sortedTimes ? Math.floor(random() * 3) : Math.floor(random() * 200) - 100;
    const advType = options.roleColumns ? maybe(pick(ADV_TYPES)) : pick(['ADV_IND', 'ADV_NONCONN_IND']);
    rows.push({
      ts: options.nulls && random() < 0.02 ? (random() < 0.5 ? null : Number.NaN) : ts,
      advertiser: maybe(address()),
      initiator: options.roleColumns && random() < 0.3 ? address() : null,
      scanner: options.roleColumns && random() < 0.3 ? address() : null,
      advType,
      addrType: maybe(pick(ADDR_TYPES), 0.3),
      txAdd: maybe(pick([0, 1, 1, 2])),
      rxAdd: options.roleColumns ? maybe(pick([0, 1, 3]), 0.3) : null,
      rssi: maybe(-30 - Math.floor(random() * 60)),
      channel: maybe(pick([37, 38, 39, 12, 255])),
      receiver: maybe(pick(['rx-a', 'rx-b', 'rx-c'])),
      payload: maybe(pick(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']) + (random() < 0.2 ? 'x' : '')),
      crcOk: maybe(random() > 0.1),
    });
  }
  return rows;
}

function randomTable(rows: readonly RandomRow[], withAddrType: boolean, withChannel: boolean): Table {
  const dict = () => new Dictionary(new Utf8(), new Int32());
  const smallDict = () => new Dictionary(new Utf8(), new Int8());
  const columns: Record<string, Vector> = {
    ts_ms: vectorFromArray(rows.map((row) => row.ts), new Float64()),
    receiver: vectorFromArray(rows.map((row) => row.receiver), dict()),
    rssi: vectorFromArray(rows.map((row) => row.rssi), new Int8()),
    adv_type: vectorFromArray(rows.map((row) => row.advType), smallDict()),
    tx_add: vectorFromArray(rows.map((row) => row.txAdd), new Uint8()),
    rx_add: vectorFromArray(rows.map((row) => row.rxAdd), new Uint8()),
    advertiser_addr: vectorFromArray(rows.map((row) => row.advertiser), dict()),
    initiator_addr: vectorFromArray(rows.map((row) => row.initiator), dict()),
    scanner_addr: vectorFromArray(rows.map((row) => row.scanner), dict()),
    payload_signature: vectorFromArray(rows.map((row) => row.payload), dict()),
    crc_ok: vectorFromArray(rows.map((row) => row.crcOk), new Bool()),
  };
  if (withAddrType) columns.advertiser_addr_type = vectorFromArray(rows.map((row) => row.addrType), smallDict());
  if (withChannel) columns.channel = vectorFromArray(rows.map((row) => row.channel), new Uint8());
  return new Table(columns);
}

/** What the scan must produce, computed the plain way: one row at a time through the generic getters. */
interface ReferenceScan {
  addressTexts: string[];
  votes: number[];
  roles: number[];
  crcBadRows: number[];
  receiverNames: string[];
  payloadSignatures: string[];
  counts: number[];
  groups: Array<Array<{ time: number; receiver: number; rssi: number; payload: number; channel: number }>>;
}

const ROLE_OF: Record<string, number> = { SCAN_REQ: 1, AUX_SCAN_REQ: 1, CONNECT_IND: 2, AUX_CONNECT_REQ: 2 };
const VOTE_OF: Record<string, number> = { public: 0, random: 1, public_identity: 2, random_identity: 3 };

function referenceScan(batches: readonly SelectedBatch[], includeCrcBad: boolean): ReferenceScan {
  const result: ReferenceScan = { addressTexts: [], votes: [], roles: [], crcBadRows: [], receiverNames: [], payloadSignatures: [], counts: [0, 0, 0, 0, 0], groups: [] };
  const addressId = (text: string): number => {
    const upper = text.toUpperCase();
    let id = result.addressTexts.indexOf(upper);
    if (id < 0) {
      id = result.addressTexts.push(upper) - 1;
      result.votes.push(0, 0, 0, 0);
      result.roles.push(0, 0, 0, 0);
      result.crcBadRows.push(0);
      result.groups.push([]);
    }
    return id;
  };
  const idOf = (list: string[], text: string) => (list.includes(text) ? list.indexOf(text) : list.push(text) - 1);
  const events: Array<{ transmitter: number; time: number; receiver: string; rssi: number; payload: string | null; channel: number }> = [];
  for (const { batch, mask } of batches) {
    const cell = (name: string, row: number): unknown => batch.getChild(name)?.get(row) ?? null;
    for (let row = 0; row < batch.numRows; row++) {
      if (mask[row] === 0) continue;
      result.counts[0]++;
      const crcBad = cell('crc_ok', row) === false;
      if (crcBad && !includeCrcBad) {
        result.counts[1]++;
        continue;
      }
      const ts = cell('ts_ms', row);
      if (typeof ts !== 'number' || Number.isNaN(ts)) {
        result.counts[3]++;
        continue;
      }
      const advType = cell('adv_type', row) as string | null;
      const role = advType === null ? 0 : (ROLE_OF[advType] ?? (advType.startsWith('RESERVED') ? 3 : 0));
      if (role === 3) {
        result.counts[4]++;
        continue;
      }
      const advText = cell('advertiser_addr', row) as string | null;
      const adv = advText === null ? -1 : addressId(advText);
      const tx = cell('tx_add', row);
      const rx = cell('rx_add', row);
      const typeName = cell('advertiser_addr_type', row) as string | null;
      const fromBit = (bit: unknown) => (bit === 0 ? 0 : bit === 1 ? 1 : -1);
      let transmitter = -1;
      let transmitterVote: number;
      if (role === 0) {
        transmitter = adv;
        transmitterVote = typeName !== null ? (VOTE_OF[typeName] ?? -1) : fromBit(tx);
        const targetText = cell('initiator_addr', row) as string | null;
        if (targetText !== null) {
          const target = addressId(targetText);
          result.roles[target * 4 + 3]++;
          if (crcBad) result.crcBadRows[target]++;
          if (rx === 0 || rx === 1) result.votes[target * 4 + rx]++;
        }
      } else {
        const text = cell(role === 1 ? 'scanner_addr' : 'initiator_addr', row) as string | null;
        if (text !== null) transmitter = addressId(text);
        transmitterVote = fromBit(tx);
        if (adv >= 0) {
          result.roles[adv * 4 + 3]++;
          if (crcBad) result.crcBadRows[adv]++;
          const vote = typeName !== null ? (VOTE_OF[typeName] ?? -1) : fromBit(rx);
          if (vote >= 0) result.votes[adv * 4 + vote]++;
        }
      }
      if (transmitter < 0) {
        result.counts[4]++;
        continue;
      }
      if (crcBad) {
        result.counts[2]++;
        result.crcBadRows[transmitter]++;
      }
      if (transmitterVote >= 0) result.votes[transmitter * 4 + transmitterVote]++;
      result.roles[transmitter * 4 + role]++;
      const rssi = cell('rssi', row);
      const channel = cell('channel', row);
      events.push({
        transmitter,
        time: ts,
        receiver: (cell('receiver', row) as string | null) ?? '(unknown receiver)',
        rssi: typeof rssi === 'number' ? rssi : Number.NaN,
        payload: cell('payload_signature', row) as string | null,
        channel: typeof channel === 'number' && channel >= 0 && channel < BLE_NO_CHANNEL ? channel : BLE_NO_CHANNEL,
      });
    }
  }
  for (const event of events) {
    result.groups[event.transmitter].push({
      time: event.time,
      receiver: idOf(result.receiverNames, event.receiver),
      rssi: event.rssi,
      payload: event.payload === null ? -1 : idOf(result.payloadSignatures, event.payload),
      channel: event.channel,
    });
  }
  // Array.prototype.sort is stable: equal times keep input order.
  for (const group of result.groups) group.sort((x, y) => x.time - y.time);
  return result;
}

function storeAsReference(store: BleObservationStore): ReferenceScan {
  const { start, time, receiver, rssi, payload, channel } = store.events;
  const groups: ReferenceScan['groups'] = [];
  for (let a = 0; a < store.addressCount; a++) {
    const group: ReferenceScan['groups'][number] = [];
    for (let index = start[a]; index < start[a + 1]; index++) group.push({ time: time[index], receiver: receiver[index], rssi: rssi[index], payload: payload[index], channel: channel[index] });
    groups.push(group);
  }
  return {
    addressTexts: store.addressTexts,
    votes: Array.from(store.votes.view()),
    roles: Array.from(store.roles.view()),
    crcBadRows: Array.from(store.crcBadRows.view()),
    receiverNames: store.receiverNames,
    payloadSignatures: Array.from({ length: store.payloadCount }, (_, id) => store.payloadSignature(id)),
    counts: [store.selectedRows, store.crcBadExcluded, store.crcBadIncluded, store.noTimestamp, store.noAddress],
    groups,
  };
}

const COLUMNS = { advertiser: 'advertiser_addr', initiator: 'initiator_addr', scanner: 'scanner_addr' };

/** Batches of several tables (each with its own dictionaries), each table cut into slices that share them at row offsets. */
function randomSelection(random: () => number, options: { sortedTimes: boolean; roleColumns: boolean; nulls: boolean; masks: boolean }): SelectedBatch[] {
  const selected: SelectedBatch[] = [];
  const tables = 1 + Math.floor(random() * 3);
  for (let index = 0; index < tables; index++) {
    const rows = randomRows(random, 1 + Math.floor(random() * 300), options);
    const table = randomTable(rows, random() < 0.7, random() < 0.7);
    let from = 0;
    while (from < table.numRows) {
      const to = Math.min(table.numRows, from + 1 + Math.floor(random() * 120));
      for (const batch of table.slice(from, to).batches as RecordBatch[]) {
        const mask = new Uint8Array(batch.numRows).map(() => (options.masks && random() < 0.2 ? 0 : 1));
        selected.push({ captureId: 'test', batch, mask, selectedCount: mask.reduce((sum, bit) => sum + bit, 0) });
      }
      from = to;
    }
  }
  return selected;
}

describe('BleScanner', () => {
  it('matches a plain row-by-row reference on random input: several batches and dictionaries, masks, nulls, roles, CRC failures, unordered times', () => {
    const random = generator(20240611);
    for (let trial = 0; trial < 40; trial++) {
      const options = { sortedTimes: random() < 0.5, roleColumns: random() < 0.6, nulls: random() < 0.7, masks: random() < 0.6 };
      const includeCrcBad = random() < 0.4;
      const batches = randomSelection(random, options);
      const scanner = new BleScanner({ columns: COLUMNS, includeCrcBad });
      for (const batch of batches) scanner.add(batch);
      const store = scanner.finish();
      const expected = referenceScan(batches, includeCrcBad);
      expect(storeAsReference(store), `trial ${trial} ${JSON.stringify({ ...options, includeCrcBad })}`).toEqual(expected);
      expect(store.eventCount).toBe(expected.groups.reduce((sum, group) => sum + group.length, 0));
      expect(Array.from(store.addressValues.view())).toEqual(expected.addressTexts.map((text) => parseBleAddress(text) ?? Number.NaN));
    }
  });

  it('counts advertising-only batches alike in the short row loop and in the general one', () => {
    const random = generator(4242);
    for (let trial = 0; trial < 6; trial++) {
      const rows = randomRows(random, 200, { sortedTimes: trial % 2 === 0, roleColumns: false, nulls: trial < 4 });
      const scan = (table: Table, rowCount: number) => {
        const scanner = new BleScanner({ columns: COLUMNS, includeCrcBad: trial % 3 === 0 });
        // Only the first rowCount rows: a slice keeps the whole table's dictionaries.
        for (const batch of table.slice(0, rowCount).batches) scanner.add({ captureId: 'test', batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows });
        return storeAsReference(scanner.finish());
      };
      // Only ADV_IND and ADV_NONCONN_IND in adv_type's dictionary: the short loop.
      const short = scan(randomTable(rows, true, true), rows.length);
      // The same rows under a dictionary that also holds SCAN_REQ (its row cut off): the general loop.
      const scanRequest: RandomRow = { ...rows[0], advType: 'SCAN_REQ', scanner: 'c0:00:00:00:00:01' };
      const general = scan(randomTable([...rows, scanRequest], true, true), rows.length);
      expect(short).toEqual(general);
      expect(short.counts[0]).toBe(rows.length);
    }
  });

  it('gives the same store however the rows are split into batches', () => {
    const random = generator(99);
    const rows = randomRows(random, 500, { sortedTimes: false, roleColumns: true, nulls: true });
    const table = randomTable(rows, true, true);
    const scan = (cuts: number[]) => {
      const scanner = new BleScanner({ columns: COLUMNS, includeCrcBad: true });
      let from = 0;
      for (const to of [...cuts, table.numRows]) {
        for (const batch of table.slice(from, to).batches) scanner.add({ captureId: 'test', batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows });
        from = to;
      }
      return storeAsReference(scanner.finish());
    };
    const whole = scan([]);
    expect(scan([1, 2, 250, 499])).toEqual(whole);
    expect(scan([100, 200, 300, 400])).toEqual(whole);
  });
});

describe('colonAddressValue', () => {
  it('gives parseBleAddress\'s value for colon-separated addresses and undefined for any other text', () => {
    const random = generator(5);
    const chars = '0123456789abcdefABCDEFgG:-';
    const texts = ['7A:4C:21:9D:10:EF', '7a:4c:21:9d:10:ef', 'FF:FF:FF:FF:FF:FF', '00:00:00:00:00:00', '7A-4C-21-9D-10-EF', '7A4C219D10EF', '7A:4C:21:9D:10:E', '7A:4C:21:9D:10:EFF', '7A:4C-21:9D:10:EF', ''];
    for (let index = 0; index < 3000; index++) {
      const template = texts[Math.floor(random() * 4)];
      // Random single-character edits of valid addresses, so near misses are covered too.
      const at = Math.floor(random() * template.length);
      texts.push(template.slice(0, at) + chars[Math.floor(random() * chars.length)] + template.slice(at + 1));
    }
    for (const text of texts) {
      const fast = colonAddressValue(text);
      if (fast !== undefined) expect(fast, text).toBe(parseBleAddress(text));
      else expect(text.length === 17 && text.includes(':') ? parseBleAddress(text) : undefined, text).toBeUndefined();
    }
    expect(colonAddressValue('7A:4C:21:9D:10:EF')).toBe(0x7a4c219d10ef);
  });
});
