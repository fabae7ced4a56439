import { isJsonObject, type JsonValue } from '../util/json.ts';
import { own } from './json-value.ts';
import { defaultCapability, defaultSecurity, type ToolCapability, type ToolSecurity } from './types.ts';

// Words that name an action, by the action they stand for. Whole words only: "target" is not "get".
const ACTION_WORDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['delete', ['delete', 'remove', 'drop', 'destroy', 'erase', 'purge', 'unlink']],
  ['write', ['write', 'create', 'update', 'set', 'save', 'put', 'post', 'insert', 'upload', 'add', 'edit', 'modify', 'append', 'rename', 'move']],
  ['send', ['send', 'notify', 'publish', 'email', 'message', 'reply', 'forward']],
  ['search', ['search', 'find', 'lookup', 'locate']],
  ['list', ['list', 'enumerate', 'browse']],
  ['query', ['query', 'select', 'filter', 'count']],
  ['fetch', ['fetch', 'download', 'retrieve', 'pull']],
  ['read', ['read', 'get', 'load', 'open', 'show', 'view', 'describe', 'inspect', 'check']],
  ['call', ['call', 'invoke', 'run', 'execute', 'trigger', 'start']],
  ['compute', ['compute', 'calculate', 'analyze', 'analyse', 'estimate', 'infer', 'classify', 'summarize', 'convert', 'translate', 'fit']],
];

const SIDE_EFFECT_ACTIONS: ReadonlySet<string> = new Set(['delete', 'write', 'send']);

const DOMAIN_WORDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['filesystem', ['file', 'files', 'directory', 'directories', 'folder', 'folders', 'filesystem', 'path', 'paths']],
  ['database', ['database', 'databases', 'db', 'sql', 'table', 'tables', 'record', 'records', 'row', 'rows']],
  ['email', ['email', 'emails', 'mail', 'inbox', 'smtp', 'imap']],
  ['code', ['code', 'repository', 'repo', 'git', 'commit', 'script', 'compile']],
  ['web', ['web', 'url', 'urls', 'http', 'https', 'website', 'webpage', 'page', 'internet', 'api', 'online']],
];

/** Lowercase words of an identifier or sentence: `getWeather_now` → `get weather now`. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

function firstMatch(tokens: readonly string[], table: ReadonlyArray<readonly [string, readonly string[]]>): string | undefined {
  for (const token of tokens) {
    for (const [label, vocabulary] of table) if (vocabulary.includes(token)) return label;
  }
  return undefined;
}

/**
 * Guesses capability metadata from a tool's name and description, word by word: the action from
 * the first action word of the name (else of the description), the domain from the first domain
 * word, side effects when the action writes, deletes or sends. Unknown stays `""`; cost is
 * `"unknown"`. A heuristic for drafts, not a claim: `toManifest` flags what it derives from it.
 */
export function inferCapabilities(name: string, description: string): ToolCapability {
  const nameWords = words(name);
  const descriptionWords = words(description);
  const action = firstMatch(nameWords, ACTION_WORDS) ?? firstMatch(descriptionWords, ACTION_WORDS) ?? '';
  const domain = firstMatch([...nameWords, ...descriptionWords], DOMAIN_WORDS) ?? (action === '' ? '' : 'general');
  const sideEffects = SIDE_EFFECT_ACTIONS.has(action);
  return { ...defaultCapability(), action, domain, side_effects: sideEffects, idempotent: !sideEffects };
}

/** Reads a capability object (an `x-capabilities` extension); missing or mistyped fields take their defaults. */
export function readCapability(value: JsonValue | undefined): ToolCapability {
  const capability = defaultCapability();
  if (!isJsonObject(value)) return capability;
  const action = own(value, 'action');
  const domain = own(value, 'domain');
  const sideEffects = own(value, 'side_effects');
  const idempotent = own(value, 'idempotent');
  const cost = own(value, 'cost_estimate');
  if (typeof action === 'string') capability.action = action;
  if (typeof domain === 'string') capability.domain = domain;
  if (typeof sideEffects === 'boolean') capability.side_effects = sideEffects;
  if (typeof idempotent === 'boolean') capability.idempotent = idempotent;
  if (typeof cost === 'string') capability.cost_estimate = cost;
  return capability;
}

/** Reads a security object (an `x-security` extension); missing or mistyped fields take their defaults. */
export function readSecurity(value: JsonValue | undefined): ToolSecurity | null {
  if (!isJsonObject(value)) return null;
  const security = defaultSecurity();
  const permissions = own(value, 'required_permissions');
  const classification = own(value, 'data_classification');
  const pii = own(value, 'pii_handling');
  if (Array.isArray(permissions)) security.required_permissions = permissions.filter((item): item is string => typeof item === 'string');
  if (typeof classification === 'string') security.data_classification = classification;
  if (typeof pii === 'string') security.pii_handling = pii;
  return security;
}

