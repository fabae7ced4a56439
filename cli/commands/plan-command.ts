import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  QueueSet,
  timerClock,
  CaptureCatalog,
  ToolRegistry,
  builtinCaptures,
  builtinTools,
  createExecutor,
  createHttpProvider,
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

export const PLAN_USAGE = `Usage:
  sextant plan --prompt TEXT [--config FILE] [--provider SPEC]... [--test-tools] [--no-offline-repair]

Runs a planner session and prints its result as JSON on stdout: success, error, finalReport
(status, format, content, ts, metadata), conversation, accounting, and toolCalls (per call:
what the model received, modelContent and modelBytes, next to the full result and resultBytes).

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
                  reportFormat, providers, apiKeys; \${VAR} expands from the environment.
                  Key safety: ./.sextant.json and ~/.sextant/sextant.json may not change an
                  openai or anthropic baseUrl, and expand \${VAR} only in those API keys
--test-tools      installs the diagnostic test_echo tool
--no-offline-repair  sends every failed invocation back to the model

Exit codes: 0 success; 1 session failure; 4 bad arguments or configuration.`;

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
export function printableResult(result: PlannerSessionResult & { toolCalls?: JsonObject[] }, secrets: ReadonlyArray<string>): string {
  let text = JSON.stringify(result, null, 2);
  for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join('[redacted]');
  return text;
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

  const registry = new ToolRegistry(builtinTools({ testTools }));
  const catalog = new CaptureCatalog(builtinCaptures());
  const runner = new ThreadRunner({ testTools, captures: [] });
  const controller = new AbortController();
  const stop = () => controller.abort();
  deps.signal?.addEventListener('abort', stop, { once: true });
  process.once('SIGINT', stop);
  // Queues and their bindings are checked before anything starts (agent-contract.md §7).
  const queues = QueueSet.create(config.queues, [], { defaultConcurrent: 1, now: deps.clock.now });
  if (!queues.ok) {
    io.stderr(`sextant plan: ${queues.message}\n`);
    return EXIT.badArguments;
  }
  // Per tool call, what the model received (the digest, its size) next to the full result.
  const toolCalls: JsonObject[] = [];
  const onEvent = (event: PlannerEvent) => {
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
      ...(values['no-offline-repair'] ? {} : { repairer: repairInvocationOffline }),
    });
    const secrets = [...targets.map((target) => target.apiKey ?? ''), ...Object.values(config.apiKeys)];
    io.stdout(`${printableResult({ ...result, toolCalls }, secrets)}\n`);
    return result.success ? EXIT.ok : EXIT.executionFailure;
  } finally {
    process.off('SIGINT', stop);
    deps.signal?.removeEventListener('abort', stop);
    runner.close();
  }
}
