// What the MCP page's Resources, Prompts and Notifications views show, read from a server's raw
// answers (issue 23). A server's answer is untrusted: sizes and JSON limits are checked before
// anything walks it, entries that are not what MCP says are named and skipped (the rest stay
// usable), and everything is turned into plain strings the page renders as text. Pure: no DOM,
// no SDK.

import {
  checkJsonLimits,
  describeMcpFailure,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  type McpFailure,
  type ToolError,
} from '../../../core/index.ts';

/** Largest answer the page reads, in UTF-8 bytes of its JSON (the tool results' limit in the core). */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** JSON-RPC's error codes for an unknown method and invalid parameters. */
const JSON_RPC_METHOD_NOT_FOUND = -32601;
const JSON_RPC_INVALID_PARAMS = -32602;
/** Most characters of one text shown on the page; the rest is counted, not dropped silently. */
export const MAX_SHOWN_CHARS = 100_000;
/** Most JSON nesting and nodes accepted in one answer (the tool results' limits would allow more than a page can show). */
const ANSWER_LIMITS = { maxDepth: 64, maxNodes: 200_000, maxObjectKeys: 10_000 };

export type Read<T> = { ok: true; value: T } | { ok: false; error: ToolError };

/** A listing entry that was not what MCP says, named by its position. */
export interface EntryProblem {
  index: number;
  message: string;
}

export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceTemplateEntry {
  uriTemplate: string;
  name: string;
  description?: string;
}

export interface ResourceList {
  resources: ResourceEntry[];
  problems: EntryProblem[];
  nextCursor?: string;
}

export interface TemplateList {
  templates: ResourceTemplateEntry[];
  problems: EntryProblem[];
  nextCursor?: string;
}

/** One item of a resource's contents, as text the page can show. */
export interface ResourceContentView {
  uri: string;
  mimeType: string | null;
  kind: 'text' | 'blob';
  /** The text (clipped to {@link MAX_SHOWN_CHARS}), or a description of the binary data. */
  shown: string;
  /** Characters (text) or bytes (blob) in full. */
  size: number;
  clipped: boolean;
}

export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface PromptEntry {
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgument[];
}

export interface PromptList {
  prompts: PromptEntry[];
  problems: EntryProblem[];
  nextCursor?: string;
}

export interface PromptMessageView {
  role: string;
  /** The message's content as text (images and binary resources described, not shown). */
  text: string;
}

export interface PromptView {
  description?: string;
  messages: PromptMessageView[];
}

function error(code: ToolError['code'], field: string, message: string): { ok: false; error: ToolError } {
  return { ok: false, error: { code, field, message } };
}

export function clipText(text: string, limit = MAX_SHOWN_CHARS): { shown: string; clipped: boolean } {
  return text.length <= limit ? { shown: text, clipped: false } : { shown: `${text.slice(0, limit)}… (${text.length - limit} more characters not shown)`, clipped: true };
}

