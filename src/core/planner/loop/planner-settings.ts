import type { ProviderKind, ProviderTarget } from '../provider-types.ts';
import { isJsonObject, type JsonObject } from '../../util/json.ts';
import { checkMcpServers, type McpServerConfig } from '../../mcp/mcp-server-config.ts';

/** How tool calls travel (agent-contract.md §11). */
export type PlannerTransport = 'native' | 'xml' | 'xml-final';

export const PLANNER_TRANSPORTS: readonly PlannerTransport[] = ['native', 'xml', 'xml-final'];

/** The format the final report must have (the tool schema pins it with `const`). */
export type ReportFormat = 'markdown' | 'text' | 'json';

export const REPORT_FORMATS: readonly ReportFormat[] = ['markdown', 'text', 'json'];

/** The agent contract's tunables (settled decision 9): every one holds exactly as written. */
export interface PlannerSettings {
  /** Most LLM request/response cycles (each with its tool phase) in a session. */
  maxTurns: number;
  /** Most LLM attempts per turn, first attempt included; attempts cycle through the targets. */
  maxRetries: number;
  /** Most tool calls executed per turn; excess calls are dropped and the model told. */
  maxToolCallsPerTurn: number;
  /** Milliseconds after which a tool execution is aborted; also the `timeout_ms` filled in when the model leaves it out. */
  toolTimeout: number;
  /** Milliseconds an LLM request may take in all, streaming included, counted from the request; then it fails as `timeout` and is retried. */
  llmTimeout: number;
  /** Milliseconds an LLM request may go without a stream event (keep-alive comments do not count), the wait for the answer's headers included. */
  llmIdleTimeout: number;
  /** Most bytes of one LLM answer's body read; a longer answer is dropped unread and retried (an endless stream is never kept whole). */
  llmResponseMaxBytes: number;
  /** Largest tool response, in UTF-8 bytes, that reaches the model (the truncation notice included). */
  toolResponseMaxBytes: number;
  /** Model capacity in tokens when the target does not say; null: the per-provider default. */
  contextWindow: number | null;
  /** Safety margin subtracted from the context window, in tokens. */
  contextWindowBufferTokens: number;
  /** Tokens reserved for the model's reply (and sent as its output limit). */
  maxOutputTokens: number;
  transport: PlannerTransport;
  /** Format of the final report. */
  reportFormat: ReportFormat;
}

export const DEFAULT_PLANNER_SETTINGS: Readonly<PlannerSettings> = Object.freeze({
  maxTurns: 10,
  maxRetries: 3,
  maxToolCallsPerTurn: 10,
  toolTimeout: 60_000,
  llmTimeout: 600_000,
  llmIdleTimeout: 120_000,
  llmResponseMaxBytes: 8 * 1024 * 1024,
  toolResponseMaxBytes: 16_384,
  contextWindow: null,
  contextWindowBufferTokens: 1_024,
  maxOutputTokens: 4_096,
  transport: 'native',
  reportFormat: 'markdown',
});

/** Context windows assumed when neither the target nor the settings give one. */
export const DEFAULT_CONTEXT_WINDOWS: Readonly<Record<ProviderKind, number>> = Object.freeze({
  openai: 128_000,
  anthropic: 200_000,
  'openai-compatible': 32_768,
  scripted: 128_000,
});

/**
 * The smallest tool response limit accepted: one that always holds the whole truncation notice
 * (54 bytes of text, X's digits — a JS string is under 2^31 UTF-8 bytes, so at most 10 — and Y's,
 * at most 3 here) with room for the content's first bytes. A smaller limit cannot give the model
 * the notice agent-contract.md §1 requires, and a cut notice says nothing true (issue 24).
 */
export const MIN_TOOL_RESPONSE_MAX_BYTES = 128;

/** One configuration layer, lowest priority first when passed to `resolvePlannerConfig`. */
export interface PlannerConfigLayer {
  /** Named in errors: `defaults`, `workspace`, `run`, `~/.sextant/sextant.json`, `--config ./x.json`. */
  name: string;
  /** The layer's JSON (already parsed). */
  values: unknown;
  /** Variables of this layer (checked before the shared environment). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * False for a layer found by location rather than named by the user (the working directory's
   * `./.sextant.json`, the home file): it may not point a hosted provider's key at another host,
   * and `${VAR}` expands in it only inside hosted providers' API keys. Default true.
   */
  trusted?: boolean;
  /**
   * False for the working directory's `./.sextant.json`: `mcpServers` there would start a program
   * (or send the session's tool calls to a server) chosen by whoever wrote the directory, so it is
   * refused (`UNTRUSTED_SETTING`). Default true.
   */
  mcpServersAllowed?: boolean;
}

