import { describe, expect, it } from 'vitest';
import { BleTextPool } from './text-pool.ts';

describe('BleTextPool', () => {
  it('returns the first of equal texts, however they were built', () => {
    const pool = new BleTextPool();
    const count = 6;
    const first = pool.share(`Random address: TxAdd = 1 in ${count} of ${count} packets`);
    const again = pool.share(['Random address: TxAdd = 1 in ', count, ' of ', count, ' packets'].join(''));
    expect(again).toBe(first);
    expect(pool.share('Random address: TxAdd = 1 in 7 of 7 packets')).toBe('Random address: TxAdd = 1 in 7 of 7 packets');
  });

  it('copies a list into an array of its length, each text pooled, in order', () => {
    const pool = new BleTextPool();
    const seen = pool.share('b');
    const shared = pool.shareAll(['a', 'b', 'a']);
    expect(shared).toEqual(['a', 'b', 'a']);
    expect(shared[1]).toBe(seen);
    expect(shared).toHaveLength(3);
    expect(pool.shareAll([])).toEqual([]);
  });
});
