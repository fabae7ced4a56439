/**
 * Scores for the BLE analyzer against a scenario's ground truth (docs/ble-scenarios.md,
 * "Evaluation", defines each one precisely). Pure functions over plain data, so they can be
 * tested on hand-made partitions and predictions.
 */

/** What the data says about one address: CRC-good observations and first/last time seen. */
export interface AddressActivity {
  address: string;
  observations: number;
  firstMs: number;
  lastMs: number;
}

/** Counts of a binary decision over pairs. */
export interface PairCounts {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Pairs in the evaluated universe. */
  pairs: number;
}

export interface PrecisionRecall {
  /** null when nothing was predicted (no denominator). */
  precision: number | null;
  /** null when there is nothing to find. */
  recall: number | null;
  f1: number | null;
}

export function precisionRecall(counts: PairCounts): PrecisionRecall {
  const predicted = counts.truePositives + counts.falsePositives;
  const actual = counts.truePositives + counts.falseNegatives;
  const precision = predicted > 0 ? counts.truePositives / predicted : null;
  const recall = actual > 0 ? counts.truePositives / actual : null;
  const f1 = predicted + actual > 0 ? (2 * counts.truePositives) / (predicted + actual) : null;
  return { precision, recall, f1 };
}

export function addCounts(a: PairCounts, b: PairCounts): PairCounts {
  return {
    truePositives: a.truePositives + b.truePositives,
    falsePositives: a.falsePositives + b.falsePositives,
    falseNegatives: a.falseNegatives + b.falseNegatives,
    pairs: a.pairs + b.pairs,
  };
}

/**
 * The gap between two activity windows, ms: how long after one address's last observation the
 * other's first one comes (negative when they overlap).
 */
export function activityGapMs(a: AddressActivity, b: AddressActivity): number {
  return Math.max(b.firstMs - a.lastMs, a.firstMs - b.lastMs);
}

/**
 * Pairwise link scores. The universe is every unordered pair of `eligible` addresses whose
 * activity windows are at most `windowMs` apart (overlapping ones included): the pairs a
 * linker working within the linkage window can be asked about. A pair is predicted linked when
 * both addresses have the same predicted label, truly linked when they have the same device.
 * Sweeps addresses in order of first observation, so only pairs within the window are visited.
 */
export function pairwiseCounts(
  eligible: ReadonlyArray<AddressActivity>,
  windowMs: number,
  predictedLabel: (address: string) => string,
  trueLabel: (address: string) => string,
  /** Restricts the universe further (e.g. to pairs involving a tracker tag); default every pair. */
  include?: (a: string, b: string) => boolean,
): PairCounts {
  const sorted = [...eligible].sort((a, b) => a.firstMs - b.firstMs || a.address.localeCompare(b.address));
  const counts: PairCounts = { truePositives: 0, falsePositives: 0, falseNegatives: 0, pairs: 0 };
  const predicted = sorted.map((activity) => predictedLabel(activity.address));
  const truth = sorted.map((activity) => trueLabel(activity.address));
  // Active set: addresses whose last observation is still within the window of the sweep point.
  let active: number[] = [];
  sorted.forEach((current, index) => {
    active = active.filter((other) => sorted[other].lastMs + windowMs >= current.firstMs);
    for (const other of active) {
      if (activityGapMs(sorted[other], current) > windowMs) continue;
      if (include && !include(sorted[other].address, current.address)) continue;
      counts.pairs++;
      const samePredicted = predicted[other] === predicted[index];
      const sameTrue = truth[other] === truth[index];
      if (samePredicted && sameTrue) counts.truePositives++;
      else if (samePredicted) counts.falsePositives++;
      else if (sameTrue) counts.falseNegatives++;
    }
    active.push(index);
  });
  return counts;
}

/** n choose 2. */
function pairsOf(n: number): number {
  return (n * (n - 1)) / 2;
}

/**
 * Adjusted Rand index of two labelings of the same items (Hubert & Arabie): 1 for identical
 * partitions, about 0 for independent ones. When both partitions are trivial in the same way
 * (all singletons or one block) the index is undefined; it is 1 then, as they agree.
 */
