import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCanon } from './canon-command.ts';
import type { Io } from '../main.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../../src/core/toolcanon/__fixtures__/${name}`, import.meta.url));

async function run(args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => stdin };
  const code = await runCanon(args, io);
  return { code, stdout, stderr };
}

async function tempFile(name: string, content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sextant-canon-'));
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('sextant canon', () => {
  it('prints the canonical result of one file', async () => {
    const { code, stdout, stderr } = await run([fixture('openai-list-files.json')]);
    expect([code, stderr]).toEqual([0, '']);
    const result = JSON.parse(stdout);
    expect(Object.keys(result)).toEqual(['tool', 'warnings', 'source_format_detected', 'confidence']);
    expect(Object.keys(result.tool)).toEqual(['name', 'version', 'description', 'capabilities', 'inputs', 'outputs', 'security', 'source_format', 'original_definition']);
    expect(result).toMatchObject({
      tool: { name: 'list_files', source_format: 'openai', security: null },
      warnings: [],
      source_format_detected: 'openai',
      confidence: { openai: 1, anthropic: 0, mcp: 0, langchain: 0, raw: 0.1 },
    });
  });

  it('prints an array for several files, in order, and an array for a tools/list response', async () => {
    const { code, stdout } = await run([fixture('mcp-delete-record.json'), fixture('mcp-tools-list-response.json'), fixture('raw-unknown.json')]);
    expect(code).toBe(0);
    const [deleteRecord, toolsList, raw] = JSON.parse(stdout);
    expect(deleteRecord.tool.name).toBe('delete_record');
    expect(toolsList.map((result: { tool: { name: string } }) => result.tool.name)).toEqual(['list_files', 'get_current_weather']);
    expect(raw.warnings[0]).toBe('Could not detect source format; using raw passthrough.');
  });

  it('forces a format with --format', async () => {
    const { stdout } = await run([fixture('openai-legacy-list-files.json'), '--format', 'raw']);
    const result = JSON.parse(stdout);
    expect(result.source_format_detected).toBe('raw');
    expect(result.warnings).toEqual(["No parser for 'raw' format; extracted fields by heuristic."]);
  });

  it('emits each format alone', async () => {
    const file = fixture('langchain-args-schema.json');
    const openai = JSON.parse((await run([file, '--emit', 'openai'])).stdout);
    expect(openai).toMatchObject({ type: 'function', function: { name: 'search_web', parameters: { type: 'object' } } });
    expect(JSON.parse((await run([file, '--emit', 'anthropic'])).stdout)).toHaveProperty('input_schema');
    expect(JSON.parse((await run([file, '--emit', 'mcp'])).stdout)).toHaveProperty('inputSchema');
    const document = JSON.parse((await run([file, '--emit', 'json_schema'])).stdout);
    expect(document).toMatchObject({ $schema: 'https://json-schema.org/draft/2019-09/schema', title: 'search_web', 'x-capabilities': { action: 'search' } });
  });

  it('emits a draft manifest, with the fields to review on stderr', async () => {
    const { code, stdout, stderr } = await run([fixture('internal-weather-tool.json'), '--emit', 'manifest']);
    expect(code).toBe(0);
    const manifest = JSON.parse(stdout);
    expect(manifest).toMatchObject({ name: 'get_current_weather', version: '1.0.0', execution_constraints: { max_timeout_ms: 30000 } });
    expect(stderr).toContain('review $.execution_constraints.max_timeout_ms');
  });

  it('reads standard input with -', async () => {
    const { code, stdout } = await run(['-'], JSON.stringify({ name: 'my_tool', input_schema: { type: 'object' } }));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ source_format_detected: 'anthropic', warnings: ['Tool has no description'] });
  });

  it('exits 4 with a message on stderr only: unreadable file, not JSON, bad flags', async () => {
    const missing = await run(['/nonexistent/tool.json']);
    expect([missing.code, missing.stdout]).toEqual([4, '']);
    expect(missing.stderr).toContain('cannot read /nonexistent/tool.json');
    const notJson = await run([await tempFile('tool.txt', 'name: list_files')]);
    expect([notJson.code, notJson.stdout]).toEqual([4, '']);
    expect(notJson.stderr).toMatch(/tool\.txt is not JSON/);
    const oneBad = await run([fixture('openai-list-files.json'), '/nonexistent/tool.json']);
    expect([oneBad.code, oneBad.stdout]).toEqual([4, '']);
    for (const args of [[], ['x.json', '--format', 'gemini'], ['x.json', '--emit', 'yaml'], ['x.json', '--frobnicate'], ['-', '-']]) {
      const bad = await run(args);
      expect([bad.code, bad.stdout]).toEqual([4, '']);
      expect(bad.stderr).toMatch(/^sextant canon: /);
    }
  });
});
