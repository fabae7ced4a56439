import { describe, expect, it } from 'vitest';
import { canonicalFactor, HouseholderQr } from './householder-qr.ts';
import { seededRandom } from '../../demo/seeded-random.ts';

/** The project's seeded generator (mulberry32), as a uniform sequence. */
const random = (seed: number): (() => number) => seededRandom(seed).uniform;

function columns(count: number, rows: number, seed: number): Float64Array[] {
  const next = random(seed);
  return Array.from({ length: count }, () => Float64Array.from({ length: rows }, () => next() * 10 - 5));
}

function expectFactorsClose(actual: Float64Array, expected: Float64Array, k: number, tolerance = 1e-11): void {
  const a = canonicalFactor(actual, k);
  const b = canonicalFactor(expected, k);
  const scale = Math.max(...Array.from(b, Math.abs));
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(tolerance * scale);
}

/** RᵀR, which must equal AᵀA (computed directly here only to check the factor). */
function gram(r: Float64Array, k: number): Float64Array {
  const out = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) for (let i = 0; i < k; i++) out[a * k + b] += r[i * k + a] * r[i * k + b];
  return out;
}

describe('HouseholderQr', () => {
  it('produces an upper-triangular R with RᵀR = AᵀA', () => {
    const data = columns(3, 50, 1);
    const qr = new HouseholderQr(4, { leadingOnes: true, blockRows: 7 });
    qr.addRows(data);
    const r = qr.factor();
    for (let i = 1; i < 4; i++) for (let c = 0; c < i; c++) expect(r[i * 4 + c]).toBe(0);
    const design = [new Float64Array(50).fill(1), ...data];
    const rtr = gram(r, 4);
    for (let a = 0; a < 4; a++) {
      for (let b = 0; b < 4; b++) {
        let direct = 0;
        for (let row = 0; row < 50; row++) direct += design[a][row] * design[b][row];
        expect(rtr[a * 4 + b]).toBeCloseTo(direct, 8);
      }
    }
    expect(qr.rowCount).toBe(50);
  });

  it('gives the same factor for any block size and any batch split', () => {
    const data = columns(5, 1000, 2);
    const reference = new HouseholderQr(5, { blockRows: 1000 });
    reference.addRows(data);
    for (const blockRows of [1, 3, 64, 512]) {
      const streamed = new HouseholderQr(5, { blockRows });
      for (let start = 0; start < 1000; start += 137) {
        streamed.addRows(data.map((column) => column.subarray(start, Math.min(1000, start + 137))));
      }
      expectFactorsClose(streamed.factor(), reference.factor(), 5);
    }
  });

  it('merges partial factors into the one-pass factor', () => {
    const data = columns(4, 900, 3);
    const onePass = new HouseholderQr(5, { leadingOnes: true });
    onePass.addRows(data);
    const parts = [0, 250, 600, 900];
    const workers = parts.slice(0, -1).map((start, index) => {
      const qr = new HouseholderQr(5, { leadingOnes: true, blockRows: 32 });
      qr.addRows(data, undefined, { start, end: parts[index + 1] });
      return qr;
    });
    const merged = workers[0];
    merged.merge(workers[1]);
    merged.merge(workers[2]);
    expect(merged.rowCount).toBe(900);
    expectFactorsClose(merged.factor(), onePass.factor(), 5);
  });

  it('skips unselected rows silently and counts selected non-finite rows', () => {
    const x = Float64Array.from([1, 2, Number.NaN, 4, 5, 6]);
    const y = Float64Array.from([1, Number.POSITIVE_INFINITY, 3, 4, 5, 6]);
    const mask = Uint8Array.from([1, 1, 1, 0, 1, 1]);
    const qr = new HouseholderQr(3, { leadingOnes: true });
    const report = qr.addRows([x, y], mask);
    expect(report).toEqual({ absorbed: 3, skippedNonFinite: 2 });
    const clean = new HouseholderQr(3, { leadingOnes: true });
    clean.addRows([Float64Array.from([1, 5, 6]), Float64Array.from([1, 5, 6])]);
    expectFactorsClose(qr.factor(), clean.factor(), 3);
  });

  it('applies per-column offsets and scales', () => {
    const x = Float64Array.from([10, 20, 30, 40]);
    const qr = new HouseholderQr(2, { leadingOnes: true });
    qr.addRows([x], undefined, { offsets: [25], scales: [0.1] });
    const direct = new HouseholderQr(2, { leadingOnes: true });
    direct.addRows([Float64Array.from([-1.5, -0.5, 0.5, 1.5])]);
    expectFactorsClose(qr.factor(), direct.factor(), 2);
  });

  it('rejects merging factors of different shapes', () => {
    expect(() => new HouseholderQr(3).merge(new HouseholderQr(4))).toThrow();
  });
});
