import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_QUEUE,
  QueueSet,
  timerClock,
  CaptureCatalog,
  ToolRegistry,
  builtinCaptures,
  builtinTools,
  createExecutor,
  createHttpProvider,
  createMcpRunner,
  mcpPlannerToolSet,
  createScriptedProvider,
  jsonByteLength,
  parseProviderScript,
  repairInvocationOffline,
  runPlannerSession,
  safeParseJson,
  type FetchFunction,
  type LlmProvider,
  type PlannerClock,
  type JsonObject,
  type PlannerConfig,
  type PlannerEvent,
  type PlannerSessionResult,
  type ProviderKind,
  type ProviderTarget,
} from '../../src/core/index.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { UsageError } from '../usage-error.ts';
import { loadPlannerConfig } from '../planner-config.ts';
import { ThreadRunner } from '../thread-runner.ts';
import type { McpServerReport, StartedMcpServers } from '../mcp/plan-servers.ts';

/** Time each MCP server has to start (or be reached), initialize and list its tools (`--mcp-timeout-ms`). */
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 30_000;

export const PLAN_USAGE = `Usage:
  sextant plan --prompt TEXT [--config FILE] [--provider SPEC]... [--test-tools] [--no-offline-repair]
               [--mcp-timeout-ms N] [--events FILE]

Runs a planner session and prints its result as JSON on stdout: success, error, finalReport
(status, format, content, ts, metadata), conversation, accounting, toolCalls (per call:
what the model received, modelContent and modelBytes, next to the full result and resultBytes),
and mcpServers (per configured server: ready with its tools, or failed with a code).

--provider SPEC   a target; several are tried in order on retries:
                  scripted:FILE                 replays the JSON array in FILE
                  openai:MODEL                  key from OPENAI_API_KEY or apiKeys.openai
                  anthropic:MODEL               key from ANTHROPIC_API_KEY or apiKeys.anthropic
                  openai-compatible:URL#MODEL   e.g. http://localhost:11434/v1#llama3.1
                  (default: the config's providers)
--config FILE     settings over ./.sextant.json over ~/.sextant/sextant.json: maxTurns,
                  maxRetries, maxToolCallsPerTurn, toolTimeout, llmTimeout, llmIdleTimeout,
                  llmResponseMaxBytes, toolResponseMaxBytes,
                  contextWindow, contextWindowBufferTokens, maxOutputTokens, transport,
                  reportFormat, providers, apiKeys, queues, mcpServers; \${VAR} expands from
                  the environment (not in mcpServers.*.env and mcpServers.*.headers).
                  Key safety: ./.sextant.json and ~/.sextant/sextant.json may not change an
                  openai or anthropic baseUrl, and expand \${VAR} only in those API keys;
                  ./.sextant.json may not list mcpServers
                  mcpServers: {"NAME": {"command", "args", "env", "queue"}} (stdio) or
                  {"NAME": {"url", "headers", "queue"}} (Streamable HTTP); their tools are
                  offered as NAME__TOOL
--mcp-timeout-ms N  time each MCP server has to start, initialize and list its tools
                  (default ${DEFAULT_MCP_STARTUP_TIMEOUT_MS})
--events FILE     also writes the session's step recording to FILE as it happens, one planner
                  event per line (JSON Lines): each LLM request, the model's reply (text,
                  reasoning, tool calls, those extracted from text), dropped calls, invocations,
                  validation, repairs, executions, the final report; keys redacted as on stdout
--test-tools      installs the diagnostic test_echo tool
--no-offline-repair  sends every failed invocation back to the model

Exit codes: 0 success; 1 session failure; 3 an MCP server is missing or failed to start;
4 bad arguments or configuration.`;

/** No servers configured: nothing to start, and the MCP SDK is never loaded. */
const NO_MCP_SERVERS: StartedMcpServers = { reports: [], ok: true, offered: [], queues: new Map(), close: async () => {} };

