/**
 * Binds a case report's two files to each other (issue 24, D9). The HTML embeds the report it
 * shows (base64 JSON in a `<meta>`; the HTML runs no script), and is a deterministic rendering of
 * it, so `report verify REPORT.html` re-renders the embedded report and refuses any file that is
 * not exactly that rendering: an edited HTML is detected. The JSON twin carries the SHA-256 of
 * the HTML written with it (`html_sha256`), so a JSON edited after the fact no longer renders to
 * the HTML it names. Digests are not signatures: someone who rewrites both files consistently
 * makes a new report, whose re-run results and capture hashes verification still checks.
 */
import { createSha256 } from '../util/sha256.ts';
import { safeParseJson } from '../util/json.ts';
import { parseCaseReport } from './build-report.ts';
import { renderReportHtml, REPORT_DATA_META } from './render-html.ts';
import type { CaseReport } from './report-types.ts';

/** SHA-256 of a text's UTF-8 bytes, 64 lowercase hex digits. */
export function textSha256(text: string): string {
  const hash = createSha256();
  hash.update(new TextEncoder().encode(text));
  return hash.hex();
}

/** The report as the HTML embeds it: without the twin's own digest field. */
function embeddable(report: CaseReport): CaseReport {
  const { html_sha256: _ignored, ...rest } = report;
  return rest;
}

/** The HTML file and its JSON twin, bound to each other. */
export function caseReportFiles(report: CaseReport): { html: string; json: string; report: CaseReport } {
  // Through JSON first, so the HTML shows exactly what its embedded copy reads back as (-0, NaN…).
  const plain = JSON.parse(JSON.stringify(embeddable(report))) as CaseReport;
  const html = renderReportHtml(plain);
  const bound: CaseReport = { ...plain, html_sha256: textSha256(html) };
  return { html, json: `${JSON.stringify(bound, null, 2)}\n`, report: bound };
}

export type TwinCheck =
  | { status: 'bound'; message: string }
  /** A report made before the twins were bound: readable, with nothing to compare. */
  | { status: 'unbound'; message: string }
  | { status: 'edited'; message: string };

/** Checks a JSON twin against the digest of its HTML: the report must render to exactly that file. */
export function checkJsonTwin(report: CaseReport): TwinCheck {
  if (report.html_sha256 === undefined) {
    return { status: 'unbound', message: 'the report names no HTML twin (made before reports were bound to their HTML): only its contents are checked' };
  }
  const rendered = textSha256(renderReportHtml(embeddable(report)));
  return rendered === report.html_sha256
    ? { status: 'bound', message: `the report renders to its HTML twin (SHA-256 ${rendered})` }
    : { status: 'edited', message: `the report does not render to the HTML twin it names (recorded ${report.html_sha256}, now ${rendered}): it was edited after it was written` };
}

const META = new RegExp(`<meta name="${REPORT_DATA_META}" content="([A-Za-z0-9+/=]*)">`);

/**
 * Reads the report an HTML case report embeds, and checks that the file is exactly its
 * rendering. Fails with a message for a file with no embedded report (not a case report, or one
 * made before issue 24: verify its JSON twin instead), an unreadable one, or an edited file.
 */
export function readReportHtml(
  html: string,
): { ok: true; value: CaseReport; twin: TwinCheck } | { ok: false; edited: boolean; message: string } {
  const match = META.exec(html);
  if (match === null) {
    return { ok: false, edited: false, message: 'the HTML embeds no case report (not a Sextant case report, or one made before reports embedded their data: verify its JSON twin)' };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(match[1]), (character) => character.charCodeAt(0)));
  } catch {
    return { ok: false, edited: false, message: 'the report embedded in the HTML is not base64 UTF-8 text' };
  }
  const parsed = safeParseJson(text);
  if (!parsed.ok) return { ok: false, edited: false, message: `the report embedded in the HTML is not JSON: ${parsed.message}` };
  const report = parseCaseReport(parsed.value);
  if (!report.ok) return { ok: false, edited: false, message: `the report embedded in the HTML: ${report.message}` };
  if (renderReportHtml(report.value) !== html) {
    return { ok: false, edited: true, message: 'the HTML differs from the rendering of the report it embeds: it was edited after it was written' };
  }
  return { ok: true, value: report.value, twin: { status: 'bound', message: `the HTML is exactly the rendering of the report it embeds (SHA-256 ${textSha256(html)})` } };
}
