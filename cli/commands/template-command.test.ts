import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CaptureCatalog, ToolRegistry, builtinCaptures, builtinTools, createExecutor, type JsonObject, type RunnerResponse } from '../../src/core/index.ts';
import { readCaptures } from '../capture-files.ts';
import { main, type Io } from '../main.ts';


async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** The executor's validation verdict: a runner that would run reports itself called. */
async function validate(invocation: JsonObject, catalog: CaptureCatalog) {
  let ran = false;
  const runner = { run: async (): Promise<RunnerResponse> => ((ran = true), { kind: 'cancelled' }) };
  const record = await createExecutor({ registry: new ToolRegistry(builtinTools({ testTools: true })), catalog, runner }).execute(invocation);
  return { ran, phase: record.phase, errors: record.phase === 'validation' ? record.result.errors : [] };
}

describe('sextant template', () => {
  // A BLE capture file of the project's own generator, read back through --capture.
  let BLE_FILE = '';
  beforeAll(async () => {
    BLE_FILE = join(await mkdtemp(join(tmpdir(), 'sextant-template-')), 'scene.arrow');
    expect((await run(['generate', 'ble', '--seed', '3', '--out', BLE_FILE])).code).toBe(0);
  });

  const tools = new ToolRegistry(builtinTools({ testTools: true })).manifests().map((manifest) => manifest.name);

  it.each(tools)('prints an invocation of %s that the validator accepts', async (tool) => {
    const { code, stdout, stderr } = await run(['template', tool, '--enable-test-tools']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const invocation = JSON.parse(stdout) as JsonObject;
    expect(invocation.tool_name).toBe(tool);
    const verdict = await validate(invocation, new CaptureCatalog(builtinCaptures()));
    expect(verdict.errors).toEqual([]);
    expect(verdict).toMatchObject({ ran: true, phase: 'execution' });
  });

  it('fills the selection from a --capture file: its id and bounds', async () => {
    const { code, stdout } = await run(['template', 'bluetooth_address_analyzer', '--capture', `scene=${BLE_FILE}`]);
    expect(code).toBe(0);
    const invocation = JSON.parse(stdout) as JsonObject;
    const [capture] = await readCaptures([`scene=${BLE_FILE}`], undefined);
    expect(invocation.capture_selection).toEqual({ capture_ids: ['scene'], time_window: { start_ms: capture.info.bounds.start_ms, end_ms: capture.info.bounds.end_ms } });
    const verdict = await validate(invocation, new CaptureCatalog([...builtinCaptures(), capture]));
    expect(verdict.errors).toEqual([]);
  });

  it('exits 5 with the validator\'s errors when the capture does not fit the tool', async () => {
    const csv = join(await mkdtemp(join(tmpdir(), 'sextant-template-')), 'numbers.csv');
    await writeFile(csv, 'ts_ms,value\n0,1\n1000,2\n2000,4\n');
    const { code, stdout, stderr } = await run(['template', 'bluetooth_address_analyzer', '--capture', `numbers=${csv}`]);
    expect(code).toBe(5);
    expect(JSON.parse(stdout).tool_name).toBe('bluetooth_address_analyzer');
    expect(stderr).toMatch(/numbers does not fit bluetooth_address_analyzer: \[/);
  });

  it('refuses an unknown tool with the installed ones named (exit 4)', async () => {
    const { code, stderr } = await run(['template', 'no_such_tool']);
    expect(code).toBe(4);
    expect(stderr).toContain('statistical_regression_tool');
  });
});

describe('every command answers --help with its own usage', () => {
  it.each(['invoke', 'template', 'captures', 'import', 'manifests', 'canon', 'manifest', 'generate', 'report', 'plan', 'mcp'])('sextant %s --help', async (command) => {
    const { code, stdout } = await run([command, '--help']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[1]).toMatch(new RegExp(`^  sextant ${command} `));
  });
});
