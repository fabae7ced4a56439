import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main, type Io } from '../main.ts';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const PCAP = new URL('../../../shared/captures/ble/boston-hackrf_take3_adv37_2.pcap', import.meta.url).pathname;
const KEY = '000102030405060708090a0b0c0d0e0f';

const addressColumns = { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr', scanner_addr: 'scanner_addr' };
const plan = [
  {
    tool_name: 'bluetooth_address_analyzer',
    tool_version: '1.0.0',
    capture_selection: { capture_ids: ['lab_floor_2026_04_03_a', 'lab_floor_2026_04_03_b'], time_window: { start_ms: 1712131200000, end_ms: 1712133000000 } },
    arguments: { address_columns: addressColumns, analysis_mode: 'both', linkage_window_s: 180, min_observation_count: 25, rpa_rotation_model: 'spec_default', irks: [{ label: 'lab key', irk: KEY }] },
    request_id: 'req-report-1',
    timeout_ms: 60000,
  },
  {
    tool_name: 'bluetooth_address_analyzer',
    tool_version: '1.0.0',
    capture_selection: { capture_ids: ['boston'], time_window: { start_ms: 1754286547376, end_ms: 1754286626822 } },
    arguments: { address_columns: addressColumns, analysis_mode: 'both', linkage_window_s: 180, min_observation_count: 5, rpa_rotation_model: 'spec_default' },
    request_id: 'req-report-2',
    timeout_ms: 60000,
  },
];

describe('sextant report and report verify', () => {
  let dir = '';
  let capture = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sextant-report-'));
    capture = join(dir, 'boston.pcap');
    await copyFile(PCAP, capture);
    await writeFile(join(dir, 'plan.json'), JSON.stringify(plan));
    const invoked = await run(['invoke', join(dir, 'plan.json'), '--capture', `boston=${capture}`, '--run-out', join(dir, 'run.json')]);
    expect(invoked.stderr).toBe('');
    expect(invoked.code).toBe(0);
    const written = await run(['report', join(dir, 'run.json'), '--out', join(dir, 'case.html')]);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
  });

  it('writes a self-contained HTML report and its JSON twin with file hashes, caveats and no key material', async () => {
    const html = await readFile(join(dir, 'case.html'), 'utf8');
    const report = JSON.parse(await readFile(join(dir, 'case.json'), 'utf8'));
    const fileHash = (await import('node:crypto')).createHash('sha256').update(await readFile(PCAP)).digest('hex');
    expect(report.captures.find((entry: { id: string }) => entry.id === 'boston')).toMatchObject({ sha256: fileHash, hash_basis: 'source-file', source: 'boston.pcap' });
    expect(report.captures.find((entry: { id: string }) => entry.id === 'lab_floor_2026_04_03_a').hash_basis).toBe('arrow-ipc');
    expect(report.keys_used).toEqual(['lab key']);
    expect(html).toContain(fileHash);
    expect(html).toContain('class="report-heatmap"');
    expect(html).toContain('Similar traffic profiles from nearby devices can inflate linkage probabilities.');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    for (const text of [html, JSON.stringify(report), await readFile(join(dir, 'run.json'), 'utf8')]) expect(text).not.toContain(KEY);
  });

  it('verify passes on the same files and names the step whose key is left out', async () => {
    const withKey = await run(['report', 'verify', join(dir, 'case.json'), '--capture', `boston=${capture}`, '--irk', `lab key=${KEY}`]);
    expect(withKey.stdout).toContain('VERIFIED');
    expect(withKey.stdout).toMatch(/MATCH +step 2 bluetooth_address_analyzer: result matches/);
    expect(withKey.code).toBe(0);
    const withoutKey = await run(['report', 'verify', join(dir, 'case.json'), '--capture', `boston=${capture}`]);
    expect(withoutKey.stdout).toContain("NOT RUN  step 1 bluetooth_address_analyzer: not re-run: the report leaves out the key material of lab key");
    expect(withoutKey.code).toBe(3);
  });

  it('verify fails with a clear message when one byte of a capture changes', async () => {
    const bytes = new Uint8Array(await readFile(capture));
    bytes[bytes.length - 1] ^= 0x01;
    const changed = join(dir, 'boston-changed.pcap');
    await writeFile(changed, bytes);
    const verified = await run(['report', 'verify', join(dir, 'case.json'), '--capture', `boston=${changed}`, '--irk', `lab key=${KEY}`]);
    expect(verified.code).toBe(3);
    expect(verified.stdout).toMatch(/MISMATCH capture boston: SHA-256 differs — recorded [0-9a-f]{64}, file has [0-9a-f]{64}/);
    expect(verified.stdout).toContain('NOT VERIFIED');
  });

  it('verify takes the HTML, and refuses it once edited (issue 24, D9)', async () => {
    const htmlPath = join(dir, 'case.html');
    const fromHtml = await run(['report', 'verify', htmlPath, '--capture', `boston=${capture}`, '--irk', `lab key=${KEY}`]);
    expect(fromHtml.stdout).toMatch(/^MATCH +the HTML is exactly the rendering of the report it embeds/);
    expect(fromHtml.stdout).toContain('VERIFIED: every capture hash');
    expect(fromHtml.code).toBe(0);
    const html = await readFile(htmlPath, 'utf8');
    const edited = join(dir, 'case-edited.html');
    // One visible word changed, the embedded report left as it was.
    await writeFile(edited, html.replace('Similar traffic profiles', 'Different traffic profiles'));
    const refused = await run(['report', 'verify', edited, '--capture', `boston=${capture}`, '--irk', `lab key=${KEY}`]);
    expect(refused.stdout).toContain('REFUSED');
    expect(refused.stdout).toContain('it was edited after it was written');
    expect(refused.code).toBe(3);
    await writeFile(join(dir, 'not-a-report.html'), '<!doctype html><p>hello</p>');
    expect((await run(['report', 'verify', join(dir, 'not-a-report.html')])).code).toBe(4);
  }, 60_000);

  it('verify refuses a JSON twin whose steps or captures were emptied, or that no longer renders to its HTML (issue 24, D9)', async () => {
    const report = JSON.parse(await readFile(join(dir, 'case.json'), 'utf8'));
    expect(report.html_sha256).toMatch(/^[0-9a-f]{64}$/);
    const verify = async (name: string, changed: unknown) => {
      await writeFile(join(dir, name), JSON.stringify(changed));
      return run(['report', 'verify', join(dir, name), '--capture', `boston=${capture}`, '--irk', `lab key=${KEY}`]);
    };
    // Emptied and re-bound (as someone would who knows the format): the evidence check refuses it.
    const { html_sha256: _bound, ...unbound } = report;
    const noSteps = await verify('no-steps.json', { ...unbound, steps: [] });
    expect(noSteps.stdout).toContain('REFUSED  the report has no steps');
    expect(noSteps.code).toBe(3);
    const noCaptures = await verify('no-captures.json', { ...unbound, captures: [] });
    expect(noCaptures.stdout).toMatch(/REFUSED {2}step 1 reads captures lab_floor_2026_04_03_a, lab_floor_2026_04_03_b, which the report's captures do not list/);
    expect(noCaptures.code).toBe(3);
    // Emptied with the digest left: it no longer renders to the HTML it names.
    const stale = await verify('stale.json', { ...report, steps: [report.steps[1]] });
    expect(stale.stdout).toContain('does not render to the HTML twin it names');
    expect(stale.code).toBe(3);
    // A report made before the twins were bound still reads and verifies, with a note.
    const old = await verify('old.json', unbound);
    expect(old.stdout).toMatch(/^NOTE +the report names no HTML twin/);
    expect(old.code).toBe(0);
  }, 120_000);

  it('rejects a file that is not a run or a report with exit 4', async () => {
    await writeFile(join(dir, 'other.json'), JSON.stringify({ hello: 1 }));
    const result = await run(['report', join(dir, 'other.json'), '--out', join(dir, 'x.html')]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('Not a Sextant run file');
  });
});
