import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../contract/types.ts';
import { buildCaseReport, parseRunDocument, REDACTED_KEY } from './build-report.ts';
import { renderReportHtml } from './render-html.ts';
import type { CaptureProvenance, RunDocument } from './report-types.ts';
import { evidenceProblems, jsonDifferences, verifyReport } from './verify.ts';
import { caseReportFiles, checkJsonTwin, readReportHtml } from './twin.ts';

const hostile = '<img src=x onerror=alert(1)>';
const result: ToolResult = {
  status: 'ok',
  summary: `Linked ${hostile}`,
  warnings: [],
  errors: [],
  confidence: 0.9,
  structured_output: {
    address_classification: [{ address: hostile, type: 'rpa', confidence: 0.8, evidence: [hostile] }],
    probabilistic_links: [{ cluster_id: 'c1', addresses: ['AA', hostile], pairwise_probability_matrix: [[1, 0.9], [0.9, 1]], rationale: [hostile] }],
    timeline_segments: [{ address: 'AA', start_ts: '2024-04-03T08:00:00Z', end_ts: '2024-04-03T08:01:00Z', activity_score: 0.5 }],
    travelled_together: [
      {
        addresses_a: ['AA', hostile],
        cluster_a: 'c1',
        addresses_b: ['CC'],
        probability: 0.934,
        start_ts: '2024-04-03T08:00:00Z',
        end_ts: '2024-04-03T08:40:00Z',
        duration_s: 2400,
        rationale: ['moved with each other for 40 minutes', hostile],
        same_device_probability: 0.012,
        separated_by: 'no evidence of one radio: co-movement alone gives travelled together',
      },
    ],
  },
};

const run: RunDocument = {
  format: 'sextant.run',
  format_version: 1,
  kind: 'tool-run',
  started_at: '2026-11-24T09:00:00.000Z',
  sextant_version: '0.1.0',
  steps: [
    {
      invocation: {
        tool_name: 'bluetooth_address_analyzer',
        tool_version: '1.0.0',
        capture_selection: { capture_ids: ['imported', 'old'], time_window: { start_ms: 0, end_ms: 10 } },
        arguments: { irks: [{ label: 'phone', irk: '00112233445566778899aabbccddeeff' }] },
        request_id: 'r',
        timeout_ms: 1000,
      },
      tool_name: 'bluetooth_address_analyzer',
      resolved_version: '1.0.0',
      phase: 'execution',
      result,
      duration_ms: 12,
    },
  ],
};

function provenance(id: string, sha256: string | null): CaptureProvenance {
  return { id, source: `${id}.pcap`, description: '', rows: 3, bounds: { start_ms: 0, end_ms: 10 }, channels: ['37'], timeOrigin: null, bytes: sha256 ? 100 : null, sha256, hashBasis: sha256 ? 'source-file' : 'not-recorded', importReport: null };
}

const captures = new Map([
  ['imported', provenance('imported', 'a'.repeat(64))],
  ['old', provenance('old', null)],
]);

describe('case reports', () => {
  const report = buildCaseReport(run, { captures, createdAt: '2026-11-24T10:00:00.000Z' });

  it('records keys by label only, the caveats, and "not recorded" for a capture without a hash', () => {
    expect(report.keys_used).toEqual(['phone']);
    expect(JSON.stringify(report)).not.toContain('00112233445566778899aabbccddeeff');
    expect(JSON.stringify(report.steps[0].invocation)).toContain(REDACTED_KEY);
    expect(report.caveats).toHaveLength(5);
    expect(report.captures.map((capture) => capture.hash_basis)).toEqual(['source-file', 'not-recorded']);
    const html = renderReportHtml(report);
    expect(html).toContain('not recorded');
    expect(html).toContain('a'.repeat(64));
  });

  it('renders text from captures and tools as text, never as markup', () => {
    const html = renderReportHtml(report);
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(html).not.toContain('<script');
  });

  it('reports travelled-together relations as a finding of their own, not as links', () => {
    const html = renderReportHtml(report);
    const section = html.slice(html.indexOf('<h4>Travelled together (1)</h4>'));
    expect(section).toContain('These are not links');
    expect(section).toMatch(/c1: <span class="mono">AA, &#60;img/);
    expect(section).toContain('<td class="num">0.934</td><td class="num">0.012</td><td>no evidence of one radio: co-movement alone gives travelled together</td>');
    expect(section).toContain('<td class="num">40</td>');
    expect(section).toContain('moved with each other for 40 minutes');
  });

  it('rejects documents that are not runs', () => {
    expect(parseRunDocument({ format: 'other' })).toMatchObject({ ok: false });
    expect(parseRunDocument(run)).toMatchObject({ ok: true });
  });

  it('verify compares hashes and result bodies, naming what differs', async () => {
    const fingerprints = new Map([
      ['imported', { sha256: 'a'.repeat(64), bytes: 100, basis: 'source-file' as const }],
      ['old', { sha256: 'b'.repeat(64), bytes: 100, basis: 'source-file' as const }],
    ]);
    const changed = { ...result, confidence: 0.5 };
    const outcome = await verifyReport(report, { fingerprints, keys: new Map([['phone', 'x']]), rerun: async () => ({ phase: 'execution', result: changed }) });
    expect(outcome.ok).toBe(false);
    expect(outcome.captures.map((check) => check.status)).toEqual(['match', 'not-recorded']);
    expect(outcome.steps[0]).toMatchObject({ status: 'mismatch', differences: ['result.confidence: 0.9 → 0.5'] });
    expect(jsonDifferences({ a: 1 }, { a: 1 + 1e-12 })).toEqual([]);
  });

  it('refuses empty evidence: no steps, or a step whose capture is not listed (issue 24, D9)', async () => {
    expect(evidenceProblems(report)).toEqual([]);
    expect(evidenceProblems({ ...report, steps: [] })).toEqual([expect.stringContaining('no steps')]);
    expect(evidenceProblems({ ...report, captures: [report.captures[0]] })).toEqual([expect.stringContaining('step 1 reads capture old, which')]);
    // Everything that is left matches, and it still is not verified.
    const fingerprints = new Map([['imported', { sha256: 'a'.repeat(64), bytes: 100, basis: 'source-file' as const }]]);
    const emptied = { ...report, captures: [] };
    const outcome = await verifyReport(emptied, { fingerprints, keys: new Map([['phone', 'x']]), rerun: async () => ({ phase: 'execution', result }) });
    expect(outcome.ok).toBe(false);
    expect(outcome.problems).toHaveLength(1);
  });

  it('binds the HTML and the JSON twin: the HTML embeds the report, the JSON names the HTML (issue 24, D9)', () => {
    const files = caseReportFiles(report);
    const read = readReportHtml(files.html);
    expect(read.ok).toBe(true);
    const { html_sha256: digest, ...embedded } = JSON.parse(files.json);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    if (read.ok) expect(read.value).toEqual(embedded);
    expect(checkJsonTwin(JSON.parse(files.json))).toMatchObject({ status: 'bound' });
    // Hostile text stays text: the embedded copy is base64, nothing in it is markup.
    expect(files.html).not.toContain('<img');
    const edited = files.html.replace('Linked', 'Unlinked');
    expect(readReportHtml(edited)).toMatchObject({ ok: false, edited: true });
    const changed = { ...JSON.parse(files.json), title: 'Another title' };
    expect(checkJsonTwin(changed)).toMatchObject({ status: 'edited' });
    expect(checkJsonTwin({ ...report })).toMatchObject({ status: 'unbound' });
    expect(readReportHtml('<!doctype html><p>x</p>')).toMatchObject({ ok: false, edited: false });
  });
});
