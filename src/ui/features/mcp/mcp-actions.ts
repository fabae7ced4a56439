// What the MCP page's buttons do: each is one core call over the server's live connection.

import {
  callMcpTool,
  canonicalize,
  checkMcpTool,
  mcpCheckCases,
  safeParseJson,
  toManifest,
  toolResultFromFailure,
  type McpCallRecord,
  type McpCheckRow,
  type McpToolDefinition,
  type ReviewItem,
  type ToolError,
} from '../../../core/index.ts';
import { getMcpServers, type InspectorMethod, type McpServerState } from '../../lib/runtime/mcp-servers.ts';
import { getMcpHistory, type McpHistoryEntry } from '../../lib/runtime/mcp-history.ts';
import { rerunRefusal } from '../../lib/runtime/mcp-history-model.ts';
import {
  describeProgress,
  promptArguments,
  readPromptList,
  readPromptMessages,
  readResourceContents,
  readResourceList,
  readTemplateList,
  requestError,
  type PromptEntry,
  type PromptList,
  type PromptView,
  type Read,
  type ResourceContentView,
  type ResourceList,
  type TemplateList,
} from '../../lib/runtime/mcp-inspector-results.ts';
import { saveManifest } from '../../lib/stores/saved-manifests.ts';
import { getRuntime } from '../../lib/runtime/sextant-runtime.ts';

const CALL_TIMEOUT_MS = 30_000;
const now = () => performance.now();

/** Arguments to start from: the valid call the conformance generator writes for the schema. */
export function exampleArguments(tool: McpToolDefinition): string {
  return JSON.stringify(mcpCheckCases(tool)[0]?.arguments ?? {}, null, 2);
}

/**
 * Validates the typed arguments, then (only when valid) calls the tool; its progress goes to the
 * server's notification log, and the call (sent or refused) to the call history.
 */
export async function callFromPage(url: string, tool: McpToolDefinition, argsText: string): Promise<McpCallRecord> {
  const startedAt = new Date();
  const record = await callOnce(url, tool, argsText);
  await getMcpHistory().record(url, argsText, record, startedAt);
  return record;
}

async function callOnce(url: string, tool: McpToolDefinition, argsText: string): Promise<McpCallRecord> {
  const parsed = safeParseJson(argsText);
  if (!parsed.ok) {
    return {
      toolName: tool.name,
      phase: 'validation',
      durationMs: 0,
      result: { status: 'error', summary: 'Invocation failed validation; nothing was sent to the server.', warnings: [], errors: [{ code: 'INVALID_INVOCATION', field: 'arguments', message: `The arguments are not JSON: ${parsed.message}` }], confidence: 0 },
    };
  }
  const opened = await getMcpServers().connection(url);
  if (!opened.ok) return { toolName: tool.name, phase: 'execution', durationMs: 0, result: toolResultFromFailure(tool.name, opened.failure) };
  const onProgress = (progress: number, total: number | undefined) => getMcpServers().note(url, describeProgress(tool.name, progress, total));
  return callMcpTool(opened.connection, tool, parsed.value, { timeoutMs: CALL_TIMEOUT_MS, now, onProgress });
}

/** What a re-run did: the call (recorded in the history like any other), or why it could not start (nothing sent, nothing recorded). */
export type RerunOutcome = { ok: true; record: McpCallRecord } | { ok: false; error: ToolError };

/** Calls a history entry's tool again with its arguments (validated again against the tool as listed now). */
export async function rerunFromHistory(entry: McpHistoryEntry, servers: readonly McpServerState[]): Promise<RerunOutcome> {
  // Cut arguments are not the call that was made: never send them (they would not even parse).
  const refusal = rerunRefusal(entry);
  if (refusal !== null) return { ok: false, error: { code: 'INVALID_INVOCATION', field: 'arguments', message: refusal } };
  const server = servers.find((candidate) => candidate.url === entry.serverUrl);
  if (!server) return { ok: false, error: { code: 'EXECUTION_ERROR', field: '', message: `${entry.serverUrl} is no longer among the servers on this page: add it again to re-run the call` } };
  if (server.status !== 'connected') return { ok: false, error: { code: 'EXECUTION_ERROR', field: '', message: `${entry.serverUrl} is not connected (${server.error ?? server.status}): reconnect it first` } };
  const tool = server.tools.find((candidate) => candidate.name === entry.toolName);
  if (!tool) return { ok: false, error: { code: 'UNKNOWN_TOOL', field: '', message: `${server.name} no longer lists a tool named ${entry.toolName}` } };
  return { ok: true, record: await callFromPage(entry.serverUrl, tool, entry.argumentsText) };
}

/** Most pages of a listing read (a server that always answers with a next cursor is cut off here). */
const MAX_LIST_PAGES = 20;