const optionalString = (value: JsonValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/** The answer's size and shape before anything reads it: within the limits, an object. */
function checkedAnswer(method: string, raw: unknown, maxBytes: number): Read<JsonObject> {
  const limits = checkJsonLimits(raw, ANSWER_LIMITS);
  if (!limits.ok) return error('OUTPUT_SCHEMA_VIOLATION', '', `The server's answer to ${method} ${limits.violation.message}`);
  if (limits.measure.bytes > maxBytes) {
    return error('PAYLOAD_TOO_LARGE', '', `The server's answer to ${method} is ${limits.measure.bytes} bytes; the page reads at most ${maxBytes}`);
  }
  if (!isJsonObject(raw)) return error('OUTPUT_SCHEMA_VIOLATION', '', `The server answered ${method} with something that is not an object`);
  return { ok: true, value: raw };
}

/** The answer's array under `key`, or a coded error naming what is missing. */
function listedArray(method: string, raw: unknown, key: string): Read<{ items: JsonValue[]; nextCursor?: string }> {
  const answer = checkedAnswer(method, raw, MAX_ANSWER_BYTES);
  if (!answer.ok) return answer;
  const items = answer.value[key];
  if (!Array.isArray(items)) return error('OUTPUT_SCHEMA_VIOLATION', key, `The server answered ${method} without a "${key}" array`);
  const nextCursor = optionalString(answer.value.nextCursor);
  return { ok: true, value: { items, ...(nextCursor ? { nextCursor } : {}) } };
}

export function readResourceList(raw: unknown): Read<ResourceList> {
  const listed = listedArray('resources/list', raw, 'resources');
  if (!listed.ok) return listed;
  const resources: ResourceEntry[] = [];
  const problems: EntryProblem[] = [];
  listed.value.items.forEach((item, index) => {
    if (!isJsonObject(item) || typeof item.uri !== 'string' || item.uri === '') return problems.push({ index, message: 'has no "uri" string' });
    resources.push({
      uri: item.uri,
      name: optionalString(item.name) ?? item.uri,
      ...(optionalString(item.title) ? { title: item.title as string } : {}),
      ...(optionalString(item.description) ? { description: item.description as string } : {}),
      ...(optionalString(item.mimeType) ? { mimeType: item.mimeType as string } : {}),
    });
  });
  return { ok: true, value: { resources, problems, ...(listed.value.nextCursor ? { nextCursor: listed.value.nextCursor } : {}) } };
}

export function readTemplateList(raw: unknown): Read<TemplateList> {
  const listed = listedArray('resources/templates/list', raw, 'resourceTemplates');
  if (!listed.ok) return listed;
  const templates: ResourceTemplateEntry[] = [];
  const problems: EntryProblem[] = [];
  listed.value.items.forEach((item, index) => {
    if (!isJsonObject(item) || typeof item.uriTemplate !== 'string' || item.uriTemplate === '') return problems.push({ index, message: 'has no "uriTemplate" string' });
    templates.push({ uriTemplate: item.uriTemplate, name: optionalString(item.name) ?? item.uriTemplate, ...(optionalString(item.description) ? { description: item.description as string } : {}) });
  });
  return { ok: true, value: { templates, problems, ...(listed.value.nextCursor ? { nextCursor: listed.value.nextCursor } : {}) } };
}

/** Bytes a base64 string decodes to. */
function base64Bytes(text: string): number {
  const trimmed = text.replace(/\s+/g, '');
  const padding = trimmed.endsWith('==') ? 2 : trimmed.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((trimmed.length * 3) / 4) - padding);
}

/** A `resources/read` answer as views; a huge one is refused with `PAYLOAD_TOO_LARGE`, a long text clipped for display. */
export function readResourceContents(raw: unknown, maxBytes = MAX_ANSWER_BYTES): Read<ResourceContentView[]> {
  const answer = checkedAnswer('resources/read', raw, maxBytes);
  if (!answer.ok) return answer;
  const contents = answer.value.contents;
  if (!Array.isArray(contents)) return error('OUTPUT_SCHEMA_VIOLATION', 'contents', 'The server answered resources/read without a "contents" array');
  const views: ResourceContentView[] = [];
  for (const [index, item] of contents.entries()) {
    if (!isJsonObject(item)) return error('OUTPUT_SCHEMA_VIOLATION', `contents[${index}]`, `contents[${index}] is not an object`);
    const uri = optionalString(item.uri) ?? '';
    const mimeType = optionalString(item.mimeType) ?? null;
    if (typeof item.text === 'string') {
      const { shown, clipped } = clipText(item.text);
      views.push({ uri, mimeType, kind: 'text', shown, size: item.text.length, clipped });
    } else if (typeof item.blob === 'string') {
      const bytes = base64Bytes(item.blob);
      views.push({ uri, mimeType, kind: 'blob', shown: `Binary data, ${bytes} bytes${mimeType ? ` of ${mimeType}` : ''} (not shown)`, size: bytes, clipped: false });
    } else {
      return error('OUTPUT_SCHEMA_VIOLATION', `contents[${index}]`, `contents[${index}] has neither "text" nor "blob"`);
    }
  }
  return { ok: true, value: views };
}

