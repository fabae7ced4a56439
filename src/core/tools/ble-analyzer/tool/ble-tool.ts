import type { ToolError, ToolWarning } from '../../../contract/tool-error.ts';
import { toolError } from '../../../contract/tool-error.ts';
import type { JsonObject, JsonValue } from '../../../util/json.ts';
import { textForMessage } from '../../../util/message-value.ts';
import type { CaptureDescription, ToolImplementation, ToolOutcome, ToolRunContext } from '../../tool.ts';
import type { BleAnalysis, BleAnalysisOptions, RpaRotationModelName } from '../shared/analysis-types.ts';
import { parseIrk } from '../shared/ah.ts';
import { analyzeBle } from '../analyze.ts';
import { digestBleOutput } from './digest.ts';
import { bleAddressAnalyzerManifest } from './manifest.ts';

const MODES = ['classification', 'linkage', 'both'] as const;
const MODELS: ReadonlyArray<RpaRotationModelName> = ['spec_default', 'fast_rotation', 'slow_rotation', 'learned'];
const COLUMN_KEYS = ['advertiser_addr', 'initiator_addr', 'scanner_addr'] as const;

/** Reads schema-shaped arguments into analysis options; re-checks what the analysis relies on. */
export function parseBleAnalyzerArguments(args: JsonObject): { ok: true; value: BleAnalysisOptions } | { ok: false; errors: ToolError[] } {
  const errors: ToolError[] = [];
  const required = ['address_columns', 'analysis_mode', 'linkage_window_s', 'min_observation_count', 'rpa_rotation_model'];
  for (const key of required) {
    if (args[key] === undefined) errors.push(toolError('MISSING_REQUIRED_ARGUMENT', `arguments.${key}`, `arguments.${key} is required`));
  }
  if (errors.length > 0) return { ok: false, errors };
  const columns = args.address_columns;
  const names: Record<string, string> = {};
  if (typeof columns !== 'object' || columns === null || Array.isArray(columns)) {
    errors.push(toolError('INVALID_TYPE', 'arguments.address_columns', 'arguments.address_columns must be an object of column names'));
  } else {
    for (const key of COLUMN_KEYS) {
      const value = (columns as JsonObject)[key];
      if (value === undefined) {
        if (key !== 'scanner_addr') errors.push(toolError('MISSING_REQUIRED_ARGUMENT', `arguments.address_columns.${key}`, `arguments.address_columns.${key} is required`));
      } else if (typeof value !== 'string' || value.length === 0) {
        errors.push(toolError('INVALID_TYPE', `arguments.address_columns.${key}`, `arguments.address_columns.${key} must be a column name`));
      } else names[key] = value;
    }
  }
  const mode = args.analysis_mode;
  if (typeof mode !== 'string' || !(MODES as readonly string[]).includes(mode)) {
    errors.push(toolError('INVALID_VALUE', 'arguments.analysis_mode', `arguments.analysis_mode must be one of ${MODES.join(', ')}`));
  }
  const window = args.linkage_window_s;
  if (typeof window !== 'number' || !Number.isFinite(window) || window < 1) {
    errors.push(toolError('INVALID_VALUE', 'arguments.linkage_window_s', 'arguments.linkage_window_s must be a number ≥ 1 (seconds)'));
  }
  const minimum = args.min_observation_count;
  if (typeof minimum !== 'number' || !Number.isInteger(minimum) || minimum < 1) {
    errors.push(toolError('INVALID_VALUE', 'arguments.min_observation_count', 'arguments.min_observation_count must be an integer ≥ 1'));
  }
  const model = args.rpa_rotation_model;
  if (typeof model !== 'string' || !(MODELS as readonly string[]).includes(model)) {
    errors.push(toolError('INVALID_VALUE', 'arguments.rpa_rotation_model', `arguments.rpa_rotation_model must be one of ${MODELS.join(', ')}`));
  }
  const irks: Array<{ label: string; irk: Uint8Array }> = [];
  if (args.irks !== undefined) {
    if (!Array.isArray(args.irks)) errors.push(toolError('INVALID_TYPE', 'arguments.irks', 'arguments.irks must be an array of {label, irk}'));
    else {
      args.irks.forEach((entry, index) => {
        const item = entry as JsonObject;
        const label = typeof item === 'object' && item !== null ? item.label : undefined;
        const hex = typeof item === 'object' && item !== null ? item.irk : undefined;
        const key = typeof hex === 'string' ? parseIrk(hex) : undefined;
        if (typeof label !== 'string' || label.length === 0) errors.push(toolError('INVALID_VALUE', `arguments.irks[${index}].label`, 'each IRK needs a non-empty label'));
        if (!key) errors.push(toolError('INVALID_VALUE', `arguments.irks[${index}].irk`, 'an IRK is 32 hex digits, most significant octet first'));
        if (typeof label === 'string' && label.length > 0 && key) irks.push({ label, irk: key });
      });
    }
  }
  const includeCrcBad = args.include_crc_bad;
  if (includeCrcBad !== undefined && typeof includeCrcBad !== 'boolean') {
    errors.push(toolError('INVALID_TYPE', 'arguments.include_crc_bad', 'arguments.include_crc_bad must be a boolean'));
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      mode: mode as BleAnalysisOptions['mode'],
      linkageWindowS: window as number,
      minObservationCount: minimum as number,
      rotationModel: model as RpaRotationModelName,
      addressColumns: { advertiser: names.advertiser_addr, initiator: names.initiator_addr, ...(names.scanner_addr ? { scanner: names.scanner_addr } : {}) },
      irks,
      includeCrcBad: includeCrcBad === true,
    },
  };
}

