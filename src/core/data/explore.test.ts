import { Float64, Int32, Table, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { describeCapture, type Capture } from './capture.ts';
import { advertiserSummary, columnSummaries, matchingRows, readRows, timeHistogram } from './explore.ts';

function bleCapture(): Capture {
  const batchA = new Table({
    ts_ms: vectorFromArray([0, 10, 20], new Float64()),
    advertiser_addr: vectorFromArray(['AA:00:00:00:00:01', 'AA:00:00:00:00:02', 'AA:00:00:00:00:01'], new Utf8()),
    tx_add: vectorFromArray([1, 0, 1], new Int32()),
    rssi: vectorFromArray([-50, null, -70], new Float64()),
  });
  const batchB = new Table({
    ts_ms: vectorFromArray([30, 40], new Float64()),
    advertiser_addr: vectorFromArray([null, 'AA:00:00:00:00:01'], new Utf8()),
    tx_add: vectorFromArray([0, 1], new Int32()),
    rssi: vectorFromArray([-60, -40], new Float64()),
  });
  const table = new Table([...batchA.batches, ...batchB.batches]);
  const described = describeCapture(table, { id: 'ble' });
  if (!described.ok) throw new Error(described.error.message);
  return { info: described.value, table };
}

describe('capture exploration', () => {
  const capture = bleCapture();

  it('selects rows across batches with the filter language', () => {
    const rows = matchingRows(capture, 'rssi > -65');
    expect(rows.ok && [...rows.value]).toEqual([0, 3, 4]);
    expect(matchingRows(capture, '').ok).toBe(true);
    const bad = matchingRows(capture, 'rsi > 1');
    expect(bad.ok).toBe(false);
  });

  it('reads a window of rows', () => {
    const rows = matchingRows(capture, '');
    if (!rows.ok) throw new Error('filter');
    expect(readRows(capture, rows.value, 3, 10)).toEqual([
      [30, null, 0, -60],
      [40, 'AA:00:00:00:00:01', 1, -40],
    ]);
  });

  it('summarizes addresses, columns and time', () => {
    const rows = matchingRows(capture, '');
    if (!rows.ok) throw new Error('filter');
    expect(advertiserSummary(capture, rows.value)).toEqual([
      { address: 'AA:00:00:00:00:01', count: 3, tx_add: [1], first_ms: 0, last_ms: 40 },
      { address: 'AA:00:00:00:00:02', count: 1, tx_add: [0], first_ms: 10, last_ms: 10 },
    ]);
    const rssi = columnSummaries(capture, rows.value).find((summary) => summary.name === 'rssi');
    expect(rssi).toMatchObject({ kind: 'number', count: 4, missing: 1, min: -70, max: -40 });
    expect(timeHistogram(capture, rows.value, 4).counts).toEqual([1, 1, 1, 2]);
  });
});