const KEY_VARIABLES: Partial<Record<ProviderKind, string>> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

/** What the command touches in the world; tests replace it. */
export interface PlanDependencies {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  fetch: FetchFunction;
  clock: PlannerClock;
  signal?: AbortSignal;
}

/** Real time for the loop: `Date.now` and an abortable `setTimeout`. */
export const systemClock: PlannerClock = timerClock({ setTimeout, clearTimeout });

function defaultDependencies(): PlanDependencies {
  return { env: process.env, cwd: process.cwd(), home: homedir(), fetch: (url, init) => fetch(url, init), clock: systemClock };
}

/** Builds one target from a `--provider` spec, its key from the environment or the configuration. */
async function targetFromSpec(spec: string, config: PlannerConfig, deps: PlanDependencies): Promise<ProviderTarget> {
  const colon = spec.indexOf(':');
  const kind = colon > 0 ? spec.slice(0, colon) : '';
  const rest = colon > 0 ? spec.slice(colon + 1) : '';
  if (rest === '') throw new UsageError(`--provider expects KIND:VALUE (scripted:FILE, openai:MODEL, anthropic:MODEL, openai-compatible:URL#MODEL), got '${spec}'`);
  switch (kind) {
    case 'scripted': {
      const path = resolve(deps.cwd, rest);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        throw new UsageError(`--provider ${spec}: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const parsed = safeParseJson(text);
      if (!parsed.ok) throw new UsageError(`--provider ${spec}: ${rest} is not JSON: ${parsed.message}`);
      const script = parseProviderScript(parsed.value);
      if (!script.ok) throw new UsageError(`--provider ${spec}: ${script.error.message} [${script.error.code}]`);
      return { provider: 'scripted', model: basename(rest).replace(/\.json$/i, ''), script: parsed.value, label: `scripted:${basename(rest)}` };
    }
    case 'openai':
    case 'anthropic':
      return { provider: kind, model: rest, apiKey: keyFor(kind, config, deps) };
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      if (hash <= 0 || hash === rest.length - 1) throw new UsageError(`--provider ${spec}: write openai-compatible:URL#MODEL, e.g. openai-compatible:http://localhost:11434/v1#llama3.1`);
      const key = config.apiKeys['openai-compatible'];
      return { provider: 'openai-compatible', baseUrl: rest.slice(0, hash), model: rest.slice(hash + 1), ...(key ? { apiKey: key } : {}) };
    }
    default:
      throw new UsageError(`--provider ${spec}: unknown provider '${kind}'; use scripted, openai, anthropic or openai-compatible`);
  }
}

function keyFor(kind: 'openai' | 'anthropic', config: PlannerConfig, deps: PlanDependencies, own?: string): string {
  const variable = KEY_VARIABLES[kind]!;
  const key = own ?? deps.env[variable] ?? config.apiKeys[kind];
  if (!key) throw new UsageError(`no API key for ${kind}: set ${variable} or apiKeys.${kind} in a config file`);
  return key;
}

async function targetsOf(specs: string[], config: PlannerConfig, deps: PlanDependencies): Promise<ProviderTarget[]> {
  if (specs.length > 0) return Promise.all(specs.map((spec) => targetFromSpec(spec, config, deps)));
  if (config.providers.length === 0) throw new UsageError('no provider: pass --provider or list providers in a config file');
  return config.providers.map((configured) => {
    const target: ProviderTarget = { ...configured };
    if (configured.provider === 'openai' || configured.provider === 'anthropic') target.apiKey = keyFor(configured.provider, config, deps, configured.apiKey);
    else if (configured.provider === 'openai-compatible' && !target.apiKey && config.apiKeys['openai-compatible']) target.apiKey = config.apiKeys['openai-compatible'];
    return target;
  });
}

function providerFor(target: ProviderTarget, deps: PlanDependencies): LlmProvider {
  if (target.provider === 'scripted') return createScriptedProvider(target);
  return createHttpProvider(target, { fetch: deps.fetch, clock: deps.clock });
}

/** The session result as printed: keys can never appear, even inside a provider's error text. */
export function printableResult(result: PlannerSessionResult & { toolCalls?: JsonObject[]; mcpServers?: ReadonlyArray<McpServerReport> }, secrets: ReadonlyArray<string>): string {
  return redacted(JSON.stringify(result, null, 2), secrets);
}

function redacted(text: string, secrets: ReadonlyArray<string>): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** `sextant plan`: returns the exit code (agent-contract.md §2). */
export async function runPlan(argv: string[], io: Io, deps: PlanDependencies = defaultDependencies()): Promise<number> {
  try {
    return await plan(argv, io, deps);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`sextant plan: ${error.message}\n`);
    return EXIT.badArguments;
  }
}