/** A provider target as a configuration file writes it. */
export interface ConfiguredTarget {
  provider: ProviderKind;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  contextWindow?: number;
  temperature?: number;
  label?: string;
}

/** Everything the layers settle: the settings, the configured targets, and API keys by provider. */
export interface PlannerConfig {
  settings: PlannerSettings;
  /** From the highest layer that lists any (a list replaces a lower one, it is not merged). */
  providers: ConfiguredTarget[];
  /** Keys by provider kind, merged across layers. Secrets: never print them. */
  apiKeys: Partial<Record<ProviderKind, string>>;
  /** `queues.<name>.concurrent` (agent-contract.md §1), merged across layers by name. */
  queues: Record<string, { concurrent: number }>;
  /** `mcpServers.<name>` (agent-contract.md §7), merged across layers by name (a higher layer's entry replaces a lower one's). */
  mcpServers: Record<string, McpServerConfig>;
}

export type PlannerConfigErrorCode = 'MISSING_VARIABLE' | 'INVALID_SETTING' | 'UNKNOWN_SETTING' | 'INVALID_LAYER' | 'UNTRUSTED_SETTING';

/** Why the configuration cannot be used; `layer` names where the problem is. */
export interface PlannerConfigError {
  code: PlannerConfigErrorCode;
  layer: string;
  /** Dotted path inside the layer (`maxTurns`, `providers[0].apiKey`). */
  field: string;
  message: string;
}

type SettingCheck = (value: unknown) => string | null;

const positiveInteger: SettingCheck = (value) => (Number.isInteger(value) && (value as number) >= 1 ? null : 'must be an integer >= 1');
const nonNegativeInteger: SettingCheck = (value) => (Number.isInteger(value) && (value as number) >= 0 ? null : 'must be an integer >= 0');
const oneOf =
  (allowed: readonly string[]): SettingCheck =>
  (value) =>
    typeof value === 'string' && allowed.includes(value) ? null : `must be one of ${allowed.join(', ')}`;

const SETTING_CHECKS: Record<keyof PlannerSettings, SettingCheck> = {
  maxTurns: positiveInteger,
  maxRetries: positiveInteger,
  maxToolCallsPerTurn: positiveInteger,
  toolTimeout: positiveInteger,
  llmTimeout: positiveInteger,
  llmIdleTimeout: positiveInteger,
  llmResponseMaxBytes: positiveInteger,
  toolResponseMaxBytes: (value) =>
    Number.isInteger(value) && (value as number) >= MIN_TOOL_RESPONSE_MAX_BYTES
      ? null
      : `must be an integer >= ${MIN_TOOL_RESPONSE_MAX_BYTES} (room for the whole [TRUNCATED] notice and the start of the response)`,
  contextWindow: (value) => (value === null ? null : positiveInteger(value)),
  contextWindowBufferTokens: nonNegativeInteger,
  maxOutputTokens: positiveInteger,
  transport: oneOf(PLANNER_TRANSPORTS),
  reportFormat: oneOf(REPORT_FORMATS),
};

const PROVIDER_KINDS: readonly ProviderKind[] = ['openai', 'anthropic', 'openai-compatible', 'scripted'];
const TARGET_FIELDS = new Set(['provider', 'model', 'baseUrl', 'apiKey', 'contextWindow', 'temperature', 'label']);
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A layer's keys that are not settings: each is checked by its own reader in `resolvePlannerConfig`. */
const LAYER_SECTIONS: ReadonlySet<string> = new Set(['providers', 'apiKeys', 'queues', 'mcpServers']);

/** Checks a partial settings object (a run's overrides, a workspace's settings); `layer` names it in errors. */
export function checkPlannerSettings(values: unknown, layer: string): { ok: true; value: Partial<PlannerSettings> } | { ok: false; error: PlannerConfigError } {
  if (!isJsonObject(values)) return { ok: false, error: { code: 'INVALID_LAYER', layer, field: '', message: `Layer '${layer}' must be a JSON object` } };
  const settings: Partial<Record<keyof PlannerSettings, unknown>> = {};
  for (const [key, value] of Object.entries(values)) {
    if (LAYER_SECTIONS.has(key)) continue;
    if (!Object.hasOwn(SETTING_CHECKS, key)) {
      const known = [...Object.keys(SETTING_CHECKS), ...LAYER_SECTIONS].join(', ');
      return { ok: false, error: { code: 'UNKNOWN_SETTING', layer, field: key, message: `Layer '${layer}': unknown setting '${key}'; known: ${known}` } };
    }
    const problem = SETTING_CHECKS[key as keyof PlannerSettings](value);
    if (problem) {
      return { ok: false, error: { code: 'INVALID_SETTING', layer, field: key, message: `Layer '${layer}': ${key} ${problem}, got ${JSON.stringify(value)}` } };
    }
    settings[key as keyof PlannerSettings] = value;
  }
  // Each value was checked against its setting's rule just above.
  return { ok: true, value: settings as Partial<PlannerSettings> };
}

