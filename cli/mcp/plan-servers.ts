// `sextant plan`'s MCP servers (issue 24): every server the configuration's `mcpServers` names is
// started or reached, initialized and its tools listed under one deadline each, all at once; the
// session starts only when every one is up (agent-contract.md §2: a missing or failed server is
// exit 3). The tools are offered through core's `mcpPlannerToolSet`, as the app offers them.

import {
  describeMcpFailure,
  describeMcpServerConfig,
  listMcpTools,
  startDeadline,
  type Clock,
  type McpOfferedServer,
  type McpServerConfig,
  type McpToolDefinition,
  type McpToolProblem,
} from '../../src/core/index.ts';
import { connectMcp, type McpTarget, type OpenMcpClient } from './connect.ts';

/** Why a configured server cannot be used, as printed in `mcpServers[].code`. */
export type McpServerFailureCode = 'MCP_SERVER_MISSING' | 'MCP_SERVER_TIMEOUT' | 'MCP_SERVER_FAILED';

/** One server's line in `sextant plan`'s output. */
export type McpServerReport =
  | { name: string; transport: 'stdio' | 'http'; status: 'ready'; tools: string[]; problems: McpToolProblem[] }
  | { name: string; transport: 'stdio' | 'http'; status: 'failed'; code: McpServerFailureCode; message: string };

export interface StartedMcpServers {
  /** Every configured server, in configuration order. */
  reports: McpServerReport[];
  /** True when every server is ready. */
  ok: boolean;
  /** The ready servers, for `mcpPlannerToolSet`. */
  offered: McpOfferedServer[];
  /** The queue each ready server's tools are bound to, by server name (absent: the default queue). */
  queues: Map<string, string>;
  /** Closes every connection (stdio servers' processes end). */
  close(): Promise<void>;
}

function targetOf(config: McpServerConfig): McpTarget {
  return config.transport === 'stdio'
    ? { kind: 'stdio', command: config.command, args: config.args, env: config.env }
    : { kind: 'http', url: new URL(config.url), headers: config.headers };
}

type Started = { ok: true; client: OpenMcpClient; tools: McpToolDefinition[]; report: McpServerReport } | { ok: false; report: McpServerReport };

async function startOne(name: string, config: McpServerConfig, timeoutMs: number, clock: Clock): Promise<Started> {
  const deadline = startDeadline({ clock, totalMs: timeoutMs });
  const transport = config.transport;
  const failed = (code: McpServerFailureCode, message: string): Started => ({ ok: false, report: { name, transport, status: 'failed', code, message } });
  const timedOut = () => failed('MCP_SERVER_TIMEOUT', `MCP server '${name}' (${describeMcpServerConfig(config)}) did not initialize and list its tools within ${timeoutMs} ms`);
  try {
    const opened = await connectMcp(targetOf(config), timeoutMs, deadline.signal);
    if (!opened.ok) {
      if (deadline.reason() === 'timeout') return timedOut();
      const where = `MCP server '${name}' (${describeMcpServerConfig(config)})`;
      return opened.missing ? failed('MCP_SERVER_MISSING', `${where}: ${opened.failure.kind === 'unreachable' ? opened.failure.message : describeMcpFailure(opened.failure)}`) : failed('MCP_SERVER_FAILED', `${where} failed to initialize: ${describeMcpFailure(opened.failure)}`);
    }
    const listed = await listMcpTools(opened.value.connection, { timeoutMs: Math.max(1, deadline.remainingMs()), signal: deadline.signal });
    if (!listed.ok) {
      await opened.value.close().catch(() => {});
      if (deadline.reason() === 'timeout') return timedOut();
      return failed('MCP_SERVER_FAILED', `MCP server '${name}' (${describeMcpServerConfig(config)}) did not list its tools: ${describeMcpFailure(listed.failure)}`);
    }
    return { ok: true, client: opened.value, tools: listed.list.tools, report: { name, transport, status: 'ready', tools: listed.list.tools.map((tool) => tool.name), problems: listed.list.problems } };
  } finally {
    deadline.dispose();
  }
}

/**
 * Starts every configured server at once, each within `timeoutMs`. When any fails the ones that
 * started are closed again and `ok` is false; the reports say which failed and why.
 */
export async function startMcpServers(servers: Readonly<Record<string, McpServerConfig>>, options: { timeoutMs: number; clock: Clock }): Promise<StartedMcpServers> {
  const entries = Object.entries(servers);
  const started = await Promise.all(entries.map(([name, config]) => startOne(name, config, options.timeoutMs, options.clock)));
  const clients = started.flatMap((outcome) => (outcome.ok ? [outcome.client] : []));
  const close = async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
  };
  const ok = started.every((outcome) => outcome.ok);
  if (!ok) await close();
  const offered: McpOfferedServer[] = [];
  const queues = new Map<string, string>();
  started.forEach((outcome, index) => {
    if (!outcome.ok) return;
    const [name, config] = entries[index];
    const connection = outcome.client.connection;
    offered.push({ name, tools: outcome.tools, connect: async () => ({ ok: true, connection }) });
    if (config.queue !== undefined) queues.set(name, config.queue);
  });
  return { reports: started.map((outcome) => outcome.report), ok, offered: ok ? offered : [], queues, close };
}
