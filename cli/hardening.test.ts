import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { regressionExampleInvocation } from '../src/core/index.ts';
import { main, type Io } from './main.ts';

// Regression tests for issue 14 at the command line; each failed before its fix.

async function run(argv: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => stdin };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function tempFile(name: string, content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sextant-harden-'));
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

const invocation = (alpha: string) => JSON.stringify(regressionExampleInvocation).replace('"alpha":0.05', `"alpha":${alpha}`);

describe('sextant invoke', () => {
  it('answers an alpha nested 6,000 arrays deep with a coded ToolResult and exit 5 (item 1)', async () => {
    expect(invocation('X')).toContain('"alpha":X');
    const { code, stdout, stderr } = await run(['invoke', await tempFile('deep.json', invocation(`${'['.repeat(6000)}0.05${']'.repeat(6000)}`))]);
    expect([code, stderr]).toEqual([5, '']);
    const result = JSON.parse(stdout);
    expect(result.errors.map((error: { code: string }) => error.code)).toEqual(['INVALID_INVOCATION']);
  });

  it('accepts an invocation with a UTF-8 byte order mark, from a file and from standard input (item 8)', async () => {
    const text = `\ufeff${JSON.stringify(regressionExampleInvocation)}`;
    const fromFile = await run(['invoke', await tempFile('bom.json', text)]);
    expect([fromFile.code, fromFile.stderr]).toEqual([0, '']);
    expect(JSON.parse(fromFile.stdout).status).toBe('ok');
    const fromStdin = await run(['invoke', '-'], text);
    expect(fromStdin.code).toBe(0);
  });

  it('refuses a plan that repeats a request_id (exit 5) and still runs the first step', async () => {
    const plan = JSON.stringify([regressionExampleInvocation, regressionExampleInvocation]);
    const { code, stdout } = await run(['invoke', await tempFile('plan.json', plan)]);
    expect(code).toBe(5);
    const results = JSON.parse(stdout);
    expect(results[0].status).toBe('ok');
    expect(results[1].errors).toEqual([expect.objectContaining({ code: 'INVALID_INVOCATION', field: 'request_id' })]);
  });
});

describe('bounded output for a 74 KB deeply nested input (item 8)', () => {
  const deep = `${'['.repeat(37_000)}${']'.repeat(37_000)}`;
  const deepObject = `{"name":"t","parameters":${'{"a":'.repeat(15_000)}1${'}'.repeat(15_000)}}`;

  it('canon refuses it with a reason and exit 4, printing nothing', async () => {
    for (const text of [deep, deepObject]) {
      const { code, stdout, stderr } = await run(['canon', await tempFile('deep.json', text)]);
      expect([code, stdout]).toEqual([4, '']);
      expect(stderr).toMatch(/is refused: \$.* is nested more than 100 levels deep/);
    }
  });

  it('manifest check answers TOO_DEEP in a few hundred bytes', async () => {
    const { code, stdout } = await run(['manifest', 'check', await tempFile('deep.json', deepObject)]);
    expect(code).toBe(5);
    expect(stdout.length).toBeLessThan(1000);
    expect(JSON.parse(stdout).problems[0].code).toBe('TOO_DEEP');
  });

  it('invoke answers in a few hundred bytes', async () => {
    const { code, stdout } = await run(['invoke', await tempFile('deep.json', deep)]);
    expect(code).toBe(5);
    expect(stdout.length).toBeLessThan(1000);
  });
});
