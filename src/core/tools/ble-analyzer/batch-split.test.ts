import fc from 'fast-check';
import type { RecordBatch } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { SelectedData } from '../../data/selection-types.ts';
import { analyzeBle } from './analyze.ts';
import { bleAnalysisOptions, bleTestStream, bleTestTable, selectAllRows, type BleTestRow } from './shared/test-support.ts';

const T0 = 1_712_131_200_000;
const S = 1000;
const options = bleAnalysisOptions({ linkageWindowS: 120, minObservationCount: 10, includeCandidates: true });

// Two receivers, rotating RPAs, a public beacon, a sparse address, a scanner and CRC-bad rows.
const rows: BleTestRow[] = [
  ...bleTestStream('7A:4C:21:9D:10:EF', T0, T0 + 300 * S, 2000, { rssi: -60, payload: 'a', receiver: 'rx-1' }),
  ...bleTestStream('7A:4C:21:9D:10:EF', T0 + 500, T0 + 300 * S, 3000, { rssi: -75, payload: 'a', receiver: 'rx-2' }),
  ...bleTestStream('61:D2:88:3C:A4:19', T0 + 302 * S, T0 + 600 * S, 2000, { rssi: -61, payload: 'a', receiver: 'rx-1' }),
  ...bleTestStream('5F:09:2A:7E:CD:44', T0 + 290 * S, T0 + 600 * S, 2500, { rssi: -80, payload: 'b', receiver: 'rx-2' }),
  ...bleTestStream('00:1A:7D:DA:71:13', T0, T0 + 600 * S, 5000, { txAdd: 0, rssi: -50, payload: 'c' }),
  ...bleTestStream('2B:11:22:33:44:55', T0 + 100 * S, T0 + 110 * S, 2000, { payload: 'd' }),
  ...bleTestStream('7A:4C:21:9D:10:ED', T0 + 100 * S, T0 + 104 * S, 2000, { crcOk: false, payload: 'e' }),
  ...bleTestStream('7A:4C:21:9D:10:EF', T0 + 50 * S, T0 + 90 * S, 2000, { advType: 'SCAN_REQ', scanner: 'D4:12:34:56:78:9A', rxAdd: 1 }),
].sort((a, b) => a.ts - b.ts || (a.addr < b.addr ? -1 : 1));
const table = bleTestTable(rows);

/** The same rows cut into batches at the given row offsets (Arrow slices: data offsets are exercised). */
function split(cuts: number[]): SelectedData {
  const whole = table.batches[0];
  const points = [...new Set(cuts.map((cut) => cut % whole.numRows))].filter((cut) => cut > 0).sort((a, b) => a - b);
  const bounds = [0, ...points, whole.numRows];
  const batches: RecordBatch[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) batches.push(whole.slice(bounds[i], bounds[i + 1]));
  return {
    batches: batches.map((batch) => ({ captureId: 'split', batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows })),
    rowCount: whole.numRows,
  };
}

describe('per-address summaries merge across batches', () => {
  const reference = analyzeBle(selectAllRows('split', table), options);

  it('the reference run is not trivial', () => {
    expect(table.batches).toHaveLength(1);
    expect(reference.clusters.length).toBeGreaterThan(0);
    expect(reference.candidates.length).toBeGreaterThan(0);
    expect(reference.classification.map((item) => item.type)).toEqual(expect.arrayContaining(['rpa', 'public', 'unknown', 'random_static']));
    expect(reference.crcBadExcluded).toBeGreaterThan(0);
  });

  it('any split of the input into batches gives the identical analysis', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 10_000 }), { maxLength: 12 }), (cuts) => {
        expect(analyzeBle(split(cuts), options)).toEqual(reference);
      }),
      { numRuns: 40 },
    );
  });
});