/**
 * Replaces every `${VAR}` in every string of `value` from `env`, then `fallback`. A variable set
 * in neither is an error naming the layer and the field, so a missing key is found before any
 * request is sent.
 */
export function expandVariables(
  value: unknown,
  layer: string,
  env: Readonly<Record<string, string | undefined>>,
  fallback: Readonly<Record<string, string | undefined>> = {},
  path = '',
): { ok: true; value: unknown } | { ok: false; error: PlannerConfigError } {
  if (typeof value === 'string') {
    let missing: string | null = null;
    const expanded = value.replace(VARIABLE, (_match, name: string) => {
      const found = env[name] ?? fallback[name];
      if (found === undefined) missing ??= name;
      return found ?? '';
    });
    if (missing !== null) {
      return {
        ok: false,
        error: { code: 'MISSING_VARIABLE', layer, field: path, message: `Layer '${layer}': \${${missing}} in ${path || 'the layer'} is not set` },
      };
    }
    return { ok: true, value: expanded };
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [index, item] of value.entries()) {
      const expanded = expandVariables(item, layer, env, fallback, `${path}[${index}]`);
      if (!expanded.ok) return expanded;
      out.push(expanded.value);
    }
    return { ok: true, value: out };
  }
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const expanded = expandVariables(item, layer, env, fallback, path ? `${path}.${key}` : key);
      if (!expanded.ok) return expanded;
      out[key] = expanded.value;
    }
    return { ok: true, value: out };
  }
  return { ok: true, value };
}

function checkTargets(value: unknown, layer: string): { ok: true; value: ConfiguredTarget[] } | { ok: false; error: PlannerConfigError } {
  const fail = (field: string, message: string) => ({ ok: false as const, error: { code: 'INVALID_SETTING' as const, layer, field, message: `Layer '${layer}': ${field} ${message}` } });
  if (!Array.isArray(value)) return fail('providers', 'must be an array of {provider, model, ...}');
  const targets: ConfiguredTarget[] = [];
  for (const [index, item] of value.entries()) {
    const field = `providers[${index}]`;
    if (!isJsonObject(item)) return fail(field, 'must be an object');
    const unknown = Object.keys(item).find((key) => !TARGET_FIELDS.has(key));
    if (unknown) return fail(`${field}.${unknown}`, `is not a target field; known: ${[...TARGET_FIELDS].join(', ')}`);
    if (typeof item.provider !== 'string' || !PROVIDER_KINDS.includes(item.provider as ProviderKind)) {
      return fail(`${field}.provider`, `must be one of ${PROVIDER_KINDS.join(', ')}`);
    }
    if (typeof item.model !== 'string' || item.model.trim() === '') return fail(`${field}.model`, 'must be a non-empty string');
    for (const key of ['baseUrl', 'apiKey', 'label'] as const) {
      if (item[key] !== undefined && typeof item[key] !== 'string') return fail(`${field}.${key}`, 'must be a string');
    }
    if (item.contextWindow !== undefined && positiveInteger(item.contextWindow)) return fail(`${field}.contextWindow`, 'must be an integer >= 1');
    if (item.temperature !== undefined && typeof item.temperature !== 'number') return fail(`${field}.temperature`, 'must be a number');
    // Every field was checked above.
    targets.push(item as unknown as ConfiguredTarget);
  }
  return { ok: true, value: targets };
}

function checkApiKeys(value: unknown, layer: string): { ok: true; value: Partial<Record<ProviderKind, string>> } | { ok: false; error: PlannerConfigError } {
  if (!isJsonObject(value)) return { ok: false, error: { code: 'INVALID_SETTING', layer, field: 'apiKeys', message: `Layer '${layer}': apiKeys must be an object of provider → key` } };
  const keys: Partial<Record<ProviderKind, string>> = {};
  for (const [kind, key] of Object.entries(value)) {
    if (!PROVIDER_KINDS.includes(kind as ProviderKind) || typeof key !== 'string') {
      return { ok: false, error: { code: 'INVALID_SETTING', layer, field: `apiKeys.${kind}`, message: `Layer '${layer}': apiKeys.${kind} must be a string key of one of ${PROVIDER_KINDS.join(', ')}` } };
    }
    keys[kind as ProviderKind] = key;
  }
  return { ok: true, value: keys };
}

