import { describe, expect, it } from 'vitest';
import { naiveHandoffLabels } from './ble-baseline.ts';
import { activityGapMs, adjustedRandIndex, calibration, classificationAccuracy, pairwiseCounts, precisionRecall, type AddressActivity } from './ble-metrics.ts';

const activity = (address: string, firstMs: number, lastMs: number): AddressActivity => ({ address, observations: 100, firstMs, lastMs });

describe('adjustedRandIndex', () => {
  it('is 1 for identical partitions, whatever the label names', () => {
    expect(adjustedRandIndex(['a', 'a', 'b', 'c'], ['x', 'x', 'y', 'z'])).toBe(1);
  });

  it('matches hand-computed values', () => {
    // Contingency [[2,0,0],[0,1,1]]: index 1, row pairs 2, column pairs 1, expected 2/6, max 1.5.
    expect(adjustedRandIndex(['0', '0', '1', '1'], ['0', '0', '1', '2'])).toBeCloseTo((1 - 2 / 6) / (1.5 - 2 / 6), 12);
    expect(adjustedRandIndex(['0', '0', '1', '1'], ['0', '0', '1', '2'])).toBeCloseTo(0.5714285714285715, 12);
    // Crossed partitions: worse than chance.
    expect(adjustedRandIndex(['0', '0', '1', '1'], ['0', '1', '0', '1'])).toBeCloseTo(-0.5, 12);
  });

  it('is symmetric and 1 when both are all singletons', () => {
    const a = ['1', '1', '1', '2', '2', '3'];
    const b = ['1', '1', '2', '2', '3', '3'];
    expect(adjustedRandIndex(a, b)).toBeCloseTo(adjustedRandIndex(b, a), 12);
    expect(adjustedRandIndex(['a', 'b', 'c'], ['x', 'y', 'z'])).toBe(1);
  });

  it('rejects labelings of different lengths', () => {
    expect(() => adjustedRandIndex(['a'], ['a', 'b'])).toThrow();
  });
});

describe('calibration', () => {
  it('computes the Brier score and log loss', () => {
    const result = calibration([1, 0, 0.5], [true, false, true]);
    expect(result.brier).toBeCloseTo(0.25 / 3, 12);
    expect(result.logLoss).toBeCloseTo((-Math.log(1 - 1e-6) * 2 - Math.log(0.5)) / 3, 9);
    expect(calibration([], []).brier).toBeNull();
  });

  it('bins probabilities into ten bins, 1.0 in the last, and measures the calibration error', () => {
    const result = calibration([0.05, 0.15, 0.95, 1, 0.92], [false, true, true, true, false]);
    expect(result.bins).toHaveLength(10);
    expect(result.bins.map((bin) => bin.count)).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 3]);
    expect(result.bins[9].meanProbability).toBeCloseTo((0.95 + 1 + 0.92) / 3, 12);
    expect(result.bins[9].observedFrequency).toBeCloseTo(2 / 3, 12);
    expect(result.bins[2].meanProbability).toBeNull();
    const expected = (1 / 5) * 0.05 + (1 / 5) * 0.85 + (3 / 5) * Math.abs((0.95 + 1 + 0.92) / 3 - 2 / 3);
    expect(result.ece).toBeCloseTo(expected, 12);
  });

  it('gives a perfectly calibrated forecaster a small calibration error', () => {
    const probabilities: number[] = [];
    const labels: boolean[] = [];
    for (let bin = 0; bin < 10; bin++) {
      for (let index = 0; index < 100; index++) {
        probabilities.push((bin + 0.5) / 10);
        labels.push(index < (bin + 0.5) * 10);
      }
    }
    expect(calibration(probabilities, labels).ece).toBeLessThan(0.01);
  });
});

describe('pairwiseCounts', () => {
  // Device 1: A then B (hand-off gap 2 s) then C (gap 3 s); device 2: D overlapping A; device 3: E far later.
  const activities = [activity('A', 0, 100_000), activity('B', 102_000, 200_000), activity('C', 203_000, 300_000), activity('D', 50_000, 150_000), activity('E', 900_000, 950_000)];
  const device: Record<string, string> = { A: '1', B: '1', C: '1', D: '2', E: '3' };

  it('counts only pairs whose activity lies within the window', () => {
    expect(activityGapMs(activities[0], activities[1])).toBe(2000);
    expect(activityGapMs(activities[0], activities[3])).toBe(-50_000);
    const perfect = pairwiseCounts(activities, 180_000, (address) => device[address], (address) => device[address]);
    // Universe: AB, AC (gap 103 s), AD, BC, BD, CD (gap 53 s); E is 600 s from everything.
    expect(perfect).toEqual({ truePositives: 3, falsePositives: 0, falseNegatives: 0, pairs: 6 });
    const narrow = pairwiseCounts(activities, 10_000, (address) => device[address], (address) => device[address]);
    // AC is 103 s apart and CD 53 s: both leave the universe.
    expect(narrow).toEqual({ truePositives: 2, falsePositives: 0, falseNegatives: 0, pairs: 4 });
  });

  it('scores merged and split predictions', () => {
    const allOne = pairwiseCounts(activities, 180_000, () => 'x', (address) => device[address]);
    expect(allOne).toEqual({ truePositives: 3, falsePositives: 3, falseNegatives: 0, pairs: 6 });
    expect(precisionRecall(allOne)).toEqual({ precision: 0.5, recall: 1, f1: 2 / 3 });
    const none = pairwiseCounts(activities, 180_000, (address) => address, (address) => device[address]);
    expect(precisionRecall(none)).toEqual({ precision: null, recall: 0, f1: 0 });
    expect(precisionRecall({ truePositives: 0, falsePositives: 0, falseNegatives: 0, pairs: 0 })).toEqual({ precision: null, recall: null, f1: null });
  });
});

describe('naiveHandoffLabels', () => {
  it('links each address to the next one that appears within the window, first come first served', () => {
    const labels = naiveHandoffLabels(
      [activity('A', 0, 100_000), activity('D', 50_000, 101_000), activity('B', 102_000, 200_000), activity('X', 103_000, 104_000), activity('C', 203_000, 300_000), activity('E', 900_000, 950_000)],
      180_000,
    );
    // In order of their ends: A takes B, D takes X, X (ends at 104 s) takes C, B finds C claimed.
    expect(labels.get('B')).toBe(labels.get('A'));
    expect(labels.get('X')).toBe(labels.get('D'));
    expect(labels.get('C')).toBe(labels.get('D'));
    expect(labels.get('D')).not.toBe(labels.get('A'));
    expect(labels.get('E')).toBe('E');
  });
});

describe('classificationAccuracy', () => {
  it('counts missing predictions as wrong', () => {
    const truth = new Map([
      ['A', 'rpa'],
      ['B', 'public'],
      ['C', 'nrpa'],
    ]);
    expect(classificationAccuracy(['A', 'B', 'C'], new Map([['A', 'rpa'], ['B', 'random_static']]), truth)).toBeCloseTo(1 / 3, 12);
    expect(classificationAccuracy([], new Map(), truth)).toBeNull();
  });
});
