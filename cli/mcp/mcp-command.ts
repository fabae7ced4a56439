// `sextant mcp serve|tools|call|check` (issue 13).

import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { tableToIPC } from 'apache-arrow';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CaptureCatalog,
  ToolRegistry,
  builtinCaptures,
  builtinTools,
  callMcpTool,
  canonicalize,
  checkMcpTool,
  createExecutor,
  describeMcpFailure,
  formatCheckTable,
  listMcpTools,
  safeParseJson,
  startDeadline,
  timerClock,
  toManifest,
  toolResultFromFailure,
  type McpCheckRow,
  type McpToolDefinition,
  type McpToolList,
  type ToolResult,
} from '../../src/core/index.ts';
import { readCaptures } from '../capture-files.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { UsageError } from '../usage-error.ts';
import { connectMcp, splitCommandLine, type McpTarget, type OpenMcpClient } from './connect.ts';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, isWildcard, normalizeOrigin, serveHttp } from './http-serve.ts';
import { RunnerPool } from './runner-pool.ts';
import { createSextantMcpServer } from './sextant-mcp-server.ts';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_PORT = 4360;
const DEFAULT_CHECK_TOTAL_MS = 120_000;
/** One call per core by default: each runs in a worker thread of its own (~25 MB). */
const DEFAULT_CONCURRENT = Math.max(1, availableParallelism());

export const MCP_USAGE = `Usage:
  sextant mcp serve [--http [--host 127.0.0.1] [--port N] [--token TOKEN] [--allow-host NAME]... [--allow-origin ORIGIN]... [--max-sessions N] [--session-idle-ms N]] [--concurrent N] [--capture ID=PATH]... [--time-column NAME] [--enable-test-tools]
  sextant mcp tools TARGET
  sextant mcp call TARGET TOOL ARGS_JSON [--timeout-ms N]
  sextant mcp check TARGET [--tool NAME]... [--include-side-effects] [--timeout-ms N] [--total-timeout-ms N] [--json]

TARGET is a Streamable HTTP URL (http://host:port/mcp) or --stdio "COMMAND ARGS" (a server
started as a child process speaking MCP on stdin/stdout); --token TOKEN sends a bearer token.

serve   Sextant's installed tools and captures as an MCP server: stdio by default; with --http,
        Streamable HTTP at http://HOST:PORT/mcp (default 127.0.0.1:${DEFAULT_PORT}), Host and Origin
        checked against the bound address and each --allow-host NAME (DNS-rebinding protection;
        --host 0.0.0.0 needs --allow-host), --token required as "Authorization: Bearer TOKEN".
        --allow-origin ORIGIN (repeatable) lets web pages of exactly that origin call it from a
        browser (CORS preflight, Mcp-Session-Id exposed); by default no cross-origin access.
        At most --concurrent calls run at once (default ${DEFAULT_CONCURRENT}; the rest wait, their
        timeout_ms counting from arrival); an HTTP session idle --session-idle-ms (default
        ${DEFAULT_SESSION_IDLE_MS}) is closed, and at most --max-sessions (default ${DEFAULT_MAX_SESSIONS}) live at once.
tools   lists the server's tools, each as a canonical tool with its draft ToolManifest and review
        list, and the entries it refused ("problems"); exit 1 when there are any. The drafts say
        execution_constraints.capture_selection "none": an MCP tool gets only its arguments.
call    validates ARGS_JSON against the tool's inputSchema (nothing is sent when it fails: exit 5),
        calls the tool and prints the ToolResult; exit 0 ok, 1 the call failed on the server.
check   sends each tool the conformance cases Sextant generates from its inputSchema (one valid
        call, one per way to break it) and prints the table; exit 0 only when the server honours
        its own schemas. Without --tool, tools whose annotations say they have side effects
        (readOnlyHint false or destructiveHint true) are skipped and named on stderr, unless
        --include-side-effects is given. The whole check ends within --total-timeout-ms (default
        ${DEFAULT_CHECK_TOTAL_MS}); cases left then are reported as timeout rows, not run.

Exit codes: 0 ok; 1 execution failure (server down, error results, findings); 4 bad arguments;
5 a call refused by validation before sending.`;

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        http: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        token: { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        'allow-origin': { type: 'string', multiple: true },
        capture: { type: 'string', multiple: true },
        'time-column': { type: 'string' },
        'enable-test-tools': { type: 'boolean' },
        concurrent: { type: 'string' },
        'max-sessions': { type: 'string' },
        'session-idle-ms': { type: 'string' },
        stdio: { type: 'string' },
        tool: { type: 'string', multiple: true },
        'timeout-ms': { type: 'string' },
        'total-timeout-ms': { type: 'string' },
        json: { type: 'boolean' },
        'include-side-effects': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

type Parsed = ReturnType<typeof parse>;

function positiveInteger(text: string | undefined, flag: string, fallback: number, allowZero = false): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) throw new UsageError(`${flag} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got '${text}'`);
  return value;
}

