import { describe, expect, it } from 'vitest';
import { markNulls } from './column-access.ts';

/** The plain per-row rule markNulls must agree with. */
function markNullsRowByRow(codes: Int32Array, bitmap: Uint8Array, offset: number): void {
  for (let row = 0; row < codes.length; row++) if ((bitmap[(offset + row) >> 3] & (1 << ((offset + row) & 7))) === 0) codes[row] = -1;
}

describe('markNulls', () => {
  it('marks exactly the rows whose validity bit is 0, for aligned and unaligned offsets and any length', () => {
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) >>> 0);
    for (let trial = 0; trial < 200; trial++) {
      const rows = next() % 70;
      const offset = next() % 20;
      const bitmap = new Uint8Array(((offset + rows) >> 3) + 1);
      // Whole-null, whole-valid and mixed bytes, as sparse role columns have.
      for (let index = 0; index < bitmap.length; index++) bitmap[index] = [0, 0xff, next() & 0xff][next() % 3];
      const codes = Int32Array.from({ length: rows }, (_, row) => row);
      const expected = codes.slice();
      markNulls(codes, bitmap, offset);
      markNullsRowByRow(expected, bitmap, offset);
      expect(codes).toEqual(expected);
    }
  });
});
