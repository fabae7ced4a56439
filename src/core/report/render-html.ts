import type { ToolResult } from '../contract/types.ts';
import type { JsonValue } from '../util/json.ts';
import type { CaseReport, ReportCapture, ReportStep } from './report-types.ts';
import { captureEdgeNotes } from './capture-edges.ts';
import { escapeMarkup as esc, heatmapSvg, scatterSvg, timelineSvg, type SvgSegment } from './svg.ts';

/** At most this many swimlanes in the report's timeline image; every segment is in the table. */
const MAX_TIMELINE_LANES = 80;
/** Heatmap images for at most this many clusters; every cluster is listed with its rationale. */
const MAX_HEATMAPS = 24;

const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a; margin: 2rem auto; max-width: 1100px; padding: 0 1.5rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.25rem; border-bottom: 2px solid #1b6ca8; padding-bottom: .2rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin-top: 1.4rem; } h4 { margin: 1rem 0 .3rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: 12.5px; }
th, td { border: 1px solid #ccc; padding: .2rem .45rem; text-align: left; vertical-align: top; }
th { background: #eef3f8; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 12px; }
pre { background: #f6f8fa; border: 1px solid #ddd; padding: .6rem; white-space: pre-wrap; word-break: break-word; }
.meta { color: #555; } .status { font-weight: 600; text-transform: uppercase; }
.status-ok { color: #1e7b34; } .status-partial { color: #a06400; } .status-error { color: #b3261e; }
.caveats { border: 2px solid #a06400; background: #fff8e6; padding: .6rem 1rem; }
.hash { word-break: break-all; } figure { margin: 1rem 0; } figcaption { font-size: 12px; color: #444; }
.plots { display: flex; flex-wrap: wrap; gap: 1rem; }
@media print {
  body { margin: 0; max-width: none; font-size: 11px; }
  h2 { break-before: auto; break-after: avoid; } h3, h4 { break-after: avoid; }
  table, figure, pre { break-inside: avoid; } tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}`;

function json(value: JsonValue | unknown): string {
  return `<pre>${esc(JSON.stringify(value, null, 2) ?? 'null')}</pre>`;
}

function num(value: unknown, digits = 4): string {
  if (typeof value !== 'number') return value === null || value === undefined ? '—' : esc(String(value));
  if (!Number.isFinite(value)) return esc(String(value));
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return Math.abs(value) < 1e-3 && value !== 0 ? value.toExponential(3) : value.toFixed(digits);
}

/** A timeline segment with the fields the edge notes read (the output was validated, but a stored report may be hand-edited). */
function isSegment(value: Record<string, unknown>): value is Record<string, unknown> & { address: string; start_ts: string; end_ts: string } {
  return typeof value.address === 'string' && typeof value.start_ts === 'string' && typeof value.end_ts === 'string';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function table(headers: string[], rows: string[][], caption?: string): string {
  const head = `<thead><tr>${headers.map((header) => `<th scope="col">${esc(header)}</th>`).join('')}</tr></thead>`;
  const body = `<tbody>${rows.map((row) => `<tr>${row.join('')}</tr>`).join('')}</tbody>`;
  return `<table>${caption ? `<caption>${esc(caption)}</caption>` : ''}${head}${body}</table>`;
}

const cell = (text: string) => `<td>${esc(text)}</td>`;
const numCell = (value: unknown, digits?: number) => `<td class="num">${num(value, digits)}</td>`;

function formatBytes(bytes: number | null): string {
  if (bytes === null) return 'not recorded';
  return `${bytes.toLocaleString('en-US')} bytes`;
}

function hashText(capture: ReportCapture): string {
  if (!capture.sha256) return 'not recorded';
  return capture.sha256;
}

function basisText(capture: ReportCapture): string {
  switch (capture.hash_basis) {
    case 'source-file':
      return 'SHA-256 of the imported file’s bytes, recorded at import';
    case 'arrow-ipc':
      return 'built-in demo capture with no source file: SHA-256 of the capture’s Arrow IPC stream as built';
    case 'not-recorded':
      return 'imported before Sextant recorded file hashes: not recorded';
  }
}

function capturesSection(report: CaseReport): string {
  if (report.captures.length === 0) return '<p>No capture was read.</p>';
  const rows = report.captures.map((capture) => [
    `<td class="mono">${esc(capture.id)}</td>`,
    cell(capture.source),
    `<td class="num">${esc(formatBytes(capture.bytes))}</td>`,
    `<td class="mono hash" data-sha256="${esc(capture.sha256 ?? '')}">${esc(hashText(capture))}</td>`,
    cell(basisText(capture)),
    numCell(capture.rows),
    cell(`${capture.bounds.start_ms}–${capture.bounds.end_ms} ms`),
    cell(capture.channels.join(', ') || '—'),
    cell(capture.time_origin ?? 'unknown'),
  ]);
  const parts = [table(['capture', 'source file', 'size', 'SHA-256', 'what the hash covers', 'rows', 'time bounds', 'channels', 'time origin'], rows)];
  for (const capture of report.captures) {
    if (capture.description) parts.push(`<p><span class="mono">${esc(capture.id)}</span>: ${esc(capture.description)}</p>`);
    if (capture.import_report !== null) parts.push(`<details open><summary>Import report of ${esc(capture.id)}</summary>${json(capture.import_report)}</details>`);
  }
  return parts.join('');
}

function selectionText(step: ReportStep): string {
  const selection = step.selection;
  if (!selection) return '<p>No capture selection.</p>';
  const window = selection.start_ms === null || selection.end_ms === null ? 'the whole capture' : `${selection.start_ms}–${selection.end_ms} ms`;
  return table(
    ['captures', 'time window', 'channels', 'filters'],
    [[cell(selection.capture_ids.join(', ') || '—'), cell(window), cell(selection.channels.join(', ') || 'all'), cell(selection.filters.join(' AND ') || 'none')]],
  );
}

function issuesList(result: ToolResult): string {
  const parts: string[] = [];
  if (result.errors.length > 0) {
    parts.push('<h4>Errors</h4>');
    parts.push(table(['code', 'field', 'message'], result.errors.map((error) => [cell(error.code), `<td class="mono">${esc(error.field)}</td>`, cell(error.message)])));
  }
  if (result.warnings.length > 0) {
    parts.push('<h4>Warnings</h4>');
    parts.push(table(['code', 'message'], result.warnings.map((warning) => [cell(warning.code), cell(warning.message)])));
  }
  return parts.join('');
}

function regressionSection(output: Record<string, unknown>): string {
  const parts: string[] = [];
  const coefficients = Array.isArray(output.coefficient_table) ? output.coefficient_table.filter(isObject) : [];
  if (coefficients.length > 0) {
    parts.push('<h4>Coefficients</h4>');
    parts.push(
      table(
        ['term', 'estimate', 'std. error', 't', 'p-value', 'CI low', 'CI high', 'significant'],
        coefficients.map((row) => [
          `<td class="mono">${esc(String(row.term ?? ''))}</td>`,
          numCell(row.estimate),
          numCell(row.std_error),
          numCell(row.t_statistic, 3),
          numCell(row.p_value),
          numCell(row.ci_low),
          numCell(row.ci_high),
          cell(row.significant === true ? 'yes' : 'no'),
        ]),
      ),
    );
  }
  const fit: Array<[string, unknown]> = [
    ['samples', output.sample_count],
    ['R²', output.r_squared],
    ['adjusted R²', output.adjusted_r_squared],
    ['F', output.f_statistic],
    ['F p-value', output.f_p_value],
    ['residual std. error', output.residual_std_error],
  ];
  parts.push(table(['statistic', 'value'], fit.filter(([, value]) => value !== undefined).map(([name, value]) => [cell(name), numCell(value)])));
  const diagnostics = isObject(output.diagnostics) ? output.diagnostics : {};
  const sample = Array.isArray(diagnostics.sample) ? diagnostics.sample.filter(isObject) : [];
  if (sample.length > 0) {
    const target = typeof output.target === 'string' ? output.target : 'target';
    const points = sample.map((point) => ({ fitted: Number(point.fitted), actual: Number(point.actual), residual: Number(point.residual) }));
    parts.push('<div class="plots">');
    parts.push(
      `<figure>${scatterSvg(points.map((p) => ({ x: p.fitted, y: p.actual })), { title: `Fitted against actual ${target}`, xLabel: 'fitted', yLabel: `actual ${target}`, reference: 'diagonal' })}<figcaption>Fitted against actual, ${points.length.toLocaleString('en-US')} sampled rows of ${num(diagnostics.sampled_from)}.</figcaption></figure>`,
    );
    parts.push(
      `<figure>${scatterSvg(points.map((p) => ({ x: p.fitted, y: p.residual })), { title: 'Residuals against fitted values', xLabel: 'fitted', yLabel: 'residual', reference: 'zero' })}<figcaption>Residuals against fitted values.</figcaption></figure>`,
    );
    parts.push('</div>');
  }
  const other = Object.fromEntries(Object.entries(output).filter(([key]) => !['coefficient_table', 'diagnostics'].includes(key)));
  parts.push(`<details><summary>Every output field</summary>${json(other)}</details>`);
  return parts.join('');
}

interface BleLink {
  cluster_id: string;
  addresses: string[];
  pairwise_probability_matrix: number[][];
  rationale: string[];
}

/** One side of a travelled-together relation: its cluster and addresses. */
function travelSide(cluster: unknown, addresses: unknown): string {
  const list = Array.isArray(addresses) ? addresses.map(String) : [];
  const names = `<span class="mono">${esc(list.join(', '))}</span>`;
  return `<td>${typeof cluster === 'string' ? `${esc(cluster)}: ${names}` : names}</td>`;
}

/** Distinct devices that moved together: a finding of its own, never a link between them. */
function travelSection(relations: ReadonlyArray<Record<string, unknown>>): string {
  const parts = [`<h4>Travelled together (${relations.length})</h4>`];
  if (relations.length === 0) {
    parts.push('<p>No two distinct devices were found moving together.</p>');
    return parts.join('');
  }
  parts.push('<p>Distinct devices that moved along one path (a phone and its watch, earbuds or tag, or people walking together). These are not links: each side stays its own device.</p>');
  parts.push(
    table(
      ['device', 'moved with', 'probability', 'same device', 'kept apart by', 'from', 'to', 'minutes', 'why'],
      relations.map((relation) => [
        travelSide(relation.cluster_a, relation.addresses_a),
        travelSide(relation.cluster_b, relation.addresses_b),
        numCell(relation.probability, 3),
        numCell(relation.same_device_probability, 3),
        `<td>${esc(typeof relation.separated_by === 'string' ? relation.separated_by : '—')}</td>`,
        `<td class="mono">${esc(String(relation.start_ts ?? ''))}</td>`,
        `<td class="mono">${esc(String(relation.end_ts ?? ''))}</td>`,
        numCell(typeof relation.duration_s === 'number' ? relation.duration_s / 60 : null, 1),
        `<td>${Array.isArray(relation.rationale) ? relation.rationale.map((line) => esc(String(line))).join('<br>') : ''}</td>`,
      ]),
      'Travelled together',
    ),
  );
  return parts.join('');
}

function bleSection(output: Record<string, unknown>): string {
  const classification = Array.isArray(output.address_classification) ? output.address_classification.filter(isObject) : [];
  const links = (Array.isArray(output.probabilistic_links) ? output.probabilistic_links.filter(isObject) : []) as unknown as BleLink[];
  const segments = Array.isArray(output.timeline_segments) ? output.timeline_segments.filter(isObject) : [];
  const parts: string[] = [];
  const edgeNotes = captureEdgeNotes({ probabilistic_links: links, timeline_segments: segments.filter(isSegment) });
  parts.push(`<h4>Clusters (${links.length})</h4>`);
  if (links.length === 0) parts.push('<p>No addresses were linked.</p>');
  links.forEach((link, index) => {
    parts.push(`<h5 class="mono">${esc(link.cluster_id)}: ${esc(link.addresses.join(' → '))}</h5>`);
    const edges = edgeNotes.filter((note) => note.clusterIndex === index).map((note) => `<li class="capture-edge">${esc(note.text)}</li>`);
    parts.push(`<ul>${link.rationale.map((line) => `<li>${esc(line)}</li>`).join('')}${edges.join('')}</ul>`);
    if (index < MAX_HEATMAPS) {
      const title = `Pairwise link probabilities of cluster ${link.cluster_id}`;
      parts.push(`<figure class="heatmap-figure">${heatmapSvg(link.addresses, link.pairwise_probability_matrix, title)}<figcaption>${esc(title)}; the table below gives every pair.</figcaption></figure>`);
    }
    const pairs: string[][] = [];
    for (let a = 0; a < link.addresses.length; a++) {
      for (let b = a + 1; b < link.addresses.length; b++) pairs.push([`<td class="mono">${esc(link.addresses[a])}</td>`, `<td class="mono">${esc(link.addresses[b])}</td>`, numCell(link.pairwise_probability_matrix[a]?.[b], 3)]);
    }
    parts.push(table(['address', 'address', 'probability'], pairs, `Pairs of ${link.cluster_id}`));
  });
  if (links.length > MAX_HEATMAPS) parts.push(`<p>Heatmap images are drawn for the first ${MAX_HEATMAPS} clusters; every cluster’s pairs are tabulated.</p>`);
  parts.push(travelSection(Array.isArray(output.travelled_together) ? output.travelled_together.filter(isObject) : []));

  const clusterOf = new Map<string, number>();
  links.forEach((link, index) => link.addresses.forEach((address) => clusterOf.set(address, index)));
  const svgSegments: SvgSegment[] = segments.map((segment) => ({
    address: String(segment.address),
    startMs: Date.parse(String(segment.start_ts)),
    endMs: Date.parse(String(segment.end_ts)),
    activity: Number(segment.activity_score),
    cluster: clusterOf.get(String(segment.address)) ?? null,
  }));
  const laneOrder: string[] = [];
  for (const link of links) for (const address of link.addresses) if (!laneOrder.includes(address)) laneOrder.push(address);
  for (const segment of svgSegments) if (!laneOrder.includes(segment.address)) laneOrder.push(segment.address);
  const lanes = laneOrder.slice(0, MAX_TIMELINE_LANES);
  parts.push('<h4>Timeline</h4>');
  parts.push(
    `<figure class="timeline-figure">${timelineSvg(lanes, svgSegments, 'Activity segments per address, clustered addresses coloured by cluster')}<figcaption>Activity segments per address (${lanes.length} of ${laneOrder.length} addresses drawn, clustered ones first; bar opacity is the activity score). The segments table below is the text alternative.</figcaption></figure>`,
  );
  parts.push(
    table(
      ['address', 'cluster', 'start', 'end', 'activity score'],
      segments.map((segment) => [
        `<td class="mono">${esc(String(segment.address))}</td>`,
        cell(clusterOf.has(String(segment.address)) ? links[clusterOf.get(String(segment.address))!].cluster_id : '—'),
        `<td class="mono">${esc(String(segment.start_ts))}</td>`,
        `<td class="mono">${esc(String(segment.end_ts))}</td>`,
        numCell(segment.activity_score, 3),
      ]),
      'Timeline segments',
    ),
  );
  parts.push(`<h4>Address classification (${classification.length})</h4>`);
  parts.push(
    table(
      ['address', 'type', 'confidence', 'evidence'],
      classification.map((row) => [
        `<td class="mono">${esc(String(row.address))}</td>`,
        cell(String(row.type)),
        numCell(row.confidence, 3),
        `<td>${Array.isArray(row.evidence) ? row.evidence.map((line) => esc(String(line))).join('<br>') : ''}</td>`,
      ]),
    ),
  );
  return parts.join('');
}

function stepSection(step: ReportStep, report: CaseReport): string {
  const result = step.result;
  const heading = `Step ${step.index}: ${step.tool_name ?? 'unknown tool'}${step.resolved_version ? ` ${step.resolved_version}` : ''}`;
  const parts = [`<section class="step" data-step="${step.index}"><h3>${esc(heading)}</h3>`];
  parts.push(
    `<p><span class="status status-${esc(result.status)}">${esc(result.status)}</span> · confidence ${num(result.confidence, 3)} · ${step.phase === 'validation' ? 'rejected by validation: nothing was executed' : `executed in ${num(step.duration_ms, 0)} ms`}${step.source ? ` · invocation from ${esc(step.source)}` : ''}</p>`,
  );
  parts.push(`<p>${esc(result.summary)}</p>`);
  parts.push('<h4>Selection</h4>', selectionText(step));
  parts.push(`<details><summary>The invocation (every argument and setting${report.keys_used.length > 0 ? '; key material removed' : ''})</summary>${json(step.invocation)}</details>`);
  parts.push(issuesList(result));
  const output = result.structured_output;
  if (isObject(output)) {
    if (Array.isArray(output.address_classification) && Array.isArray(output.probabilistic_links)) parts.push(bleSection(output));
    else if (Array.isArray(output.coefficient_table)) parts.push(regressionSection(output));
    else parts.push(`<h4>Output</h4>${json(output)}`);
  }
  if (result.artifacts && result.artifacts.length > 0) {
    parts.push('<h4>Artifacts</h4>');
    parts.push(table(['name', 'type', 'SHA-256'], result.artifacts.map((artifact) => [cell(artifact.name), cell(artifact.mime_type), `<td class="mono hash">${esc(artifact.sha256)}</td>`])));
  }
  parts.push('</section>');
  return parts.join('');
}

function accountingCell(value: unknown): string {
  if (typeof value === 'number') return numCell(value);
  if (value === undefined || value === null) return cell('');
  return cell(typeof value === 'string' ? value : JSON.stringify(value));
}

function plannerSection(report: CaseReport): string {
  const planner = report.planner;
  if (!planner) return '';
  const parts = ['<section><h2>Planner run</h2>'];
  parts.push(`<p>Outcome: <strong>${planner.success ? 'success' : 'failure'}</strong>${planner.error ? ` — ${esc(planner.error)}` : ''}</p>`);
  parts.push('<h3>Step timeline</h3><ol class="planner-timeline">');
  for (const entry of planner.timeline) {
    parts.push(`<li><strong>${esc(entry.kind)}</strong>${entry.turn === null ? '' : ` (turn ${entry.turn})`}: ${esc(entry.title)}`);
    if (entry.details.length > 0) parts.push(`<ul>${entry.details.map((line) => `<li>${esc(line)}</li>`).join('')}</ul>`);
    parts.push('</li>');
  }
  parts.push('</ol>');
  parts.push('<h3>Accounting</h3>');
  const entries = planner.accounting.filter((entry): entry is Record<string, JsonValue> => isObject(entry));
  const columns = [...new Set(entries.flatMap((entry) => Object.keys(entry)))];
  parts.push(
    entries.length === 0
      ? '<p>No accounting entries.</p>'
      : table(columns, entries.map((entry) => columns.map((column) => accountingCell(entry[column])))),
  );
  parts.push('<h3>Final report</h3>', json(planner.final_report), '</section>');
  return parts.join('');
}

/** Name of the `<meta>` whose content is the report the HTML shows, as base64 UTF-8 JSON (see twin.ts). */
export const REPORT_DATA_META = 'sextant-case-report';

/** Base64 of a text's UTF-8 bytes: safe in an attribute, whatever the report holds. */
function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

/**
 * The case report as one self-contained HTML document: no script, no external resource (a
 * Content-Security-Policy forbids any), print styles, and every string from captures, tools
 * or models escaped as text. It embeds the report it shows (a `<meta>` holding base64 JSON),
 * and is a deterministic function of it, so `report verify` can take the HTML (twin.ts).
 */
export function renderReportHtml(report: CaseReport): string {
  const parts: string[] = [];
  parts.push('<!doctype html><html lang="en"><head><meta charset="utf-8">');
  parts.push(`<meta name="${REPORT_DATA_META}" content="${base64Utf8(JSON.stringify(report))}">`);
  parts.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  parts.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  parts.push(`<meta name="generator" content="Sextant ${esc(report.sextant_version)}">`);
  parts.push(`<title>${esc(report.title)} — Sextant case report</title><style>${STYLE}</style></head><body>`);
  parts.push(`<header><h1>${esc(report.title)}</h1>`);
  parts.push(
    `<p class="meta">Sextant case report · made ${esc(report.created_at)} · run started ${esc(report.run_started_at)} · Sextant ${esc(report.sextant_version)} · tools: ${esc(report.tools.map((tool) => `${tool.name} ${tool.version}`).join(', ') || 'none ran')}</p></header>`,
  );
  parts.push('<main>');
  parts.push('<section><h2>What was asked</h2>');
  if (report.planner) {
    parts.push(`<p>Question: <q>${esc(report.planner.question)}</q></p>`);
    parts.push('<h3>Settings</h3>');
    parts.push(table(['setting', 'value', 'from'], Object.entries(report.planner.settings.values).map(([key, value]) => [cell(key), cell(String(value)), cell(report.planner!.settings.layers[key] ?? '')])));
    parts.push('<h3>Targets</h3>', json(report.planner.targets));
  }
  parts.push(
    table(
      ['step', 'tool', 'version requested', 'version run', 'status'],
      report.steps.map((step) => [numCell(step.index), cell(step.tool_name ?? '?'), cell(step.requested_version ?? '—'), cell(step.resolved_version ?? '—'), cell(step.result.status)]),
    ),
  );
  parts.push('</section>');
  parts.push(`<section><h2>Inputs</h2>${capturesSection(report)}</section>`);
  if (report.keys_used.length > 0) {
    parts.push(`<section><h2>Keys used</h2><p>Identity resolving keys supplied by label (the key material is not in this report):</p><ul>${report.keys_used.map((label) => `<li>${esc(label)}</li>`).join('')}</ul></section>`);
  }
  if (report.caveats.length > 0) {
    parts.push(`<section class="caveats" aria-labelledby="caveats-heading"><h2 id="caveats-heading">How to read these results (tool-contract.md §7.3)</h2><ul>${report.caveats.map((line) => `<li>${esc(line)}</li>`).join('')}</ul></section>`);
  }
  parts.push(`<section><h2>Results</h2>${report.steps.map((step) => stepSection(step, report)).join('')}</section>`);
  parts.push(plannerSection(report));
  if (report.notes.length > 0) parts.push(`<section><h2>Notes</h2><ul>${report.notes.map((note) => `<li>${esc(note)}</li>`).join('')}</ul></section>`);
  parts.push(
    `<section><h2>Verifying this report</h2><p>This file carries its report: <code>sextant report verify THIS.html --capture ID=PATH …</code> (or its JSON twin) checks that the file is unedited, hashes the given files, compares them with the hashes above, re-runs every recorded invocation and compares the results.</p></section>`,
  );
  parts.push('</main></body></html>');
  return parts.join('\n');
}