/** The target from `--stdio "COMMAND ARGS"` or the first positional URL; returns the remaining positionals. */
function targetOf(parsed: Parsed, positionals: string[]): { target: McpTarget; rest: string[] } {
  const token = parsed.values.token;
  if (parsed.values.stdio !== undefined) {
    const [command, ...commandArgs] = splitCommandLine(parsed.values.stdio);
    if (!command) throw new UsageError('--stdio needs a command');
    return { target: { kind: 'stdio', command, args: commandArgs }, rest: positionals };
  }
  const [first, ...rest] = positionals;
  if (!first) throw new UsageError('a TARGET is needed: a Streamable HTTP URL or --stdio "COMMAND ARGS"');
  let url: URL;
  try {
    url = new URL(first);
  } catch {
    throw new UsageError(`TARGET '${first}' is not a URL (use --stdio "COMMAND ARGS" for a local server)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`TARGET must be an http(s) URL, got '${first}'`);
  return { target: { kind: 'http', url, ...(token ? { token } : {}) }, rest };
}

/** `sextant mcp …`; returns the exit code. Bad arguments throw for main() to report (exit 4). */
export async function runMcp(args: string[], io: Io): Promise<number> {
  const parsed = parse(args);
  const [subcommand, ...positionals] = parsed.positionals;
  if (parsed.values.help || subcommand === undefined) {
    io.stdout(`${MCP_USAGE}\n`);
    return subcommand === undefined && !parsed.values.help ? EXIT.badArguments : EXIT.ok;
  }
  try {
    switch (subcommand) {
      case 'serve':
        if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
        return await serve(parsed, io);
      case 'tools':
        return await tools(parsed, positionals, io);
      case 'call':
        return await call(parsed, positionals, io);
      case 'check':
        return await check(parsed, positionals, io);
      default:
        throw new UsageError(`unknown mcp command '${subcommand}'`);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`sextant mcp: ${error.message}\n\n${MCP_USAGE}\n`);
    return EXIT.badArguments;
  }
}

// ---------------------------------------------------------------------------------------------
// serve

async function serve(parsed: Parsed, io: Io): Promise<number> {
  const { values } = parsed;
  const testTools = values['enable-test-tools'] ?? false;
  const userCaptures = await readCaptures(values.capture ?? [], values['time-column']);
  const catalog = new CaptureCatalog([...builtinCaptures(), ...userCaptures]);
  const registry = new ToolRegistry(builtinTools({ testTools }));
  const log = (line: string) => io.stderr(`${line}\n`);
  const concurrent = positiveInteger(values.concurrent, '--concurrent', DEFAULT_CONCURRENT);
  const pool = new RunnerPool({ testTools, captures: userCaptures.map((capture) => tableToIPC(capture.table)), concurrent }, (request, kind) => {
    if (kind === 'cancelled' || kind === 'timeout') log(`sextant mcp: ${request.invocation.request_id} ${kind}; its worker thread was terminated`);
  });
  const executor = createExecutor({ registry, catalog, runner: pool });
  const createServer = () => createSextantMcpServer({ registry, catalog, executor, log, version: '0.1.0' });

  if (!values.http) {
    if (values.host !== undefined || values.port !== undefined || values.token !== undefined || values['allow-host'] !== undefined || values['allow-origin'] !== undefined || values['max-sessions'] !== undefined || values['session-idle-ms'] !== undefined) {
      throw new UsageError('--host, --port, --token, --allow-host, --allow-origin, --max-sessions and --session-idle-ms need --http');
    }
    const server = createServer();
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
    });
    await server.connect(new StdioServerTransport());
    log('sextant mcp: serving on stdio');
    await closed;
    pool.close();
    return EXIT.ok;
  }
  const host = values.host ?? '127.0.0.1';
  const port = positiveInteger(values.port, '--port', DEFAULT_PORT, true);
  const allowHosts = values['allow-host'] ?? [];
  if (isWildcard(host) && allowHosts.length === 0) throw new UsageError(`--host ${host} binds every interface: give --allow-host NAME for each Host name clients use`);
  const allowOrigins = values['allow-origin'] ?? [];
  const badOrigin = allowOrigins.find((origin) => normalizeOrigin(origin) === null);
  if (badOrigin !== undefined) throw new UsageError(`--allow-origin needs a web page origin such as http://127.0.0.1:5173 (scheme, host and port; no path, no '*'), got '${badOrigin}'`);
  const maxSessions = positiveInteger(values['max-sessions'], '--max-sessions', DEFAULT_MAX_SESSIONS);
  const sessionIdleMs = positiveInteger(values['session-idle-ms'], '--session-idle-ms', DEFAULT_SESSION_IDLE_MS);
  const running = await serveHttp({ host, port, token: values.token, allowHosts, allowOrigins, createServer, log, maxSessions, sessionIdleMs });
  log(`sextant mcp: serving Streamable HTTP at ${running.url}${values.token ? ' (bearer token required)' : ''}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await running.close();
  pool.close();
  return EXIT.ok;
}

// ---------------------------------------------------------------------------------------------
// tools, call, check

async function withClient(parsed: Parsed, positionals: string[], io: Io, body: (open: OpenMcpClient, rest: string[], timeoutMs: number) => Promise<number>): Promise<number> {
  const { target, rest } = targetOf(parsed, positionals);
  const timeoutMs = positiveInteger(parsed.values['timeout-ms'], '--timeout-ms', DEFAULT_TIMEOUT_MS);
  const opened = await connectMcp(target, timeoutMs);
  if (!opened.ok) {
    io.stderr(`sextant mcp: cannot connect to ${target.kind === 'http' ? target.url.href : target.command}: ${describeMcpFailure(opened.failure)}\n`);
    return EXIT.executionFailure;
  }
  try {
    return await body(opened.value, rest, timeoutMs);
  } finally {
    await opened.value.close().catch(() => {});
  }
}

async function listOrReport(open: OpenMcpClient, timeoutMs: number, io: Io): Promise<McpToolList | null> {
  const listed = await listMcpTools(open.connection, { timeoutMs });
  if (!listed.ok) {
    io.stderr(`sextant mcp: tools/list failed: ${describeMcpFailure(listed.failure)}\n`);
    return null;
  }
  for (const problem of listed.list.problems) {
    io.stderr(`sextant mcp: tool ${problem.name ?? `#${problem.index}`} refused: ${problem.message}\n`);
  }
  return listed.list;
}

function tools(parsed: Parsed, positionals: string[], io: Io): Promise<number> {
  return withClient(parsed, positionals, io, async (open, rest, timeoutMs) => {
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const list = await listOrReport(open, timeoutMs, io);
    if (!list) return EXIT.executionFailure;
    const entries = list.tools.map((tool) => {
      const canonical = canonicalize(tool.raw, { format: 'mcp' });
      // Only `arguments` reach an MCP server's tool: it reads no Sextant capture.
      const draft = toManifest(canonical.tool, { readsNoCapture: true });
      return { name: tool.name, canonical: { tool: canonical.tool, warnings: canonical.warnings }, manifest: draft.manifest, review: draft.review };
    });
    io.stdout(`${JSON.stringify({ tools: entries, problems: list.problems }, null, 2)}\n`);
    return list.problems.length > 0 ? EXIT.executionFailure : EXIT.ok;
  });
}

function printResult(result: ToolResult, io: Io): void {
  io.stdout(`${JSON.stringify(result, null, 2)}\n`);
}

function call(parsed: Parsed, positionals: string[], io: Io): Promise<number> {
  return withClient(parsed, positionals, io, async (open, rest, timeoutMs) => {
    const [toolName, argsText, ...extra] = rest;
    if (!toolName || argsText === undefined) throw new UsageError('call needs TOOL and ARGS_JSON');
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const args = safeParseJson(argsText);
    if (!args.ok) {
      printResult({ status: 'error', summary: 'Invocation failed validation; nothing was sent to the server.', warnings: [], errors: [{ code: 'INVALID_INVOCATION', field: 'arguments', message: `ARGS_JSON is not JSON: ${args.message}` }], confidence: 0 }, io);
      return EXIT.validationFailure;
    }
    const listed = await listMcpTools(open.connection, { timeoutMs });
    if (!listed.ok) {
      printResult(toolResultFromFailure(toolName, listed.failure), io);
      return EXIT.executionFailure;
    }
    const tool = listed.list.tools.find((candidate) => candidate.name === toolName);
    if (!tool) {
      const refused = listed.list.problems.find((problem) => problem.name === toolName);
      const result: ToolResult = refused
        ? { status: 'error', summary: `The server lists ${toolName} with an invalid definition.`, warnings: [], errors: [{ code: 'EXECUTION_ERROR', field: '', message: refused.message }], confidence: 0 }
        : {
            status: 'error',
            summary: 'Invocation failed validation; nothing was sent to the server.',
            warnings: [],
            errors: [{ code: 'UNKNOWN_TOOL', field: 'tool_name', message: `The server has no tool ${toolName}; it lists: ${listed.list.tools.map((entry) => entry.name).join(', ') || 'none'}` }],
            confidence: 0,
          };
      printResult(result, io);
      return refused ? EXIT.executionFailure : EXIT.validationFailure;
    }
    const record = await callMcpTool(open.connection, tool, args.value, { timeoutMs, now: () => performance.now() });
    printResult(record.result, io);
    if (record.phase === 'validation') return EXIT.validationFailure;
    return record.result.status === 'error' ? EXIT.executionFailure : EXIT.ok;
  });
}

function check(parsed: Parsed, positionals: string[], io: Io): Promise<number> {
  const commandStarted = Date.now();
  return withClient(parsed, positionals, io, async (open, rest, timeoutMs) => {
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const list = await listOrReport(open, timeoutMs, io);
    if (!list) return EXIT.executionFailure;
    const wanted = parsed.values.tool;
    const missing = (wanted ?? []).filter((name) => !list.tools.some((tool) => tool.name === name));
    if (missing.length > 0) throw new UsageError(`the server lists no usable tool ${missing.join(', ')}`);
    // Broken calls to a tool that writes could do harm: only those named or explicitly included.
    const skipped = wanted || parsed.values['include-side-effects'] ? [] : list.tools.filter(hasSideEffects).map((tool) => tool.name);
    for (const name of skipped) io.stderr(`sextant mcp check: skipped ${name}: its annotations say it has side effects (--include-side-effects or --tool ${name} checks it)\n`);
    const selected = wanted ? list.tools.filter((tool) => wanted.includes(tool.name)) : list.tools.filter((tool) => !skipped.includes(tool.name));
    const limitMs = positiveInteger(parsed.values['total-timeout-ms'], '--total-timeout-ms', DEFAULT_CHECK_TOTAL_MS);
    // Counted from the start of the command: connecting and listing are inside it too.
    const overall = startDeadline({ clock: timerClock({ setTimeout, clearTimeout }), totalMs: limitMs, startedAt: commandStarted });
    const rows: McpCheckRow[] = [];
    try {
      for (const tool of selected) rows.push(...(await checkMcpTool(open.connection, tool, { timeoutMs, now: () => performance.now(), overall: { signal: overall.signal, remainingMs: overall.remainingMs, limitMs } })));
    } finally {
      overall.dispose();
    }
    const honoured = rows.every((row) => row.passed) && (wanted !== undefined || list.problems.length === 0);
    if (parsed.values.json) io.stdout(`${JSON.stringify({ honoured, rows, problems: list.problems, skipped }, null, 2)}\n`);
    else {
      io.stdout(`${formatCheckTable(rows)}\n`);
      const failed = rows.filter((row) => !row.passed).length;
      io.stdout(`\n${rows.length - failed}/${rows.length} cases as the schemas say${list.problems.length > 0 ? `; ${list.problems.length} tool(s) listed with invalid definitions` : ''}\n`);
    }
    return honoured ? EXIT.ok : EXIT.executionFailure;
  });
}

/** MCP tool annotations that say a call changes something: `readOnlyHint: false` or `destructiveHint: true`. */
function hasSideEffects(tool: McpToolDefinition): boolean {
  const annotations = tool.raw.annotations;
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) return false;
  return annotations.readOnlyHint === false || annotations.destructiveHint === true;
}
