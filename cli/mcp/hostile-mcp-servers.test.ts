// Issue 24, D3, D10 and D13: `sextant mcp call|check` against hostile MCP servers over a real
// stdio transport (a child process writing the wire format by hand, see fixtures/).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main, type Io } from '../main.ts';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-stdio-server.mjs', import.meta.url));
const serverCommand = (mode: string) => `"${process.execPath}" "${HOSTILE}" ${mode}`;

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  const started = Date.now();
  const code = await main(argv, io);
  return { code, stdout, stderr, elapsedMs: Date.now() - started };
}

describe('hostile MCP servers', () => {
  it('D3: structuredContent nested 100,000 deep is a coded ToolResult, not a crash', async () => {
    const { code, stdout } = await run(['mcp', 'call', '--stdio', serverCommand('deep'), 'hostile', '{"n":1}']);
    expect(code).toBe(1);
    const result = JSON.parse(stdout);
    expect(result.status).toBe('error');
    expect(result.errors[0]).toMatchObject({ code: 'OUTPUT_SCHEMA_VIOLATION', field: 'structured_output' });
    expect(result.errors[0].message).toMatch(/nested more than 100 levels deep/);
  });

  it('D13: junk on a stdio server’s stdout is named at once, long before the call’s deadline', async () => {
    const { code, stdout, elapsedMs } = await run(['mcp', 'call', '--stdio', serverCommand('junk'), 'hostile', '{"n":1}', '--timeout-ms', '60000']);
    expect(code).toBe(1);
    const result = JSON.parse(stdout);
    expect(result.errors[0].code).toBe('EXECUTION_ERROR');
    expect(result.errors[0].message).toMatch(/not an MCP message on its stdout .*Starting h/);
    expect(elapsedMs).toBeLessThan(20_000);
  });

  it('D10: `mcp check` of 50 tools that never answer ends within --total-timeout-ms, the cases left reported as not run', async () => {
    const { code, stdout, elapsedMs } = await run(['mcp', 'check', '--stdio', serverCommand('silent'), '--timeout-ms', '1000', '--total-timeout-ms', '3000', '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.honoured).toBe(false);
    expect(new Set(report.rows.map((row: { tool: string }) => row.tool)).size).toBe(50);
    expect(report.rows.every((row: { outcome: string }) => row.outcome === 'timeout')).toBe(true);
    expect(report.rows.at(-1).detail).toMatch(/overall limit of 3000 ms ran out/);
    // 3 s of limit plus the child's start-up on a loaded machine; without the bound it took minutes.
    expect(elapsedMs).toBeLessThan(15_000);
  });
});
