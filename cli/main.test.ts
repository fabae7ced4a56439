import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invalidPlanExample, invalidPlanExpectedResult, regressionExampleInvocation } from '../src/core/index.ts';
import { main, type Io } from './main.ts';

async function run(argv: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => stdin };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function tempFile(name: string, content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sextant-cli-'));
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

const echo = (args: Record<string, unknown>, timeout_ms = 5000) => ({
  tool_name: 'test_echo',
  tool_version: '1.0.0',
  capture_selection: { capture_id: 'cap_2026_03_14_a' },
  arguments: args,
  request_id: `req-${Math.random()}`,
  timeout_ms,
});

describe('sextant invoke', () => {
  it('runs the regression example from stdin and exits 0', async () => {
    const { code, stdout, stderr } = await run(['invoke', '-'], JSON.stringify(regressionExampleInvocation));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.status).toBe('ok');
    expect(result.structured_output.coefficients).toHaveProperty('packet_loss');
  });

  it('prints the specified validation response for the invalid plan and exits 5', async () => {
    const path = await tempFile('plan.json', JSON.stringify(invalidPlanExample));
    const { code, stdout } = await run(['invoke', path]);
    expect(code).toBe(5);
    expect(JSON.parse(stdout)).toEqual([invalidPlanExpectedResult]);
  });

  it('stops a tool that overruns its timeout and keeps working after it', async () => {
    const plan = [echo({ sleep_ms: 60_000 }, 1000), echo({ text: 'still here' })];
    const started = Date.now();
    const { code, stdout } = await run(['invoke', '-', '--enable-test-tools'], JSON.stringify(plan));
    expect(Date.now() - started).toBeLessThan(20_000);
    const [stopped, next] = JSON.parse(stdout);
    expect(stopped.errors).toEqual([expect.objectContaining({ code: 'TIMEOUT', field: 'timeout_ms' })]);
    expect(next).toMatchObject({ status: 'ok', summary: 'still here' });
    expect(code).toBe(1);
  });

  it('answers text that is not JSON with INVALID_INVOCATION and exit 5', async () => {
    const { code, stdout } = await run(['invoke', '-'], '{"tool_name": ');
    expect(code).toBe(5);
    expect(JSON.parse(stdout).errors[0].code).toBe('INVALID_INVOCATION');
  });

  it('exits 4 on an unreadable file or bad arguments, with a message on stderr only', async () => {
    const missing = await run(['invoke', '/nonexistent/plan.json']);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('ENOENT');
    expect((await run(['frobnicate'])).code).toBe(4);
    expect((await run(['invoke', '-', '--capture', 'no-equals-sign'])).code).toBe(4);
  });

  it('reads a CSV capture given with --capture', async () => {
    const rows = ['t,channel,y,x'];
    for (let index = 0; index < 50; index++) rows.push(`${index * 10},${index % 2 ? 'a' : 'b'},${3 + 2 * index + (index % 3)},${index}`);
    const path = await tempFile('lab.csv', rows.join('\n'));
    const invocation = {
      tool_name: 'statistical_regression_tool',
      tool_version: '1.2.0',
      capture_selection: { capture_id: 'lab', selectors: { channels: ['a'] } },
      arguments: { operation: 'linear_regression', target: 'y', features: ['x'] },
      request_id: 'req-csv',
      timeout_ms: 5000,
    };
    const { code, stdout } = await run(['invoke', '-', '--capture', `lab=${path}`, '--time-column', 't'], JSON.stringify(invocation));
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.structured_output.sample_count).toBe(25);
    const listed = JSON.parse((await run(['captures', '--capture', `lab=${path}`, '--time-column', 't'])).stdout);
    expect(listed.find((capture: { id: string }) => capture.id === 'lab')).toMatchObject({ rows: 50, bounds: { start_ms: 0, end_ms: 490 }, channels: ['a', 'b'] });
  });
});

describe('sextant captures and manifests', () => {
  it('lists the built-in capture with its bounds and channels', async () => {
    const { code, stdout } = await run(['captures']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ id: 'cap_2026_03_14_a', rows: 120_001, bounds: { start_ms: 0, end_ms: 120_000 }, channels: ['ch1', 'ch2', 'ch3', 'ch4'] }),
    ]);
  });

  it('lists installed manifests', async () => {
    const { stdout } = await run(['manifests']);
    expect(JSON.parse(stdout)).toEqual([
      { name: 'statistical_regression_tool', version: '1.2.0', capabilities: ['linear_regression', 'summary_stats', 'anova', 'correlation'] },
    ]);
  });
});
