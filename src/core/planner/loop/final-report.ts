import { jsonrepair } from 'jsonrepair';
import { isJsonObject, safeParseJson, type JsonObject, type JsonValue } from '../../util/json.ts';
import type { ReportFormat } from './planner-settings.ts';
import type { FinalReportSource, PlannerFinalReport } from './session-types.ts';

/** A final report the model wrote, accepted (with warnings) or rejected (with every reason). */
export type FinalReportOutcome = { ok: true; report: PlannerFinalReport; warnings: string[] } | { ok: false; errors: string[] };

const KNOWN_FIELDS = new Set(['report_format', 'report_content', 'content_json', 'encoding', 'metadata']);

function decodeBase64Utf8(text: string): string | null {
  try {
    const binary = atob(text.replace(/\s+/g, ''));
    const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A JSON report object from an object or from text holding one (repaired if need be). */
function reportObject(value: JsonValue | undefined): JsonObject | null {
  if (isJsonObject(value)) return value;
  if (typeof value !== 'string') return null;
  const parsed = safeParseJson(value);
  if (parsed.ok) return isJsonObject(parsed.value) ? parsed.value : null;
  try {
    const repaired = safeParseJson(jsonrepair(value));
    return repaired.ok && isJsonObject(repaired.value) ? repaired.value : null;
  } catch {
    return null;
  }
}

/** Nested fields that hold stringified JSON objects or arrays, parsed (the contract's small repair loop). */
function unstringifyNested(value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' && /^\s*[[{]/.test(item)) {
      const parsed = safeParseJson(item);
      out[key] = parsed.ok ? parsed.value : item;
    } else {
      out[key] = isJsonObject(item) ? unstringifyNested(item) : item;
    }
  }
  return out;
}

/** Builds a report; its `status` follows from `source` alone. */
export function makeFinalReport(
  source: FinalReportSource,
  format: ReportFormat,
  content: string,
  ts: number,
  metadata: JsonObject = {},
  contentJson?: JsonObject,
): PlannerFinalReport {
  return {
    status: source === 'synthetic' ? 'failure' : 'success',
    format,
    content,
    ...(contentJson ? { content_json: contentJson } : {}),
    ts,
    metadata,
    source,
  };
}

/**
 * `agent__final_report`'s arguments as a report: `encoding: base64` decodes `report_content`,
 * `content_json` (JSON format) may arrive stringified, a different `report_format` is a warning
 * and normalized to the session's, and fields the tool does not have (a `status`, say) are
 * ignored with a warning: the status is the runtime's to set.
 */
export function acceptFinalReport(args: JsonObject, format: ReportFormat, ts: number, source: 'tool' | 'xml'): FinalReportOutcome {
  const errors: string[] = [];
  const warnings: string[] = [];
  const ignored = Object.keys(args).filter((key) => !KNOWN_FIELDS.has(key));
  if (ignored.length > 0) warnings.push(`Ignored field(s) ${ignored.join(', ')}: the final report has no such field (the runtime sets the status).`);
  if (args.report_format !== undefined && args.report_format !== format) {
    warnings.push(`report_format ${JSON.stringify(args.report_format)} does not match the session's "${format}"; stored as "${format}".`);
  }
  const encoding = args.encoding ?? 'raw';
  if (encoding !== 'raw' && encoding !== 'base64') errors.push(`encoding must be "raw" or "base64", got ${JSON.stringify(encoding)}`);
  let metadata: JsonObject = {};
  if (args.metadata !== undefined) {
    if (isJsonObject(args.metadata)) metadata = args.metadata;
    else warnings.push('metadata is not an object; ignored.');
  }
  let text: string | null = null;
  if (args.report_content !== undefined) {
    if (typeof args.report_content !== 'string') errors.push('report_content must be a string');
    else if (encoding === 'base64') {
      text = decodeBase64Utf8(args.report_content);
      if (text === null) errors.push('report_content is not valid base64-encoded UTF-8');
    } else text = args.report_content;
  }
  if (format === 'json') {
    const object = reportObject(args.content_json ?? text ?? undefined);
    if (!object) errors.push('content_json must be a JSON object (or text holding one)');
    if (errors.length > 0 || !object) return { ok: false, errors };
    const repaired = unstringifyNested(object);
    return { ok: true, warnings, report: makeFinalReport(source, format, JSON.stringify(repaired, null, 2), ts, metadata, repaired) };
  }
  if (text === null && errors.length === 0) errors.push('report_content is required');
  else if (text !== null && text.trim() === '') errors.push('report_content is empty');
  if (errors.length > 0 || text === null) return { ok: false, errors };
  return { ok: true, warnings, report: makeFinalReport(source, format, text, ts, metadata) };
}
