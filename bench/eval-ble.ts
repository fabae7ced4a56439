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
import { analyzeBle, generateBleScenario, parseIrk, type BleAnalysisOptions, type BleScenarioTruth, type RpaRotationModelName } from '../src/core/index.ts';
import type { Capture } from '../src/core/data/capture.ts';
import { BLE_RADIO_FEATURES_OFF } from '../src/core/demo/ble-scenario/index.ts';
import { BLE_EVAL_GRID, BLE_FAMILY_GRID, type BleFamilySetting } from './eval/ble-grid.ts';
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

function generate(scenario: string, seed: number, radio: 'on' | 'off'): { captures: Capture[]; truth: BleScenarioTruth } {
  const generated = generateBleScenario({ seed, scenario, ...(radio === 'off' ? { overrides: { ...BLE_RADIO_FEATURES_OFF } } : {}) });
  if (!generated.ok) throw new Error(generated.error.message);
  return generated.value;
}

function runCell(
  scenario: string,
  model: RpaRotationModelName,
  seed: number,
  setting: BleFamilySetting = { windowS: WINDOW_S, minObservations: MIN_OBSERVATIONS },
  generated = generate(scenario, seed, 'on'),
): { score: RunScore; observations: number; analyzeMs: number } {
  const { windowS, minObservations } = setting;
  const { captures, truth } = generated;
  // The irk scenario is analysed with the keys its truth lists (the analyst has them).
  const irks = scenario === 'irk' ? truth.devices.flatMap((device) => (device.irk ? [{ label: device.device_id, irk: parseIrk(device.irk)! }] : [])) : [];
  const batches = captures.flatMap((capture) =>
    capture.table.batches.map((batch) => ({ captureId: capture.info.id, batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows })),
  );
  const selection = { batches, rowCount: batches.reduce((sum, batch) => sum + batch.selectedCount, 0) };
  const options: BleAnalysisOptions = {
    mode: 'both',
    linkageWindowS: windowS,
    minObservationCount: minObservations,
    rotationModel: model,
    addressColumns: { advertiser: 'advertiser_addr', initiator: 'initiator_addr', scanner: 'scanner_addr' },
    ...(irks.length > 0 ? { irks } : {}),
    includeCandidates: true,
  };
  const started = performance.now();
  const analysis = analyzeBle(selection, options);
  const analyzeMs = performance.now() - started;
  const activities = addressActivity(captures.map((capture) => capture.table));
  return { score: scoreRun(truth, analysis, activities, { windowS, minObservations }), observations: selection.rowCount, analyzeMs };
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

type Summary = PairCounts & ReturnType<typeof precisionRecall>;

/** One issue-22 family under one radio setting and one linkage window, pooled over the seeds. */
interface FamilyRow {
  scenario: string;
  model: RpaRotationModelName;
  /** `on`: the generator's separating radio features as the scenario sets them; `off`: BLE_RADIO_FEATURES_OFF. */
  radio: 'on' | 'off';
  window_s: number;
  min_observation_count: number;
  seeds: number[];
  observations: number;
  eligible: number;
  devices: number;
  /** Distinct predicted devices (clusters and unlinked addresses) among the eligible addresses, summed over seeds. */
  predicted_devices: number;
  true_links: number;
  analyzer: Summary;
  ari: number;
  /** Travelled together, all kinds; `null` where the truth has no such pairs. */
  travel: Summary | null;
  travel_carried: Summary | null;
  travel_group: Summary | null;
  /** Same device over pairs involving a tracker tag; `null` without tags. */
  tracker: Summary | null;
  /** Per tag profile: rotations between eligible addresses that ended in one cluster, of all such rotations. */
  tag_rotations: Record<string, { linked: number; total: number }>;
  calibration: Omit<Calibration, 'bins'>;
  candidates: number;
  analyze_ms: number;
}

function pooledOrNull(counts: PairCounts[]): Summary | null {
  const total = counts.reduce(addCounts);
  return total.truePositives + total.falseNegatives > 0 ? summarize(total) : null;
}

function runFamilies(seeds: number[], only: string | undefined, pooled: { probabilities: number[]; labels: boolean[] }): FamilyRow[] {
  const rows: FamilyRow[] = [];
  for (const { scenario, model, settings } of BLE_FAMILY_GRID) {
    if (only && only !== scenario) continue;
    for (const radio of ['on', 'off'] as const) {
      const generated = seeds.map((seed) => generate(scenario, seed, radio));
      for (const setting of settings) {
        const runs = seeds.map((seed, index) => runCell(scenario, model, seed, setting, generated[index]));
        const scores = runs.map((run) => run.score);
        const probabilities = scores.flatMap((score) => score.candidateProbabilities);
        const labels = scores.flatMap((score) => score.candidateLabels);
        // The pooled calibration counts each candidate once: under the family's first (default) setting only.
        if (setting === settings[0]) {
          pooled.probabilities.push(...probabilities);
          pooled.labels.push(...labels);
        }
        const analyzer = scores.map((score) => score.analyzer).reduce(addCounts);
        const { bins: _bins, ...calibrationSummary } = calibration(probabilities, labels);
        const row: FamilyRow = {
          scenario,
          model,
          radio,
          window_s: setting.windowS,
          min_observation_count: setting.minObservations,
          seeds,
          observations: runs.reduce((sum, run) => sum + run.observations, 0),
          eligible: scores.reduce((sum, score) => sum + score.eligible, 0),
          devices: scores.reduce((sum, score) => sum + score.devices, 0),
          predicted_devices: scores.reduce((sum, score) => sum + score.predictedClusters, 0),
          true_links: analyzer.truePositives + analyzer.falseNegatives,
          analyzer: summarize(analyzer),
          ari: mean(scores.map((score) => score.ari)),
          travel: pooledOrNull(scores.map((score) => score.travel)),
          travel_carried: pooledOrNull(scores.map((score) => score.travelCarried)),
          travel_group: pooledOrNull(scores.map((score) => score.travelGroup)),
          tracker: pooledOrNull(scores.map((score) => score.tracker)),
          tag_rotations: scores.reduce<Record<string, { linked: number; total: number }>>((sum, score) => {
            for (const [profile, counts] of Object.entries(score.tagRotations)) {
              const entry = (sum[profile] ??= { linked: 0, total: 0 });
              entry.linked += counts.linked;
              entry.total += counts.total;
            }
            return sum;
          }, {}),
          calibration: calibrationSummary,
          candidates: probabilities.length,
          analyze_ms: Math.round(runs.reduce((sum, run) => sum + run.analyzeMs, 0)),
        };
        rows.push(row);
        console.error(`${scenario} radio ${radio} window ${setting.windowS} s, min ${setting.minObservations} obs: P ${fixed(row.analyzer.precision)} R ${fixed(row.analyzer.recall)} F1 ${fixed(row.analyzer.f1)}, ARI ${fixed(row.ari)}, ${row.analyze_ms} ms analysing ${row.observations} rows`);
      }
    }
  }
  return rows;
}

const TAG_LABEL: Record<string, string> = { find_my_tag: 'Find My daily', fmdn_tag: 'FMDN', smarttag: 'SmartTag', tracker: 'tag' };

function tagRotations(row: FamilyRow): string {
  const entries = Object.entries(row.tag_rotations).filter(([, counts]) => counts.total > 0);
  return entries.length === 0 ? '—' : entries.map(([profile, counts]) => `${TAG_LABEL[profile] ?? profile} ${counts.linked}/${counts.total}`).join(', ');
}

function familyTable(rows: FamilyRow[]): string {
  const prf = (summary: Summary | null) => (summary ? `${fixed(summary.precision, 2)} / ${fixed(summary.recall, 2)} / ${fixed(summary.f1, 2)}` : '—');
  const lines = [
    '| family | radio | window s / min obs | eligible addresses | devices | predicted | precision | recall | F1 | ARI | travelled together P / R / F1 (carried) | (group) | tracker P / R / F1 | tag rotations linked | Brier | ECE |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---:|---:|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.scenario} | ${row.radio} | ${row.window_s} / ${row.min_observation_count} | ${row.eligible} | ${row.devices} | ${row.predicted_devices} | ${fixed(row.analyzer.precision)} | ${fixed(row.analyzer.recall)} | ${fixed(row.analyzer.f1)} | ${fixed(row.ari)} | ${prf(row.travel_carried)} | ${prf(row.travel_group)} | ${prf(row.tracker)} | ${tagRotations(row)} | ${fixed(row.calibration.brier)} | ${fixed(row.calibration.ece)} |`,
    );
  }
  return lines.join('\n');
}

