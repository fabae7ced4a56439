// `sextant mcp serve` (issue 13): Sextant's installed tools and captures over MCP, through the
// official SDK's low-level `Server` (the tools' JSON Schemas are data, so the zod-based
// `McpServer` helpers do not fit). Every call goes through the same executor as `invoke`.

import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import {
  captureIdFromUri,
  compareVersions,
  captureResourceContent,
  captureResourceEntry,
  mcpAnswerFromToolResult,
  mcpToolForManifest,
  invocationFromMcpCall,
  type CaptureCatalog,
  type Executor,
  type ToolRegistry,
} from '../../src/core/index.ts';

export interface SextantMcpDependencies {
  registry: ToolRegistry;
  catalog: CaptureCatalog;
  executor: Executor;
  /** Where diagnostics go (stderr; never stdout, which carries the stdio transport). */
  log: (line: string) => void;
  version: string;
}

/** A new SDK `Server` answering tools and resources requests; one per MCP session. */
export function createSextantMcpServer(dependencies: SextantMcpDependencies): Server {
  const { registry, catalog, executor, log } = dependencies;
  const server = new Server(
    { name: 'sextant', title: 'Sextant', version: dependencies.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Sextant runs statistical and BLE-analysis tools over packet captures under a strict contract: every call is validated ' +
        'first and errors come back coded with the field they point at. Read the sextant://captures/* resources to learn capture ids, ' +
        'time bounds, channels and columns before selecting rows.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    // Newest version of each name: the one a call without tool_version runs.
    tools: newestManifests(registry).map((manifest) => mcpToolForManifest(manifest)),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const manifest = newestManifests(registry).find((candidate) => candidate.name === request.params.name);
    if (!manifest) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    const requestId = `mcp-${randomUUID()}`;
    const invocation = invocationFromMcpCall(manifest, request.params.arguments ?? {}, requestId);
    const progressToken = request.params._meta?.progressToken;
    // The answer waits for the notifications already sent: a client drops progress that arrives
    // after the result it belongs to.
    const notifications: Array<Promise<void>> = [];
    const onProgress =
      progressToken === undefined
        ? undefined
        : (fraction: number) => {
            notifications.push(
              extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: fraction, total: 1 } }).catch(() => {}),
            );
          };
    extra.signal.addEventListener('abort', () => log(`sextant mcp: ${requestId} (${manifest.name}) cancelled by the client; stopping its worker thread`), { once: true });
    const record = await executor.execute(invocation, { signal: extra.signal, onProgress });
    await Promise.all(notifications);
    log(`sextant mcp: ${requestId} ${manifest.name} ${record.result.status} in ${record.durationMs.toFixed(0)} ms`);
    return mcpAnswerFromToolResult(record.result, registry.latest(manifest.name)) as CallToolResult;
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: catalog.list().map((info) => captureResourceEntry(info)),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const id = captureIdFromUri(request.params.uri);
    const capture = id === null ? undefined : catalog.capture(id);
    if (!capture) throw new McpError(ErrorCode.InvalidParams, `No such resource: ${request.params.uri}`);
    return { contents: [{ uri: request.params.uri, mimeType: 'application/json', text: JSON.stringify(captureResourceContent(capture), null, 2) }] };
  });

  return server;
}

function newestManifests(registry: ToolRegistry) {
  const newest = new Map<string, ReturnType<ToolRegistry['manifests']>[number]>();
  for (const manifest of registry.manifests()) {
    const known = newest.get(manifest.name);
    if (!known || compareVersions(manifest.version, known.version) > 0) newest.set(manifest.name, manifest);
  }
  return [...newest.values()];
}