async function plan(argv: string[], io: Io, deps: PlanDependencies): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        prompt: { type: 'string' },
        config: { type: 'string' },
        provider: { type: 'string', multiple: true },
        'test-tools': { type: 'boolean' },
        'enable-test-tools': { type: 'boolean' },
        'no-offline-repair': { type: 'boolean' },
        'mcp-timeout-ms': { type: 'string' },
        events: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n\n${PLAN_USAGE}`);
  }
  if (values.help) {
    io.stdout(`${PLAN_USAGE}\n`);
    return EXIT.ok;
  }
  const question = values.prompt?.trim();
  if (!question) throw new UsageError(`--prompt TEXT is required\n\n${PLAN_USAGE}`);
  const loaded = await loadPlannerConfig({ configPath: values.config, cwd: deps.cwd, home: deps.home, env: deps.env });
  if (!loaded.ok) throw new UsageError(`${loaded.error.message} [${loaded.error.code}]`);
  const config = loaded.value;
  const targets = await targetsOf(values.provider ?? [], config, deps);
  const testTools = Boolean(values['test-tools'] || values['enable-test-tools']);
  const mcpTimeoutMs = values['mcp-timeout-ms'] === undefined ? DEFAULT_MCP_STARTUP_TIMEOUT_MS : Number(values['mcp-timeout-ms']);
  if (!Number.isInteger(mcpTimeoutMs) || mcpTimeoutMs < 1) throw new UsageError(`--mcp-timeout-ms expects a whole number of milliseconds >= 1, got '${values['mcp-timeout-ms']}'`);

  // Queues and their bindings are checked before anything starts (agent-contract.md §7).
  const bindings = Object.entries(config.mcpServers).flatMap(([name, server]) => (server.queue === undefined ? [] : [{ owner: `mcpServers.${name}`, queue: server.queue }]));
  const queues = QueueSet.create(config.queues, bindings, { defaultConcurrent: 1, now: deps.clock.now });
  if (!queues.ok) {
    io.stderr(`sextant plan: ${queues.message}\n`);
    return EXIT.badArguments;
  }

  // API keys and MCP headers (tokens) never reach the output, even inside an error's text.
  const secrets = [
    ...targets.map((target) => target.apiKey ?? ''),
    ...Object.values(config.apiKeys),
    ...Object.values(config.mcpServers).flatMap((server) => (server.transport === 'http' ? Object.values(server.headers) : [])),
  ];
  // Opened before anything starts: a path that cannot be written is a usage error and nothing runs.
  const eventLog = values.events === undefined ? null : openEventLog(resolve(deps.cwd, values.events), secrets);
  // The SDK's client loads only when a server is configured (a plan without servers starts as before).
  const servers =
    Object.keys(config.mcpServers).length === 0
      ? NO_MCP_SERVERS
      : await (await import('../mcp/plan-servers.ts')).startMcpServers(config.mcpServers, { timeoutMs: mcpTimeoutMs, clock: deps.clock });
  const mcpServers = servers.reports;
  if (!servers.ok) {
    const failures = mcpServers.filter((report): report is Extract<McpServerReport, { status: 'failed' }> => report.status === 'failed');
    for (const failure of failures) io.stderr(redacted(`sextant plan: ${failure.message} [${failure.code}]\n`, secrets));
    const error = failures.map((failure) => `${failure.message} [${failure.code}]`).join('; ');
    io.stdout(`${printableResult({ success: false, error, conversation: [], accounting: [], turns: 0, nonce: '', toolCalls: [], mcpServers }, secrets)}\n`);
    eventLog?.close();
    return EXIT.mcpServerFailure;
  }
  for (const report of mcpServers) {
    if (report.status === 'ready') for (const problem of report.problems) io.stderr(`sextant plan: MCP server '${report.name}': a listed tool is left out: ${problem.message}\n`);
  }
  const mcpTools = mcpPlannerToolSet(servers.offered);

  // Built-in tools keep their names: an MCP tool named like one (never, given the `server__` prefix) is not offered.
  const builtins = builtinTools({ testTools });
  const builtinNames = new Set(builtins.map((tool) => tool.manifest.name));
  const registry = new ToolRegistry([...builtins, ...mcpTools.implementations.filter((tool) => !builtinNames.has(tool.manifest.name))]);
  const catalog = new CaptureCatalog(builtinCaptures());
  const threads = new ThreadRunner({ testTools, captures: [] });
  const runner = createMcpRunner({ bindingFor: mcpTools.bindingFor, fallback: threads });
  const controller = new AbortController();
  const stop = () => controller.abort();
  deps.signal?.addEventListener('abort', stop, { once: true });
  process.once('SIGINT', stop);
  // Per tool call, what the model received (the digest, its size) next to the full result.
  const toolCalls: JsonObject[] = [];
  const onEvent = (event: PlannerEvent) => {
    eventLog?.write(event);
    if (event.type !== 'execution') return;
    toolCalls.push({
      turn: event.turn,
      callId: event.callId,
      requestId: event.requestId,
      toolName: event.toolName,
      status: event.result.status,
      modelContent: event.modelContent,
      modelBytes: event.modelContentBytes ?? new TextEncoder().encode(event.modelContent).byteLength,
      resultBytes: jsonByteLength(event.result),
      truncated: event.truncated !== null,
      result: event.result as unknown as JsonObject,
    });
  };
  try {
    const result = await runPlannerSession({
      question,
      targets: targets.map((target) => providerFor(target, deps)),
      executor: createExecutor({ registry, catalog, runner }),
      manifests: registry.manifests(),
      captures: catalog.list(),
      digestFor: (name) => registry.latest(name),
      settings: config.settings,
      clock: deps.clock,
      signal: controller.signal,
      onEvent,
      queues: queues.queues,
      queueFor: (toolName) => servers.queues.get(mcpTools.serverOf(toolName) ?? '') ?? DEFAULT_QUEUE,
      mcpServerFor: mcpTools.serverOf,
      ...(values['no-offline-repair'] ? {} : { repairer: repairInvocationOffline }),
    });
    io.stdout(`${printableResult({ ...result, toolCalls, mcpServers }, secrets)}\n`);
    return result.success ? EXIT.ok : EXIT.executionFailure;
  } finally {
    process.off('SIGINT', stop);
    deps.signal?.removeEventListener('abort', stop);
    threads.close();
    await servers.close();
    eventLog?.close();
  }
}

/** `--events FILE`: one redacted JSON line per planner event, written as it happens (a killed run keeps what it did). */
function openEventLog(path: string, secrets: ReadonlyArray<string>): { write(event: PlannerEvent): void; close(): void } {
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    throw new UsageError(`--events ${path}: cannot write: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    write: (event) => void writeSync(fd, `${redacted(JSON.stringify(event), secrets)}\n`),
    close: () => closeSync(fd),
  };
}