/** The official endpoints of the hosted providers: their keys go nowhere else unless the user names another. */
const OFFICIAL_ORIGINS: Readonly<Record<'openai' | 'anthropic', string>> = { openai: 'https://api.openai.com', anthropic: 'https://api.anthropic.com' };

function isHosted(kind: unknown): kind is 'openai' | 'anthropic' {
  return kind === 'openai' || kind === 'anthropic';
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Key safety for a layer the user did not name (agent-contract keys, issue 12): a hosted provider's
 * `baseUrl` may only be its official endpoint, and `${VAR}` may appear only in a hosted provider's
 * API key (which then goes only to that endpoint). Anything else could carry `OPENAI_API_KEY` or any
 * other secret of the environment to a host the directory's author chose.
 */
function checkUntrustedLayer(values: unknown, layer: string): PlannerConfigError | null {
  const refuse = (field: string, message: string): PlannerConfigError => ({ code: 'UNTRUSTED_SETTING', layer, field, message: `Layer '${layer}': ${field} ${message}` });
  const onlyFrom = 'only --provider on the command line or an explicit --config FILE may set it';
  const hasVariable = (value: unknown) => typeof value === 'string' && /\$\{/.test(value);
  const walk = (value: unknown, path: string, allowed: (path: string) => boolean): PlannerConfigError | null => {
    if (hasVariable(value) && !allowed(path)) return refuse(path, `uses \${...}, which this layer may not expand outside a hosted provider's API key; ${onlyFrom}`);
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        const problem = walk(item, `${path}[${index}]`, allowed);
        if (problem) return problem;
      }
    } else if (isJsonObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        const problem = walk(item, path ? `${path}.${key}` : key, allowed);
        if (problem) return problem;
      }
    }
    return null;
  };
  if (!isJsonObject(values)) return null;
  const providers = Array.isArray(values.providers) ? values.providers : [];
  for (const [index, item] of providers.entries()) {
    if (!isJsonObject(item) || !isHosted(item.provider) || item.baseUrl === undefined) continue;
    const origin = typeof item.baseUrl === 'string' && !hasVariable(item.baseUrl) ? originOf(item.baseUrl) : null;
    if (origin !== OFFICIAL_ORIGINS[item.provider]) {
      return refuse(
        `providers[${index}].baseUrl`,
        `sends the ${item.provider} API key to ${JSON.stringify(item.baseUrl)} instead of ${OFFICIAL_ORIGINS[item.provider]}; ${onlyFrom}`,
      );
    }
  }
  return walk(values, '', (path) => {
    if (path === 'apiKeys.openai' || path === 'apiKeys.anthropic') return true;
    // Never expanded (agent-contract.md §7), so a `${...}` there carries nothing out of the environment.
    if (/^mcpServers\.[^.]+\.(env|headers)\./.test(path)) return true;
    const match = /^providers\[(\d+)\]\.apiKey$/.exec(path);
    return match !== null && isJsonObject(providers[Number(match[1])]) && isHosted((providers[Number(match[1])] as JsonObject).provider);
  });
}

/**
 * Layers the configuration, lowest priority first: built-in defaults < each layer in order
 * (in the app: workspace < run; on the command line: `~/.sextant/sextant.json` <
 * `./.sextant.json` < `--config`). A key in a higher layer replaces the lower one; `apiKeys`
 * merge by provider; a `providers` list replaces a lower list. `${VAR}` placeholders expand
 * from the layer's own variables, then `env`.
 */
