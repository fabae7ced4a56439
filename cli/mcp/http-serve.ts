// `sextant mcp serve --http`: Streamable HTTP at http://HOST:PORT/mcp with the SDK's transport.
// Each MCP session gets its own SDK `Server` and transport; the SDK checks Host and Origin
// against the allow-lists (DNS-rebinding protection). This file only routes requests to sessions
// and checks the optional bearer token.

import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface HttpServeOptions {
  host: string;
  port: number;
  /** Bearer token every request must carry, when set. */
  token?: string;
  /** More Host names (without port) clients may use, e.g. the machine's name when bound to 0.0.0.0. */
  allowHosts?: string[];
  /**
   * Web page origins (`http://127.0.0.1:5173`) allowed to call the server from a browser: CORS
   * preflight and headers for exactly these, Mcp-Session-Id exposed. None by default: no
   * cross-origin access.
   */
  allowOrigins?: string[];
  /** A new SDK server for each session. */
  createServer: () => Server;
  log: (line: string) => void;
  /** Most live sessions; a new one past it is refused (503) until one ends or expires. */
  maxSessions?: number;
  /** A session without a request for this long is closed (its client must initialize again). */
  sessionIdleMs?: number;
}

export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
export const DEFAULT_MAX_SESSIONS = 64;

export interface RunningHttpServer {
  url: string;
  /** Live sessions, for tests and diagnostics. */
  sessionCount(): number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Host headers and Origins the server accepts: the address it is bound to, its loopback names when
 * bound to loopback, and the web page origins given with --allow-origin.
 */
export function allowLists(host: string, port: number, extra: ReadonlyArray<string> = [], extraOrigins: ReadonlyArray<string> = []): { hosts: string[]; origins: string[] } {
  const bracket = (name: string) => (name.includes(':') ? `[${name}]` : name);
  const bound = LOOPBACK.has(host) ? ['127.0.0.1', 'localhost', '::1'] : isWildcard(host) ? [] : [host];
  const names = [...new Set([...bound, ...extra])];
  const hosts = names.map((name) => `${bracket(name)}:${port}`);
  return { hosts, origins: [...hosts.flatMap((entry) => [`http://${entry}`, `https://${entry}`]), ...extraOrigins] };
}

/** An address that binds every interface: the Host names clients use cannot be known from it. */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Request headers a browser page may send: what the SDK's client sends, the bearer token, and event-stream resumption. */
const CORS_ALLOWED_HEADERS = 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id';
const CORS_ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
/** How long a browser may cache a preflight answer, in seconds. */
const CORS_MAX_AGE_S = '600';

/**
 * The origin as a browser sends it (`scheme://host[:port]`, no path, no trailing slash), or null
 * when `text` is not one. `*` is refused: only named origins get access.
 */
export function normalizeOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || (url.pathname !== '/' && url.pathname !== '')) return null;
  return url.origin;
}

/** CORS answer headers for an allowed origin (`Vary: Origin` so no cache hands them to another). */
function corsHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'Mcp-Session-Id', vary: 'Origin' };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  // The shape the SDK's transport uses for its own refusals (a JSON-RPC error with a null id).
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** When its last request started or ended (ms since the epoch). */
  lastSeen: number;
  /** Requests being handled now: a session busy with a long call is never idle. */
  inFlight: number;
}

export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  if (isWildcard(options.host) && (options.allowHosts ?? []).length === 0) {
    throw new Error(`binding to ${options.host} needs --allow-host NAME for each Host name clients use (DNS-rebinding protection checks it)`);
  }
  const sessions = new Map<string, Session>();
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const corsOrigins = new Set((options.allowOrigins ?? []).map((origin) => {
    const normalized = normalizeOrigin(origin);
    if (normalized === null) throw new Error(`--allow-origin needs an origin such as http://127.0.0.1:5173 (scheme, host and port only), got '${origin}'`);
    return normalized;
  }));
  let lists = allowLists(options.host, options.port, options.allowHosts, [...corsOrigins]);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const origin = request.headers.origin;
    const corsAllowed = typeof origin === 'string' && corsOrigins.has(origin);
    // Every answer to an allowed origin carries the CORS headers, refusals included, so the page
    // can read a 401 or 404 instead of seeing a network error.
    if (corsAllowed) for (const [name, value] of Object.entries(corsHeaders(origin))) response.setHeader(name, value);
    if (request.method === 'OPTIONS') {
      // A preflight: answered here (the SDK's transport has none), before the token check, since
      // browsers send no credentials with it. A foreign origin gets no CORS headers and a 403.
      if (!corsAllowed) return refuse(response, 403, 'This origin may not call the server from a browser (start it with --allow-origin ORIGIN)');
      response.writeHead(204, { 'access-control-allow-methods': CORS_ALLOWED_METHODS, 'access-control-allow-headers': CORS_ALLOWED_HEADERS, 'access-control-max-age': CORS_MAX_AGE_S }).end();
      return;
    }
    if (path !== '/mcp') return refuse(response, 404, 'Not found: the MCP endpoint is /mcp');
    if (options.token !== undefined && !tokenMatches(request.headers.authorization, options.token)) {
      return refuse(response, 401, 'A bearer token is required', { 'www-authenticate': 'Bearer' });
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return refuse(response, 404, 'Session not found: it ended, expired after being idle, or the server restarted; initialize a new one');
      session.lastSeen = Date.now();
      // A POST is work (a call may run for minutes): the session is in use until it is answered.
      // A GET is the client's standing notification stream, open for the session's life: not use.
      if (request.method === 'POST') {
        session.inFlight += 1;
        response.once('close', () => {
          session.inFlight -= 1;
          session.lastSeen = Date.now();
        });
      }
      return session.transport.handleRequest(request, response);
    }
    expireIdle();
    if (sessions.size >= maxSessions) {
      return refuse(response, 503, `Too many sessions (${maxSessions}): end one (DELETE /mcp) or retry when an idle one expires`, { 'retry-after': String(Math.ceil(sessionIdleMs / 1000)) });
    }
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: lists.hosts,
      allowedOrigins: lists.origins,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastSeen: Date.now(), inFlight: 0 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    // Anything but a successful initialize leaves no session behind.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await server.close();
  }

  /** Closes sessions idle past the limit; the SDK server's close ends its transport and drops it from the map. */
  function expireIdle(): void {
    const cutoff = Date.now() - sessionIdleMs;
    for (const [id, session] of sessions) {
      if (session.inFlight > 0 || session.lastSeen > cutoff) continue;
      sessions.delete(id);
      void session.server.close().catch(() => {});
    }
  }
  const sweeper = setInterval(expireIdle, Math.max(10, Math.min(sessionIdleMs / 2, 30_000)));
  sweeper.unref();

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log(`sextant mcp: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) refuse(response, 500, 'Internal error');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  lists = allowLists(options.host, port, options.allowHosts, [...corsOrigins]);
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostPart}:${port}/mcp`,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweeper);
      for (const { server } of sessions.values()) await server.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
