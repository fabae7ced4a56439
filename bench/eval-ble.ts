/**
 * `npm run eval:ble`: the BLE analyzer against ground truth. Generates a grid of scenarios ×
 * seeds, runs `analyzeBle` (mode both, linkage window 180 s, min_observation_count 25, the
 * scenario's rotation model), scores it next to the naive hand-off baseline, prints a markdown
 * table for the README and writes eval-results.json. Metrics are defined in
 * docs/ble-scenarios.md ("Evaluation").
 *
 *   node --import tsx bench/eval-ble.ts [--seeds N] [--first-seed S] [--scenario NAME] [--out FILE]
 *
 * Seeds S…S+N−1 (default 1–3, the held-apart seeds); `--first-seed 101 --seeds 6` scores the
 * calibration's tuning seeds, which is where changes to the analyzer are tuned.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeBle, generateBleScenario, parseIrk, type BleAnalysisOptions, type RpaRotationModelName } from '../src/core/index.ts';
import { BLE_EVAL_GRID } from './eval/ble-grid.ts';
import { addCounts, calibration, precisionRecall, type Calibration, type PairCounts } from './eval/ble-metrics.ts';
import { addressActivity, scoreRun, type RunScore } from './eval/ble-score.ts';

const WINDOW_S = 180;
const MIN_OBSERVATIONS = 25;

const GRID = BLE_EVAL_GRID;

interface GridRow {
  scenario: string;
  model: RpaRotationModelName;
  seeds: number[];
  observations: number;
  eligible: number;
  devices: number;
  true_links: number;
  analyzer: PairCounts & ReturnType<typeof precisionRecall>;
  baseline: PairCounts & ReturnType<typeof precisionRecall>;
  ari: number;
  baseline_ari: number;
  travel: (PairCounts & ReturnType<typeof precisionRecall>) | null;
  irk: (PairCounts & ReturnType<typeof precisionRecall>) | null;
  calibration: Omit<Calibration, 'bins'>;
  classification_accuracy: number | null;
  candidates: number;
  candidates_unknown: number;
  analyze_ms: number;
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const fixed = (value: number | null | undefined, digits = 3): string => (value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits));

function summarize(counts: PairCounts): PairCounts & ReturnType<typeof precisionRecall> {
  return { ...counts, ...precisionRecall(counts) };
}

function runCell(scenario: string, model: RpaRotationModelName, seed: number): { score: RunScore; observations: number; analyzeMs: number } {
  const generated = generateBleScenario({ seed, scenario });
  if (!generated.ok) throw new Error(generated.error.message);
  const { captures, truth } = generated.value;
  // The irk scenario is analysed with the keys its truth lists (the analyst has them).
  const irks = scenario === 'irk' ? truth.devices.flatMap((device) => (device.irk ? [{ label: device.device_id, irk: parseIrk(device.irk)! }] : [])) : [];
  const batches = captures.flatMap((capture) =>
    capture.table.batches.map((batch) => ({ captureId: capture.info.id, batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows })),
  );
  const selection = { batches, rowCount: batches.reduce((sum, batch) => sum + batch.selectedCount, 0) };
  const options: BleAnalysisOptions = {
    mode: 'both',
    linkageWindowS: WINDOW_S,
    minObservationCount: MIN_OBSERVATIONS,
    rotationModel: model,
    addressColumns: { advertiser: 'advertiser_addr', initiator: 'initiator_addr', scanner: 'scanner_addr' },
    ...(irks.length > 0 ? { irks } : {}),
    includeCandidates: true,
  };
  const started = performance.now();
  const analysis = analyzeBle(selection, options);
  const analyzeMs = performance.now() - started;
  const activities = addressActivity(captures.map((capture) => capture.table));
  return { score: scoreRun(truth, analysis, activities, { windowS: WINDOW_S, minObservations: MIN_OBSERVATIONS }), observations: selection.rowCount, analyzeMs };
}

function markdownTable(rows: GridRow[]): string {
  const lines = [
    '| scenario | rotation model | seeds | addresses ≥ 25 obs | devices | true links | precision | recall | F1 | ARI | Brier | ECE | class. accuracy | baseline precision | baseline recall | baseline F1 | baseline ARI |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.scenario} | ${row.model} | ${row.seeds.length} | ${row.eligible} | ${row.devices} | ${row.true_links} | ${fixed(row.analyzer.precision)} | ${fixed(row.analyzer.recall)} | ${fixed(row.analyzer.f1)} | ${fixed(row.ari)} | ${fixed(row.calibration.brier)} | ${fixed(row.calibration.ece)} | ${fixed(row.classification_accuracy)} | ${fixed(row.baseline.precision)} | ${fixed(row.baseline.recall)} | ${fixed(row.baseline.f1)} | ${fixed(row.baseline_ari)} |`,
    );
  }
  return lines.join('\n');
}

function reliabilityTable(result: Calibration): string {
  const lines = ['| p bin | pairs | mean p | same device |', '|---|---:|---:|---:|'];
  for (const bin of result.bins) lines.push(`| ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)} | ${bin.count} | ${fixed(bin.meanProbability)} | ${fixed(bin.observedFrequency)} |`);
  return lines.join('\n');
}

function goals(rows: GridRow[], overall: Calibration): string[] {
  const find = (scenario: string, model: RpaRotationModelName = 'spec_default') => rows.find((row) => row.scenario === scenario && row.model === model);
  const verdict = (ok: boolean | undefined) => (ok === undefined ? 'n/a' : ok ? 'met' : 'NOT met');
  const base = find('default');
  const crowd = find('same_template_crowd');
  const multi = find('android_multi_set');
  const companions = find('companions');
  const irk = find('irk');
  const offBins = overall.bins.filter((bin) => bin.count >= 30 && bin.meanProbability !== null && bin.observedFrequency !== null && Math.abs(bin.meanProbability - bin.observedFrequency) > 0.1);
  const beatsBaseline = rows.every((row) => (row.analyzer.f1 ?? 0) > (row.baseline.f1 ?? 0) && row.ari > row.baseline_ari);
  return [
    `- default F1 ≥ 0.95: ${fixed(base?.analyzer.f1)} (${verdict(base ? (base.analyzer.f1 ?? 0) >= 0.95 : undefined)})`,
    `- default ARI ≥ 0.9: ${fixed(base?.ari)} (${verdict(base ? base.ari >= 0.9 : undefined)})`,
    `- same_template_crowd F1 ≥ 0.8: ${fixed(crowd?.analyzer.f1)} (${verdict(crowd ? (crowd.analyzer.f1 ?? 0) >= 0.8 : undefined)})`,
    `- Brier ≤ 0.05 overall: ${fixed(overall.brier)} pooled over every candidate pair (${verdict(overall.brier === null ? undefined : overall.brier <= 0.05)}); mean of the rows' Brier scores ${fixed(mean(rows.flatMap((row) => (row.calibration.brier === null ? [] : [row.calibration.brier]))))}`,
    `- above the baseline (F1 and ARI) in every row: ${verdict(rows.length > 0 ? beatsBaseline : undefined)}`,
    `- android_multi_set F1 ≥ 0.90 and ARI ≥ 0.85: ${fixed(multi?.analyzer.f1)} / ${fixed(multi?.ari)} (${verdict(multi ? (multi.analyzer.f1 ?? 0) >= 0.9 && multi.ari >= 0.85 : undefined)})`,
    `- companions same-device precision ≥ 0.95: ${fixed(companions?.analyzer.precision)} (${verdict(companions ? (companions.analyzer.precision ?? 0) >= 0.95 : undefined)}); travelled-together F1 ≥ 0.8: ${fixed(companions?.travel?.f1)} (precision ${fixed(companions?.travel?.precision)}, recall ${fixed(companions?.travel?.recall)}) (${verdict(companions?.travel ? (companions.travel.f1 ?? 0) >= 0.8 : undefined)})`,
    `- irk: keyed devices' pairs linked at p = 1, nothing else joined, F1 = 1: ${fixed(irk?.irk?.f1)} (${verdict(irk?.irk ? irk.irk.f1 === 1 : undefined)})`,
    `- calibration: ECE ≤ 0.02 pooled: ${fixed(overall.ece)} (${verdict(overall.ece === null ? undefined : overall.ece <= 0.02)}); Brier ≤ 0.03: ${fixed(overall.brier)} (${verdict(overall.brier === null ? undefined : overall.brier <= 0.03)}); every bin with ≥ 30 pairs within ±0.10: ${offBins.length === 0 ? 'met' : `NOT met (${offBins.map((bin) => `${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}: mean p ${fixed(bin.meanProbability)} vs ${fixed(bin.observedFrequency)}`).join('; ')})`}`,
  ];
}

function main(): void {
  const { values } = parseArgs({ options: { seeds: { type: 'string' }, 'first-seed': { type: 'string' }, scenario: { type: 'string' }, out: { type: 'string' } } });
  const seedCount = values.seeds === undefined ? 3 : Number(values.seeds);
  if (!Number.isInteger(seedCount) || seedCount < 1) throw new Error(`--seeds must be a positive integer, got ${values.seeds}`);
  const firstSeed = values['first-seed'] === undefined ? 1 : Number(values['first-seed']);
  if (!Number.isInteger(firstSeed) || firstSeed < 0) throw new Error(`--first-seed must be a non-negative integer, got ${values['first-seed']}`);
  const seeds = Array.from({ length: seedCount }, (_, index) => index + firstSeed);
  const grid = values.scenario ? GRID.filter((cell) => cell.scenario === values.scenario) : GRID;
  if (grid.length === 0) throw new Error(`no grid row for scenario '${values.scenario}'`);

  const started = performance.now();
  const rows: GridRow[] = [];
  const pooledProbabilities: number[] = [];
  const pooledLabels: boolean[] = [];
  for (const { scenario, model } of grid) {
    const runs = seeds.map((seed) => runCell(scenario, model, seed));
    const scores = runs.map((run) => run.score);
    const probabilities = scores.flatMap((score) => score.candidateProbabilities);
    const labels = scores.flatMap((score) => score.candidateLabels);
    pooledProbabilities.push(...probabilities);
    pooledLabels.push(...labels);
    const analyzer = scores.map((score) => score.analyzer).reduce(addCounts);
    const classified = scores.reduce((sum, score) => sum + score.classified, 0);
    const { bins: _bins, ...calibrationSummary } = calibration(probabilities, labels);
    const row: GridRow = {
      scenario,
      model,
      seeds,
      observations: runs.reduce((sum, run) => sum + run.observations, 0),
      eligible: scores.reduce((sum, score) => sum + score.eligible, 0),
      devices: scores.reduce((sum, score) => sum + score.devices, 0),
      true_links: analyzer.truePositives + analyzer.falseNegatives,
      analyzer: summarize(analyzer),
      baseline: summarize(scores.map((score) => score.baseline).reduce(addCounts)),
      ari: mean(scores.map((score) => score.ari)),
      baseline_ari: mean(scores.map((score) => score.baselineAri)),
      travel: scenario === 'companions' ? summarize(scores.map((score) => score.travel).reduce(addCounts)) : null,
      irk: scenario === 'irk' ? summarize(scores.map((score) => score.irk).reduce(addCounts)) : null,
      calibration: calibrationSummary,
      classification_accuracy: classified > 0 ? scores.reduce((sum, score) => sum + score.classifiedCorrectly, 0) / classified : null,
      candidates: probabilities.length,
      candidates_unknown: scores.reduce((sum, score) => sum + score.candidatesUnknown, 0),
      analyze_ms: Math.round(runs.reduce((sum, run) => sum + run.analyzeMs, 0)),
    };
    rows.push(row);
    const extra = `${row.travel ? `, travelled-together P ${fixed(row.travel.precision)} R ${fixed(row.travel.recall)} F1 ${fixed(row.travel.f1)}` : ''}${row.irk ? `, IRK F1 ${fixed(row.irk.f1)}` : ''}`;
    console.error(`${scenario} (${model}): F1 ${fixed(row.analyzer.f1)}, ARI ${fixed(row.ari)}, Brier ${fixed(row.calibration.brier)}${extra}, ${row.analyze_ms} ms analysing ${row.observations} rows`);
  }
  const overall = calibration(pooledProbabilities, pooledLabels);
  const elapsedS = (performance.now() - started) / 1000;

  const report = [
    `BLE analyzer evaluation: ${grid.length} grid rows × ${seeds.length} seeds (${elapsedS.toFixed(1)} s); linkage window ${WINDOW_S} s, min_observation_count ${MIN_OBSERVATIONS}`,
    '',
    markdownTable(rows),
    '',
    `Reliability of all ${overall.count} candidate-pair probabilities (Brier ${fixed(overall.brier)}, log loss ${fixed(overall.logLoss)}, ECE ${fixed(overall.ece)}):`,
    '',
    reliabilityTable(overall),
    '',
    'Goals:',
    ...goals(rows, overall),
  ].join('\n');
  console.log(report);
  const path = values.out ?? join(process.cwd(), 'eval-results.json');
  writeFileSync(path, `${JSON.stringify({ window_s: WINDOW_S, min_observation_count: MIN_OBSERVATIONS, seeds, elapsed_s: Math.round(elapsedS * 10) / 10, rows, overall, node: process.version }, null, 2)}\n`);
  console.error(`wrote ${path}`);
}

main();