export function adjustedRandIndex(predicted: ReadonlyArray<string>, truth: ReadonlyArray<string>): number {
  if (predicted.length !== truth.length) throw new Error('labelings must have the same length');
  const n = predicted.length;
  if (n < 2) return 1;
  const contingency = new Map<string, number>();
  const rows = new Map<string, number>();
  const columns = new Map<string, number>();
  for (let index = 0; index < n; index++) {
    const key = `${predicted[index]}\u0000${truth[index]}`;
    contingency.set(key, (contingency.get(key) ?? 0) + 1);
    rows.set(predicted[index], (rows.get(predicted[index]) ?? 0) + 1);
    columns.set(truth[index], (columns.get(truth[index]) ?? 0) + 1);
  }
  let index = 0;
  for (const count of contingency.values()) index += pairsOf(count);
  let rowSum = 0;
  for (const count of rows.values()) rowSum += pairsOf(count);
  let columnSum = 0;
  for (const count of columns.values()) columnSum += pairsOf(count);
  const expected = (rowSum * columnSum) / pairsOf(n);
  const maximum = (rowSum + columnSum) / 2;
  if (maximum === expected) return 1;
  return (index - expected) / (maximum - expected);
}

/** One bin of a reliability table. */
export interface ReliabilityBin {
  /** Bin bounds: [lower, upper), the last bin includes 1. */
  lower: number;
  upper: number;
  count: number;
  /** Mean predicted probability in the bin (null when empty). */
  meanProbability: number | null;
  /** Share of positives in the bin (null when empty). */
  observedFrequency: number | null;
}

export interface Calibration {
  count: number;
  /** Mean squared error of the probabilities (null without pairs). */
  brier: number | null;
  /** Mean negative log-likelihood, probabilities clamped to [1e-6, 1 − 1e-6]. */
  logLoss: number | null;
  /** Expected calibration error over the bins: Σ (n_b / N) |mean p − frequency|. */
  ece: number | null;
  bins: ReliabilityBin[];
}

/** Brier score, log loss and a reliability table of probabilities against 0/1 labels. */
export function calibration(probabilities: ReadonlyArray<number>, labels: ReadonlyArray<boolean>, binCount = 10): Calibration {
  if (probabilities.length !== labels.length) throw new Error('probabilities and labels must have the same length');
  const sums = new Float64Array(binCount);
  const positives = new Float64Array(binCount);
  const counts = new Float64Array(binCount);
  let squared = 0;
  let logLoss = 0;
  probabilities.forEach((probability, index) => {
    const label = labels[index] ? 1 : 0;
    squared += (probability - label) ** 2;
    const clamped = Math.min(1 - 1e-6, Math.max(1e-6, probability));
    logLoss -= label === 1 ? Math.log(clamped) : Math.log(1 - clamped);
    const bin = Math.min(binCount - 1, Math.max(0, Math.floor(probability * binCount)));
    sums[bin] += probability;
    positives[bin] += label;
    counts[bin]++;
  });
  const total = probabilities.length;
  const bins: ReliabilityBin[] = Array.from({ length: binCount }, (_, bin) => ({
    lower: bin / binCount,
    upper: (bin + 1) / binCount,
    count: counts[bin],
    meanProbability: counts[bin] > 0 ? sums[bin] / counts[bin] : null,
    observedFrequency: counts[bin] > 0 ? positives[bin] / counts[bin] : null,
  }));
  let ece = 0;
  for (const bin of bins) if (bin.count > 0) ece += (bin.count / total) * Math.abs(bin.meanProbability! - bin.observedFrequency!);
  return {
    count: total,
    brier: total > 0 ? squared / total : null,
    logLoss: total > 0 ? logLoss / total : null,
    ece: total > 0 ? ece : null,
    bins,
  };
}

/** Share of addresses whose predicted type equals the true one (missing predictions count as wrong). */
export function classificationAccuracy(addresses: ReadonlyArray<string>, predicted: ReadonlyMap<string, string>, truth: ReadonlyMap<string, string>): number | null {
  if (addresses.length === 0) return null;
  let correct = 0;
  for (const address of addresses) if (predicted.get(address) !== undefined && predicted.get(address) === truth.get(address)) correct++;
  return correct / addresses.length;
}