/** Reads every page of a listing and merges the pages' items; the first failure or malformed page ends it with a coded error. */
async function listAll<T extends { nextCursor?: string }>(url: string, method: InspectorMethod, read: (raw: unknown) => Read<T>, merge: (all: T, page: T) => T): Promise<Read<T>> {
  let all: T | null = null;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const answer = await getMcpServers().request(url, method, cursor === undefined ? {} : { cursor }, CALL_TIMEOUT_MS);
    if (!answer.ok) return { ok: false, error: requestError(method, answer.failure) };
    const read_ = read(answer.value);
    if (!read_.ok) return read_;
    all = all === null ? read_.value : merge(all, read_.value);
    cursor = read_.value.nextCursor;
    if (cursor === undefined) break;
  }
  return all === null ? { ok: false, error: { code: 'EXECUTION_ERROR', field: '', message: `${method} returned no page` } } : { ok: true, value: all };
}

export interface ResourcesListing {
  resources: ResourceList;
  /** Templates, or why they could not be listed (many servers offer none). */
  templates: Read<TemplateList>;
}

export async function listResourcesFromPage(url: string): Promise<Read<ResourcesListing>> {
  const resources = await listAll(url, 'resources/list', readResourceList, (all, page) => ({ resources: [...all.resources, ...page.resources], problems: [...all.problems, ...page.problems.map((problem) => ({ ...problem, index: problem.index + all.resources.length + all.problems.length }))], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }));
  if (!resources.ok) return resources;
  const templates = await listAll(url, 'resources/templates/list', readTemplateList, (all, page) => ({ templates: [...all.templates, ...page.templates], problems: [...all.problems, ...page.problems], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }));
  return { ok: true, value: { resources: resources.value, templates } };
}

/** A URI as MCP names resources: a scheme, a colon, the rest. */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

export async function readResourceFromPage(url: string, uri: string): Promise<Read<ResourceContentView[]>> {
  const trimmed = uri.trim();
  if (!URI.test(trimmed)) return { ok: false, error: { code: 'INVALID_VALUE', field: 'uri', message: `${JSON.stringify(uri)} is not a URI (scheme:rest, e.g. demo://resource/static/document/features.md); nothing was sent` } };
  const answer = await getMcpServers().request(url, 'resources/read', { uri: trimmed }, CALL_TIMEOUT_MS);
  if (!answer.ok) return { ok: false, error: requestError('resources/read', answer.failure) };
  return readResourceContents(answer.value);
}

export async function listPromptsFromPage(url: string): Promise<Read<PromptList>> {
  return listAll(url, 'prompts/list', readPromptList, (all, page) => ({ prompts: [...all.prompts, ...page.prompts], problems: [...all.problems, ...page.problems], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }));
}

/** Gets a prompt with its arguments; a missing required argument is refused before sending (one coded error each). */
export async function getPromptFromPage(url: string, prompt: PromptEntry, values: Readonly<Record<string, string>>): Promise<{ ok: true; value: PromptView } | { ok: false; errors: ToolError[]; sent: boolean }> {
  const args = promptArguments(prompt, values);
  if (!args.ok) return { ok: false, errors: args.errors, sent: false };
  const answer = await getMcpServers().request(url, 'prompts/get', { name: prompt.name, arguments: args.value }, CALL_TIMEOUT_MS);
  if (!answer.ok) return { ok: false, errors: [requestError('prompts/get', answer.failure)], sent: true };
  const view = readPromptMessages(answer.value);
  return view.ok ? view : { ok: false, errors: [view.error], sent: true };
}

export async function checkFromPage(url: string, tool: McpToolDefinition): Promise<McpCheckRow[] | string> {
  const opened = await getMcpServers().connection(url);
  if (!opened.ok) return getMcpServers().explain(url, opened.failure);
  return checkMcpTool(opened.connection, tool, { timeoutMs: CALL_TIMEOUT_MS, now });
}

export interface ImportOutcome {
  message: string;
  ok: boolean;
  review: ReviewItem[];
}

/** Saves the tool's draft manifest, bound to the server: it joins the registry (Tools page, planner). */
export async function importFromPage(url: string, tool: McpToolDefinition): Promise<ImportOutcome> {
  // Only `arguments` reach an MCP server's tool: it reads no Sextant capture.
  const draft = toManifest(canonicalize(tool.raw, { format: 'mcp' }).tool, { readsNoCapture: true });
  const runtime = getRuntime();
  await runtime.savedManifestsReady();
  const saved = await saveManifest(draft.manifest, runtime.manifests(), undefined, { url, tool: tool.raw });
  if (!saved.ok) return { ok: false, message: saved.message, review: draft.review };
  await runtime.loadSavedManifests();
  return { ok: true, message: `Saved ${draft.manifest.name} ${draft.manifest.version}, bound to ${url}: it is on the Tools page.`, review: draft.review };
}