/** Every named address column must exist in every selected capture. */
export function checkBleAnalyzerArguments(args: JsonObject, captures: ReadonlyArray<CaptureDescription>): ToolError[] {
  const parsed = parseBleAnalyzerArguments(args);
  if (!parsed.ok) return parsed.errors;
  const errors: ToolError[] = [];
  const columns = args.address_columns as JsonObject;
  for (const key of COLUMN_KEYS) {
    const name = columns[key];
    if (typeof name !== 'string') continue;
    const missing = captures.filter((capture) => !capture.columns.some((column) => column.name === name)).map((capture) => capture.id);
    if (missing.length > 0) {
      const strings = captures[0].columns.filter((column) => column.kind === 'string').map((column) => column.name);
      errors.push(
        toolError(
          'INVALID_VALUE',
          `arguments.address_columns.${key}`,
          `column ${textForMessage(name)} is not in ${missing.length === 1 ? `capture ${missing[0]}` : `captures ${missing.join(', ')}`}; string columns of ${captures[0].id}: ${strings.join(', ') || '(none)'}`,
        ),
      );
    }
  }
  return errors;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

function countWord(count: number): string {
  return count < NUMBER_WORDS.length ? NUMBER_WORDS[count] : count.toLocaleString('en-US');
}

/** RFC3339 in the capture's clock: epoch ms as is, relative ms from the capture's time origin. */
function rfc3339(ms: number, originMs: number): string {
  return new Date(originMs + ms).toISOString();
}

/** The §7.4-style summary sentence. */
export function bleAnalysisSummary(analysis: BleAnalysis, mode: BleAnalysisOptions['mode']): string {
  const clustered = new Set(analysis.clusters.flatMap((cluster) => cluster.addresses));
  const standalone = analysis.classification.filter((item) => item.type !== 'unknown' && !clustered.has(item.address)).length;
  const unknown = analysis.classification.filter((item) => item.type === 'unknown').length;
  const parts: string[] = [`Analyzed ${analysis.observations.toLocaleString('en-US')} BLE observations`];
  if (mode !== 'classification') {
    const clusters = analysis.clusters;
    if (clusters.length === 0) parts.push('found no linked address clusters');
    else {
      const strong = clusters.filter((cluster) => minimumLink(cluster.matrix) >= 0.8);
      const kind = (id: string) => (id.startsWith('cluster_rpa') ? 'RPA' : id.startsWith('cluster_nrpa') ? 'NRPA' : 'private-address');
      if (clusters.length === 1) {
        const only = clusters[0];
        parts.push(`identified one ${strong.length === 1 ? 'high-confidence' : 'tentative'} ${only.addresses.length}-address ${kind(only.clusterId)} cluster`);
      } else {
        parts.push(`identified ${countWord(clusters.length)} address clusters (${countWord(strong.length)} high-confidence, ${clustered.size.toLocaleString('en-US')} addresses)`);
      }
    }
  }
  parts.push(`classified ${standalone.toLocaleString('en-US')} ${mode === 'classification' ? '' : 'standalone '}address${standalone === 1 ? '' : 'es'}`);
  let sentence = parts.length === 3 ? `${parts[0]}; ${parts[1]} and ${parts[2]}` : `${parts[0]}; ${parts[1]}`;
  if (unknown > 0) sentence += `; ${unknown.toLocaleString('en-US')} left unknown`;
  return `${sentence}.`;
}

/** Smallest adjacent-link probability of a cluster (its weakest hand-off). */
function minimumLink(matrix: number[][]): number {
  let minimum = 1;
  for (let i = 0; i + 1 < matrix.length; i++) {
    let best = 0;
    for (let j = 0; j < matrix.length; j++) if (j !== i) best = Math.max(best, matrix[i][j]);
    minimum = Math.min(minimum, best);
  }
  return minimum;
}

/**
 * Overall confidence: the observation-weighted mean confidence of the classified addresses,
 * times the mean weakest-link probability of the clusters when linkage ran and found any,
 * times the share of observations from addresses that met min_observation_count.
 */
function overallConfidence(analysis: BleAnalysis): number {
  let weight = 0;
  let sum = 0;
  let all = 0;
  for (const item of analysis.classification) {
    all += item.observations;
    if (item.type === 'unknown') continue;
    weight += item.observations;
    sum += item.observations * item.confidence;
  }
  if (weight === 0) return 0;
  const classes = sum / weight;
  const links = analysis.clusters.length > 0 ? analysis.clusters.reduce((total, cluster) => total + minimumLink(cluster.matrix), 0) / analysis.clusters.length : 1;
  return Math.round(Math.max(0, Math.min(1, classes * links * (weight / all))) * 100) / 100;
}

export function runBleAnalyzer(args: JsonObject, context: ToolRunContext): ToolOutcome {
  const parsed = parseBleAnalyzerArguments(args);
  if (!parsed.ok) return { status: 'error', summary: 'Invalid arguments.', errors: parsed.errors };
  const options = parsed.value;
  context.reportProgress(0.05);
  const analysis = analyzeBle(context.selection, options);
  context.reportProgress(0.9);
  const warnings: ToolWarning[] = [...analysis.warnings];
  if (analysis.observations === 0) {
    const selected = context.selection.rowCount;
    const why =
      selected === 0
        ? 'the selection keeps no rows'
        : analysis.crcBadExcluded === selected
          ? `all ${selected.toLocaleString('en-US')} selected packets failed their CRC (set include_crc_bad to analyse them anyway)`
          : `none of the ${selected.toLocaleString('en-US')} selected rows has a timestamp and a transmitter address`;
    return {
      status: 'error',
      summary: `No BLE observations to analyze: ${why}.`,
      errors: [toolError('INSUFFICIENT_DATA', 'capture_selection', `bluetooth_address_analyzer needs at least 1 usable observation; ${why}; observed 0`)],
      warnings,
    };
  }
  const origins = analysis.timeOrigins.map((entry) => entry.timeOrigin);
  const origin = origins.find((value): value is string => value !== null);
  let originMs = 0;
  if (origin !== undefined) {
    const parsedOrigin = Date.parse(origin);
    if (Number.isFinite(parsedOrigin)) originMs = parsedOrigin;
    if (origins.some((value) => value !== origin)) {
      warnings.push({ code: 'MIXED_TIME_ORIGINS', message: `the selected captures have different time origins; timeline times use ${origin}` });
    }
  }
  const output: JsonObject = {
    address_classification: analysis.classification.map((item) => ({
      address: item.address,
      type: item.type,
      confidence: item.confidence,
      evidence: item.evidence,
      ...(item.trackerKind ? { tracker_kind: item.trackerKind } : {}),
    })),
    probabilistic_links: analysis.clusters.map((cluster) => ({
      cluster_id: cluster.clusterId,
      addresses: cluster.addresses,
      pairwise_probability_matrix: cluster.matrix,
      rationale: cluster.rationale,
      ...(cluster.chains && cluster.chains.length > 1 ? { parallel_chains: cluster.chains } : {}),
      ...(cluster.trackerKind ? { tracker_kind: cluster.trackerKind } : {}),
    })),
    travelled_together: analysis.travelledTogether.map((relation) => ({
      addresses_a: relation.a,
      addresses_b: relation.b,
      ...(relation.clusterA ? { cluster_a: relation.clusterA } : {}),
      ...(relation.clusterB ? { cluster_b: relation.clusterB } : {}),
      ...(relation.trackerKind ? { tracker_kind: relation.trackerKind } : {}),
      probability: Math.round(relation.probability * 1000) / 1000,
      start_ts: rfc3339(relation.fromMs, originMs),
      end_ts: rfc3339(relation.toMs, originMs),
      duration_s: Math.round((relation.toMs - relation.fromMs) / 1000),
      rationale: relation.rationale,
      same_device_probability: Math.round(relation.sameDeviceProbability * 1000) / 1000,
      separated_by: relation.separatedBy,
    })),
    timeline_segments: analysis.segments.map((segment) => ({
      address: segment.address,
      start_ts: rfc3339(segment.startMs, originMs),
      end_ts: rfc3339(segment.endMs, originMs),
      activity_score: segment.activityScore,
    })) as JsonValue[],
  };
  const degraded = analysis.sparseAddresses > 0 || warnings.some((warning) => warning.code === 'ROTATION_MODEL_FALLBACK');
  context.reportProgress(1);
  return {
    status: degraded ? 'partial' : 'ok',
    summary: bleAnalysisSummary(analysis, options.mode),
    structured_output: output,
    warnings,
    confidence: overallConfidence(analysis),
  };
}

/** `bluetooth_address_analyzer` 1.2.0. */
export const bleAddressAnalyzerTool: ToolImplementation = {
  manifest: bleAddressAnalyzerManifest,
  checkArguments: checkBleAnalyzerArguments,
  run: runBleAnalyzer,
  digest: digestBleOutput,
};
