import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/core/index.ts';
import type { Io } from '../main.ts';
import { runManifest } from './manifest-command.ts';

async function run(args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => stdin };
  const code = await runManifest(args, io);
  return { code, stdout, stderr };
}

async function tempFile(name: string, content: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sextant-manifest-'));
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const [{ manifest: regression }] = builtinTools();

describe('sextant manifest check', () => {
  it('exits 0 on a clean manifest', async () => {
    const { code, stdout, stderr } = await run(['check', await tempFile('m.json', regression)]);
    expect([code, stderr]).toEqual([0, '']);
    expect(JSON.parse(stdout)).toEqual({ ok: true, problems: [] });
  });

  it('exits 5 with every problem and its JSON path', async () => {
    const broken = {
      ...regression,
      name: 'RegressionTool',
      input_schema: { ...regression.input_schema, required: ['operation', 'predictors'] },
      execution_constraints: { ...regression.execution_constraints, max_timeout_ms: 10 },
    };
    const { code, stdout } = await run(['check', await tempFile('m.json', broken)]);
    expect(code).toBe(5);
    const report = JSON.parse(stdout);
    expect(report.ok).toBe(false);
    expect(report.problems.map((problem: { code: string; path: string }) => [problem.code, problem.path])).toEqual([
      ['NAME_NOT_SNAKE_CASE', '$.name'],
      ['REQUIRED_NOT_DECLARED', '$.input_schema.required[1]'],
      ['TIMEOUT_BELOW_RUNTIME_MINIMUM', '$.execution_constraints.max_timeout_ms'],
    ]);
  });

  it('treats text that is not JSON as a problem (exit 5), and reads standard input', async () => {
    const { code, stdout } = await run(['check', '-'], '{"name": ');
    expect(code).toBe(5);
    expect(JSON.parse(stdout).problems[0]).toMatchObject({ code: 'INVALID_JSON', path: '$' });
  });

  it('exits 0 when there are only warnings', async () => {
    const { code, stdout } = await run(['check', await tempFile('m.json', { ...regression, cost_hint: { ...regression.cost_hint, currency: 'US$' } })]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, problems: [{ code: 'CURRENCY_NOT_RECOGNIZED', severity: 'warning' }] });
  });
});

describe('sextant manifest diff', () => {
  it('prints the classification and the reasons, exit 0', async () => {
    const next = structuredClone(regression);
    next.version = '1.3.0';
    delete (next.input_schema.properties as Record<string, unknown>).alpha;
    const { code, stdout, stderr } = await run(['diff', await tempFile('old.json', regression), await tempFile('new.json', next)]);
    expect([code, stderr]).toEqual([0, '']);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ kind: 'major', requiredBump: 'major', actualBump: 'minor', versionOk: false, suggestedVersion: `${Number(regression.version.split('.')[0]) + 1}.0.0` });
    expect(result.reasons).toEqual([{ kind: 'major', path: '$.input_schema.properties.alpha', message: 'property "alpha" was removed: callers that send it are rejected' }]);
    expect(result.message).toMatch(/^Refused: the change is breaking/);
  });

  it('exits 5 when either side is not a valid manifest', async () => {
    const { code, stdout } = await run(['diff', await tempFile('old.json', regression), await tempFile('new.json', { ...regression, version: 'next' })]);
    expect(code).toBe(5);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, problems: { old: [], new: [{ code: 'VERSION_NOT_SEMVER', path: '$.version' }] } });
  });

  it('exits 4 on bad arguments, unreadable files and text that is not JSON', async () => {
    const good = await tempFile('old.json', regression);
    for (const args of [[], ['frobnicate'], ['check'], ['check', good, good], ['diff', good], ['diff', good, '/nonexistent.json'], ['check', '/nonexistent.json'], ['check', good, '--strict'], ['diff', '-', '-']]) {
      const bad = await run(args);
      expect([args, bad.code, bad.stdout]).toEqual([args, 4, '']);
      expect(bad.stderr).toMatch(/^sextant manifest: /);
    }
    const notJson = await run(['diff', good, await tempFile('new.json', 'version: 2')]);
    expect([notJson.code, notJson.stdout]).toEqual([4, '']);
  });
});