export function readPromptList(raw: unknown): Read<PromptList> {
  const listed = listedArray('prompts/list', raw, 'prompts');
  if (!listed.ok) return listed;
  const prompts: PromptEntry[] = [];
  const problems: EntryProblem[] = [];
  listed.value.items.forEach((item, index) => {
    if (!isJsonObject(item) || typeof item.name !== 'string' || item.name === '') return problems.push({ index, message: 'has no "name" string' });
    const args = item.arguments === undefined ? [] : item.arguments;
    if (!Array.isArray(args) || !args.every((arg) => isJsonObject(arg) && typeof arg.name === 'string' && arg.name !== '')) {
      return problems.push({ index, message: `${JSON.stringify(item.name)}: "arguments" must be a list of {name, description?, required?}` });
    }
    prompts.push({
      name: item.name,
      ...(optionalString(item.title) ? { title: item.title as string } : {}),
      ...(optionalString(item.description) ? { description: item.description as string } : {}),
      arguments: (args as JsonObject[]).map((arg) => ({ name: arg.name as string, required: arg.required === true, ...(optionalString(arg.description) ? { description: arg.description as string } : {}) })),
    });
  });
  return { ok: true, value: { prompts, problems, ...(listed.value.nextCursor ? { nextCursor: listed.value.nextCursor } : {}) } };
}

/**
 * The arguments to send with `prompts/get` (empty optional ones left out), or one coded error per
 * missing required argument: nothing is sent then.
 */
export function promptArguments(prompt: PromptEntry, values: Readonly<Record<string, string>>): { ok: true; value: Record<string, string> } | { ok: false; errors: ToolError[] } {
  const errors: ToolError[] = prompt.arguments
    .filter((arg) => arg.required && (values[arg.name] ?? '') === '')
    .map((arg) => ({ code: 'MISSING_REQUIRED_ARGUMENT', field: `arguments.${arg.name}`, message: `${prompt.name} needs ${arg.name}` }));
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: Object.fromEntries(prompt.arguments.filter((arg) => (values[arg.name] ?? '') !== '').map((arg) => [arg.name, values[arg.name]])) };
}

/** One content block of a prompt message (or a tool result) as text. */
export function contentBlockText(block: JsonValue): string {
  if (!isJsonObject(block)) return '(a content block that is not an object)';
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '(a text block without text)';
    case 'image':
    case 'audio':
      return `(${block.type}${typeof block.mimeType === 'string' ? `, ${block.mimeType}` : ''}${typeof block.data === 'string' ? `, ${base64Bytes(block.data)} bytes` : ''})`;
    case 'resource': {
      const resource = isJsonObject(block.resource) ? block.resource : {};
      const uri = typeof resource.uri === 'string' ? resource.uri : '(no uri)';
      return typeof resource.text === 'string' ? `(resource ${uri})\n${resource.text}` : `(resource ${uri}, binary)`;
    }
    case 'resource_link':
      return `(link to resource ${typeof block.uri === 'string' ? block.uri : '(no uri)'})`;
    default:
      return `(a ${typeof block.type === 'string' ? JSON.stringify(block.type) : 'untyped'} content block)`;
  }
}

export function readPromptMessages(raw: unknown): Read<PromptView> {
  const answer = checkedAnswer('prompts/get', raw, MAX_ANSWER_BYTES);
  if (!answer.ok) return answer;
  const messages = answer.value.messages;
  if (!Array.isArray(messages)) return error('OUTPUT_SCHEMA_VIOLATION', 'messages', 'The server answered prompts/get without a "messages" array');
  const views: PromptMessageView[] = [];
  for (const [index, message] of messages.entries()) {
    if (!isJsonObject(message) || typeof message.role !== 'string') return error('OUTPUT_SCHEMA_VIOLATION', `messages[${index}]`, `messages[${index}] has no "role"`);
    const blocks = Array.isArray(message.content) ? message.content : message.content === undefined ? [] : [message.content];
    views.push({ role: message.role, text: clipText(blocks.map(contentBlockText).join('\n')).shown });
  }
  const description = optionalString(answer.value.description);
  return { ok: true, value: { messages: views, ...(description ? { description } : {}) } };
}

