import { version as sextantVersion } from '../../../../package.json';
import {
  buildCaseReport,
  caseReportFiles,
  captureProvenance,
  redactKeys,
  selectionOf,
  type CaptureInfo,
  type CaptureProvenance,
  type CaseReport,
  type PlannerTimelineEntry,
  type RunDocument,
  type RunStep,
} from '../../../core/index.ts';
import type { PlannerRunRecord } from '../planner/run-store.ts';
import { toJson } from '../planner/json.ts';
import type { RunEntry } from '../stores/run-store.ts';
import { getRuntime } from '../runtime/sextant-runtime.ts';

/** What a report is made from: a Tools/Runs page run, or a Planner page run with its timeline as text. */
export type ReportSource =
  | { kind: 'tool-run'; run: RunEntry }
  | { kind: 'planner-run'; run: PlannerRunRecord; timeline: PlannerTimelineEntry[]; steps: RunStep[] };

/** The run as a `sextant.run` document (what `sextant report` reads too). */
export function runDocumentOf(source: ReportSource): RunDocument {
  if (source.kind === 'tool-run') {
    const { run } = source;
    const inputs: unknown[] = run.isPlan && Array.isArray(run.input) ? run.input : [run.input];
    return {
      format: 'sextant.run',
      format_version: 1,
      kind: 'tool-run',
      started_at: run.startedAt.toISOString(),
      sextant_version: sextantVersion,
      steps: run.records.map((record, index) => ({
        // A run file never holds key material: IRKs keep their labels only.
        invocation: redactKeys(toJson(inputs[index] ?? null)),
        tool_name: record.toolName,
        resolved_version: record.resolvedVersion,
        phase: record.phase,
        result: record.result,
        duration_ms: Math.round(record.durationMs),
      })),
    };
  }
  const { run } = source;
  return {
    format: 'sextant.run',
    format_version: 1,
    kind: 'planner-run',
    started_at: run.startedAt,
    sextant_version: sextantVersion,
    steps: source.steps.map((step) => ({ ...step, invocation: redactKeys(step.invocation) })),
    planner: {
      question: run.question,
      targets: run.targets.map((target) => toJson({ provider: target.provider, model: target.model, baseUrl: target.baseUrl, label: target.label })),
      settings: run.settings,
      timeline: source.timeline,
      accounting: run.result?.accounting ?? [],
      final_report: run.result?.finalReport ?? null,
      success: run.result?.success ?? false,
      ...(run.result?.error ? { error: run.result.error } : {}),
    },
  };
}

/** Provenance of a capture the app knows: the file hash recorded at import, or a built-in's Arrow IPC hash from a worker. */
async function provenanceOf(info: CaptureInfo, importReport: unknown): Promise<CaptureProvenance> {
  const recorded = importReport === undefined ? null : toJson(importReport);
  if (info.sourceSha256) return captureProvenance(info, { sha256: info.sourceSha256, bytes: info.sourceBytes ?? null, basis: 'source-file' }, recorded);
  const builtin = await getRuntime().builtinFingerprint(info.id);
  return captureProvenance(info, builtin ? { ...builtin, basis: 'arrow-ipc' } : null, recorded);
}

/** The provenance of every capture the run's steps read (file hashes, or a built-in's Arrow IPC hash). */
async function provenanceFor(document: RunDocument): Promise<Map<string, CaptureProvenance>> {
  const runtime = getRuntime();
  const infos = await runtime.captures();
  const wanted = new Set(document.steps.flatMap((step) => selectionOf(step.invocation)?.capture_ids ?? []));
  const captures = new Map<string, CaptureProvenance>();
  for (const info of infos) {
    if (!wanted.has(info.id)) continue;
    captures.set(info.id, await provenanceOf(info, runtime.importReports.get(info.id)));
  }
  return captures;
}

/** Builds the case report of a run, with the provenance of every capture it read. */
export async function caseReportOf(source: ReportSource, now: Date = new Date()): Promise<CaseReport> {
  const document = runDocumentOf(source);
  return buildCaseReport(document, { captures: await provenanceFor(document), createdAt: now.toISOString() });
}

/** Writes the run as a `sextant.run` file (with its captures' provenance), for `sextant report`. */
export async function exportRunDocument(source: ReportSource): Promise<void> {
  const document = runDocumentOf(source);
  const captures = [...(await provenanceFor(document)).values()];
  save(`${JSON.stringify({ ...document, captures }, null, 2)}\n`, 'application/json', `sextant-run-${document.started_at.replace(/[^0-9]/g, '').slice(0, 14)}.json`);
}

function save(content: string, type: string, name: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Revoked after the click has been handled, so the download has its bytes.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Writes the report as one HTML file and its JSON twin (for `sextant report verify`). */
export async function exportCaseReport(source: ReportSource): Promise<CaseReport> {
  const report = await caseReportOf(source);
  const stem = `sextant-report-${report.run_started_at.replace(/[^0-9]/g, '').slice(0, 14)}`;
  // Bound to each other: the HTML embeds the report, the JSON names the HTML's SHA-256.
  const files = caseReportFiles(report);
  save(files.html, 'text/html', `${stem}.html`);
  save(files.json, 'application/json', `${stem}.json`);
  return files.report;
}
