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
} from '../../../core/index.ts';
import { getMcpServers } from '../../lib/runtime/mcp-servers.ts';
import { saveManifest } from '../../lib/stores/saved-manifests.ts';
import { getRuntime } from '../../lib/runtime/sextant-runtime.ts';

const CALL_TIMEOUT_MS = 30_000;
const now = () => performance.now();

/** Arguments to start from: the valid call the conformance generator writes for the schema. */
export function exampleArguments(tool: McpToolDefinition): string {
  return JSON.stringify(mcpCheckCases(tool)[0]?.arguments ?? {}, null, 2);
}

/** Validates the typed arguments, then (only when valid) calls the tool. */
export async function callFromPage(url: string, tool: McpToolDefinition, argsText: string): Promise<McpCallRecord> {
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
  return callMcpTool(opened.connection, tool, parsed.value, { timeoutMs: CALL_TIMEOUT_MS, now });
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
  const draft = toManifest(canonicalize(tool.raw, { format: 'mcp' }).tool);
  const runtime = getRuntime();
  await runtime.savedManifestsReady();
  const saved = await saveManifest(draft.manifest, runtime.manifests(), undefined, { url, tool: tool.raw });
  if (!saved.ok) return { ok: false, message: saved.message, review: draft.review };
  await runtime.loadSavedManifests();
  return { ok: true, message: `Saved ${draft.manifest.name} ${draft.manifest.version}, bound to ${url}: it is on the Tools page.`, review: draft.review };
}