/** A failed request as a coded error that says what happened. */
export function requestError(method: string, failure: McpFailure): ToolError {
  if (failure.kind === 'rpc-error' && failure.code === JSON_RPC_METHOD_NOT_FOUND) {
    return { code: 'EXECUTION_ERROR', field: '', message: `The server does not offer ${method} (JSON-RPC ${failure.code}: ${clipText(failure.message, 500).shown})` };
  }
  if (failure.kind === 'rpc-error' && failure.code === JSON_RPC_INVALID_PARAMS) {
    return { code: 'INVALID_VALUE', field: 'arguments', message: `The server refused the parameters of ${method} (JSON-RPC ${failure.code}): ${clipText(failure.message, 500).shown}` };
  }
  if (failure.kind === 'timeout') return { code: 'TIMEOUT', field: '', message: `No answer to ${method} within ${failure.timeoutMs} ms; the request was cancelled` };
  return { code: 'EXECUTION_ERROR', field: '', message: `${method}: ${describeMcpFailure(failure)}` };
}

// ---------------------------------------------------------------------------------------------
// Notifications

/** MCP's logging levels (RFC 5424's), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** A server notification as the pane shows it. */
export interface NotificationEntry {
  /** Position in this page's log, from 1 (a stable React key). */
  seq: number;
  /** When it arrived, ISO 8601. */
  at: string;
  method: string;
  /** Logging messages' level; null for other notifications (shown at every filter level). */
  level: LogLevel | null;
  text: string;
}

const NOTIFICATION_TEXT_CHARS = 4000;

const LIST_CHANGED: Record<string, string> = {
  'notifications/tools/list_changed': "The server's tool list changed (reconnect to list it again)",
  'notifications/resources/list_changed': "The server's resource list changed",
  'notifications/prompts/list_changed': "The server's prompt list changed",
};

/** A notification's text and level; `params` is whatever the server sent. */
export function describeNotification(method: string, params: unknown): Pick<NotificationEntry, 'method' | 'level' | 'text'> {
  const fields = isJsonObject(params) ? params : {};
  if (method === 'notifications/message') {
    const level = isLogLevel(fields.level) ? fields.level : null;
    const data = fields.data;
    const body = typeof data === 'string' ? data : JSON.stringify(data ?? null) ?? '';
    const logger = typeof fields.logger === 'string' ? `[${fields.logger}] ` : '';
    return { method, level, text: clipText(`${logger}${body}`, NOTIFICATION_TEXT_CHARS).shown };
  }
  if (method in LIST_CHANGED) return { method, level: null, text: LIST_CHANGED[method] };
  if (method === 'notifications/resources/updated') return { method, level: null, text: `Resource updated: ${typeof fields.uri === 'string' ? fields.uri : '(no uri)'}` };
  const json = JSON.stringify(params ?? {}) ?? '';
  return { method, level: null, text: clipText(json, NOTIFICATION_TEXT_CHARS).shown };
}

/** A progress notification of a call made from the page. */
export function describeProgress(toolName: string, progress: number, total: number | undefined): Pick<NotificationEntry, 'method' | 'level' | 'text'> {
  return { method: 'notifications/progress', level: null, text: `${toolName}: progress ${progress}${total === undefined ? '' : ` of ${total}`}` };
}

/** Whether an entry passes the pane's level filter (entries without a level always do). */
export function passesLevel(entry: Pick<NotificationEntry, 'level'>, minimum: LogLevel): boolean {
  return entry.level === null || LOG_LEVELS.indexOf(entry.level) >= LOG_LEVELS.indexOf(minimum);
}