/** Issue 22's goals, per row (both radio settings must meet them). */
function familyGoals(rows: FamilyRow[], pooled: Calibration): string[] {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const lines: string[] = [];
  const each = (label: string, selected: FamilyRow[], value: (row: FamilyRow) => number | null, ok: (row: FamilyRow) => boolean) => {
    if (selected.length === 0) return;
    lines.push(`- ${label}: ${selected.map((row) => `${row.scenario}/${row.radio}/${row.window_s} s ${fixed(value(row))}`).join(', ')} (${verdict(selected.every(ok))})`);
  };
  each('same-device precision ≥ 0.95 in every family', rows, (row) => row.analyzer.precision, (row) => (row.analyzer.precision ?? 1) >= 0.95);
  const travelling = rows.filter((row) => row.travel !== null);
  each('travelled-together precision ≥ 0.8', travelling, (row) => row.travel!.precision, (row) => (row.travel!.precision ?? 0) >= 0.8);
  each('travelled-together recall ≥ 0.5', travelling, (row) => row.travel!.recall, (row) => (row.travel!.recall ?? 0) >= 0.5);
  each('tracker F1 ≥ 0.95 on pairs involving a tag', rows.filter((row) => row.tracker !== null && row.scenario === 'trackers'), (row) => row.tracker!.f1, (row) => (row.tracker!.f1 ?? 0) >= 0.95);
  each('handover F1 ≥ 0.85', rows.filter((row) => row.scenario === 'handover'), (row) => row.analyzer.f1, (row) => (row.analyzer.f1 ?? 0) >= 0.85);
  each('sparse_scan F1 ≥ 0.7 with the analyst\'s window', rows.filter((row) => row.scenario === 'sparse_scan' && row.window_s !== WINDOW_S), (row) => row.analyzer.f1, (row) => (row.analyzer.f1 ?? 0) >= 0.7);
  each('multi_set_crowd F1 ≥ 0.8 at precision ≥ 0.85', rows.filter((row) => row.scenario === 'multi_set_crowd'), (row) => row.analyzer.f1, (row) => (row.analyzer.f1 ?? 0) >= 0.8 && (row.analyzer.precision ?? 0) >= 0.85);
  const offBins = pooled.bins.filter((bin) => bin.count >= 30 && bin.meanProbability !== null && bin.observedFrequency !== null && Math.abs(bin.meanProbability - bin.observedFrequency) > 0.1);
  lines.push(
    `- calibration pooled over every row and family: ECE ≤ 0.03: ${fixed(pooled.ece)} (${verdict(pooled.ece !== null && pooled.ece <= 0.03)}); no bin with ≥ 30 pairs off by more than 0.10: ${offBins.length === 0 ? 'met' : `NOT met (${offBins.map((bin) => `${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}: ${bin.count} pairs, mean p ${fixed(bin.meanProbability)} vs ${fixed(bin.observedFrequency)}`).join('; ')})`}`,
  );
  return lines;
}