export function resolvePlannerConfig(
  layers: ReadonlyArray<PlannerConfigLayer>,
  env: Readonly<Record<string, string | undefined>> = {},
): { ok: true; value: PlannerConfig } | { ok: false; error: PlannerConfigError } {
  const config: PlannerConfig = { settings: { ...DEFAULT_PLANNER_SETTINGS }, providers: [], apiKeys: {}, queues: {}, mcpServers: {} };
  for (const layer of layers) {
    if (layer.trusted === false) {
      const problem = checkUntrustedLayer(layer.values, layer.name);
      if (problem) return { ok: false, error: problem };
    }
    const expanded = expandLayer(layer, env);
    if (!expanded.ok) return expanded;
    const checked = checkPlannerSettings(expanded.value, layer.name);
    if (!checked.ok) return checked;
    Object.assign(config.settings, checked.value);
    const values = expanded.value as Record<string, unknown>;
    if (values.providers !== undefined) {
      const targets = checkTargets(values.providers, layer.name);
      if (!targets.ok) return targets;
      config.providers = targets.value;
    }
    if (values.apiKeys !== undefined) {
      const keys = checkApiKeys(values.apiKeys, layer.name);
      if (!keys.ok) return keys;
      Object.assign(config.apiKeys, keys.value);
    }
    if (values.queues !== undefined) {
      const queues = checkQueues(values.queues, layer.name);
      if (!queues.ok) return queues;
      Object.assign(config.queues, queues.value);
    }
    if (values.mcpServers !== undefined) {
      if (layer.mcpServersAllowed === false) {
        const message =
          `Layer '${layer.name}': mcpServers would start programs or send tool calls to servers chosen by whoever wrote this directory; ` +
          'put them in ~/.sextant/sextant.json or name the file with --config';
        return { ok: false, error: { code: 'UNTRUSTED_SETTING', layer: layer.name, field: 'mcpServers', message } };
      }
      const servers = checkMcpServers(values.mcpServers);
      if (!servers.ok) {
        const { field, message } = servers.problem;
        return { ok: false, error: { code: 'INVALID_SETTING', layer: layer.name, field, message: `Layer '${layer.name}': ${field} ${message}` } };
      }
      Object.assign(config.mcpServers, servers.value);
    }
  }
  return { ok: true, value: config };
}

/**
 * A layer with `${VAR}` expanded everywhere except `mcpServers.*.env` and `mcpServers.*.headers`,
 * which pass to the server as written (agent-contract.md §7).
 */
function expandLayer(layer: PlannerConfigLayer, env: Readonly<Record<string, string | undefined>>): { ok: true; value: unknown } | { ok: false; error: PlannerConfigError } {
  const values = layer.values;
  if (!isJsonObject(values) || !isJsonObject(values.mcpServers)) return expandVariables(values, layer.name, layer.env ?? {}, env);
  const { mcpServers, ...rest } = values;
  const expanded = expandVariables(rest, layer.name, layer.env ?? {}, env);
  if (!expanded.ok) return expanded;
  const servers: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(mcpServers)) {
    if (!isJsonObject(entry)) {
      servers[name] = entry;
      continue;
    }
    const { env: serverEnv, headers, ...fields } = entry;
    const expandedFields = expandVariables(fields, layer.name, layer.env ?? {}, env, `mcpServers.${name}`);
    if (!expandedFields.ok) return expandedFields;
    servers[name] = { ...(expandedFields.value as JsonObject), ...(serverEnv === undefined ? {} : { env: serverEnv }), ...(headers === undefined ? {} : { headers }) };
  }
  return { ok: true, value: { ...(expanded.value as JsonObject), mcpServers: servers } };
}

/** `queues`: an object of queue name → `{ concurrent }`, each bound an integer >= 1. */
function checkQueues(value: unknown, layer: string): { ok: true; value: Record<string, { concurrent: number }> } | { ok: false; error: PlannerConfigError } {
  const fail = (field: string, message: string) => ({ ok: false as const, error: { code: 'INVALID_SETTING' as const, layer, field, message: `Layer '${layer}': ${field} ${message}` } });
  if (!isJsonObject(value)) return fail('queues', 'must be an object of queue name → { "concurrent": N }');
  const queues: Record<string, { concurrent: number }> = {};
  for (const [name, entry] of Object.entries(value)) {
    if (!isJsonObject(entry) || Object.keys(entry).some((key) => key !== 'concurrent')) return fail(`queues.${name}`, 'must be { "concurrent": N }');
    if (positiveInteger(entry.concurrent) !== null) return fail(`queues.${name}.concurrent`, 'must be an integer >= 1');
    queues[name] = { concurrent: entry.concurrent as number };
  }
  return { ok: true, value: queues };
}

/** The settings with `overrides` on top of the defaults (throws nothing; unchecked values are the caller's). */
export function plannerSettingsWith(overrides: Partial<PlannerSettings> = {}): PlannerSettings {
  return { ...DEFAULT_PLANNER_SETTINGS, ...overrides };
}

/** The context window the guard uses for a target: the target's own, else the settings', else the provider default. */
export function contextWindowFor(target: ProviderTarget, settings: PlannerSettings): number {
  return target.contextWindow ?? settings.contextWindow ?? DEFAULT_CONTEXT_WINDOWS[target.provider];
}
