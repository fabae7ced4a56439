import { describe, expect, it } from 'vitest';
import { binEdgesExact, binRunEnd } from './bin-runs.ts';

/** The runs a division per event gives: consecutive events with one Math.floor(t / width). */
function referenceRunEnd(time: ArrayLike<number>, from: number, end: number, width: number): number {
  const bin = Math.floor(time[from] / width);
  let index = from + 1;
  while (index < end && Math.floor(time[index] / width) === bin) index++;
  return index;
}

/** The doubles next to `value`, below and above. */
function neighbours(value: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const at = (delta: bigint): number => {
    view.setBigUint64(0, bits + delta);
    return view.getFloat64(0);
  };
  return value > 0 ? [at(-2n), at(-1n), value, at(1n), at(2n)] : [value, at(1n), at(2n)];
}

function allRuns(time: ArrayLike<number>, width: number, runEnd: typeof binRunEnd): number[] {
  const ends: number[] = [];
  for (let from = 0; from < time.length; from = runEnd(time, from, time.length, width)) ends.push(runEnd(time, from, time.length, width));
  return ends;
}

describe('binRunEnd', () => {
  it('splits sorted times exactly where a division per event changes bin, right at the edges', () => {
    for (const width of [10_000, 60_000, 625, 7, 1024]) {
      const times: number[] = [];
      // Edges at epoch-millisecond magnitudes and near zero, each with the doubles around it.
      for (const base of [0, width, 3 * width, 1_712_131_200_000, 1_712_131_200_000 + 17 * width, 2 ** 40 + width * 5]) {
        const edge = Math.ceil(base / width) * width;
        for (const value of neighbours(edge)) times.push(value);
        times.push(edge + width / 2);
      }
      times.sort((a, b) => a - b);
      expect(allRuns(times, width, binRunEnd)).toEqual(allRuns(times, width, referenceRunEnd));
    }
  });

  it('matches the division on random sorted and unsorted times with fractions', () => {
    let state = 12345;
    const random = (): number => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const sorted = Array.from({ length: 2000 }, () => 1_712_131_200_000 + Math.floor(random() * 3_600_000) + random()).sort((a, b) => a - b);
    const unsorted = Array.from({ length: 500 }, () => 1_712_131_200_000 + random() * 60_000);
    for (const times of [sorted, unsorted]) {
      const ends = allRuns(times, 10_000, binRunEnd);
      expect(ends).toEqual(allRuns(times, 10_000, referenceRunEnd));
    }
    // Sorted times make long runs (about 5 events per 10 s bin here), unsorted ones short.
    expect(allRuns(sorted, 10_000, binRunEnd).length).toBeLessThan(sorted.length / 3);
  });

  it('falls back to one event per run for negative, huge or NaN times', () => {
    expect(binRunEnd([-5, -4, -3], 0, 3, 10)).toBe(1);
    expect(binRunEnd([2 ** 60, 2 ** 60], 0, 2, 10)).toBe(1);
    expect(binRunEnd([Number.NaN, Number.NaN], 0, 2, 10)).toBe(1);
    expect(binRunEnd([5, 6, Number.NaN, 7], 0, 4, 10)).toBe(2);
    expect(binRunEnd([5, 6, 7], 1, 2, 10)).toBe(2);
  });
});

describe('binEdgesExact', () => {
  it('holds only where the edges decide the bin exactly: every double next to them falls on the side the division gives', () => {
    for (const width of [10_000, 60_000, 625, 7, 1024]) {
      for (const bin of [0, 1, 3, Math.floor(1_712_131_200_000 / width), Math.floor(2 ** 40 / width) + 5]) {
        expect(binEdgesExact(bin, width)).toBe(true);
        const low = bin * width;
        for (const edge of [low, low + width]) {
          for (const t of neighbours(edge)) expect(Math.floor(t / width) === bin).toBe(t >= low && t < low + width);
        }
      }
    }
  });

  it('does not hold for negative or huge bins, NaN or a fractional width', () => {
    expect(binEdgesExact(-1, 10)).toBe(false);
    expect(binEdgesExact(2 ** 60, 10)).toBe(false);
    expect(binEdgesExact(Number.NaN, 10)).toBe(false);
    expect(binEdgesExact(3, 2.5)).toBe(false);
  });
});