function main(): void {
  const { values } = parseArgs({
    options: { seeds: { type: 'string' }, 'first-seed': { type: 'string' }, scenario: { type: 'string' }, out: { type: 'string' }, 'families-only': { type: 'boolean' }, 'no-families': { type: 'boolean' } },
  });
  const seedCount = values.seeds === undefined ? 3 : Number(values.seeds);
  if (!Number.isInteger(seedCount) || seedCount < 1) throw new Error(`--seeds must be a positive integer, got ${values.seeds}`);
  const firstSeed = values['first-seed'] === undefined ? 1 : Number(values['first-seed']);
  if (!Number.isInteger(firstSeed) || firstSeed < 0) throw new Error(`--first-seed must be a non-negative integer, got ${values['first-seed']}`);
  const seeds = Array.from({ length: seedCount }, (_, index) => index + firstSeed);
  const grid = values['families-only'] ? [] : values.scenario ? GRID.filter((cell) => cell.scenario === values.scenario) : GRID;
  const families = values['no-families'] ? [] : BLE_FAMILY_GRID.filter((cell) => !values.scenario || cell.scenario === values.scenario);
  if (grid.length === 0 && families.length === 0) throw new Error(`no grid row for scenario '${values.scenario}'`);

  const started = performance.now();
  const startedCpu = process.cpuUsage();
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
  const familyPooled = { probabilities: [...pooledProbabilities], labels: [...pooledLabels] };
  const familyRows = families.length > 0 ? runFamilies(seeds, values.scenario, familyPooled) : [];
  const pooled = calibration(familyPooled.probabilities, familyPooled.labels);
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(startedCpu);
  const cpuS = (cpu.user + cpu.system) / 1e6;

  const report = [
    `BLE analyzer evaluation: ${grid.length} grid rows and ${familyRows.length} family rows × ${seeds.length} seeds (${elapsedS.toFixed(1)} s wall, ${cpuS.toFixed(1)} s CPU); linkage window ${WINDOW_S} s unless a row says otherwise, min_observation_count ${MIN_OBSERVATIONS}`,
    ...(rows.length > 0
      ? [
          '',
          markdownTable(rows),
          '',
          `Reliability of all ${overall.count} candidate-pair probabilities (Brier ${fixed(overall.brier)}, log loss ${fixed(overall.logLoss)}, ECE ${fixed(overall.ece)}):`,
          '',
          reliabilityTable(overall),
          '',
          'Goals:',
          ...goals(rows, overall),
        ]
      : []),
    ...(familyRows.length > 0
      ? [
          '',
          'Issue-22 families (radio on: the generator\'s multipath, advertising clock and own shadowing of carried devices as the scenario sets them; off: none of them, ms timestamps):',
          '',
          familyTable(familyRows),
          '',
          `Reliability pooled over every row above and the families (each family's candidates once, radio on and off; ${pooled.count} pairs, Brier ${fixed(pooled.brier)}, log loss ${fixed(pooled.logLoss)}, ECE ${fixed(pooled.ece)}):`,
          '',
          reliabilityTable(pooled),
          '',
          'Goals (issue 22):',
          ...familyGoals(familyRows, pooled),
        ]
      : []),
  ].join('\n');
  console.log(report);
  const path = values.out ?? join(process.cwd(), 'eval-results.json');
  writeFileSync(
    path,
    `${JSON.stringify({ window_s: WINDOW_S, min_observation_count: MIN_OBSERVATIONS, seeds, elapsed_s: Math.round(elapsedS * 10) / 10, cpu_s: Math.round(cpuS * 10) / 10, rows, overall, family_rows: familyRows, pooled_with_families: pooled, node: process.version }, null, 2)}\n`,
  );
  console.error(`wrote ${path}`);
}

main();
