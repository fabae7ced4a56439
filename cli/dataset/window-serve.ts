/**
 * `sextant analyze-window --serve`: one runner analysing window after window, for a caller that
 * would otherwise start `sextant analyze-window` per window (the Spark linkage job, once per
 * window on each executor). A fresh process loads the runner's code and runs the analyzer cold
 * every time (cold, the 1M benchmark's analysis takes ~2 s against ~0.55 s warm); served, the
 * process and its tool thread are kept, and each window is analysed exactly as a one-shot
 * `analyze-window` would (the same steps; output byte for byte the same but `duration_ms`).
 *
 * The protocol, on standard input and output:
 *   request:  one JSON line {index, from_ms, end_ms, to_ms, arguments, timeout_ms?, max_packets?,
 *             rows_bytes}, then exactly rows_bytes bytes of Arrow IPC (the window's rows)
 *   answer:   one JSON line per request, in order: the window's sextant-window-analysis/1 (as
 *             one-shot `analyze-window` prints it), or {format: "sextant-window-refusal/1", index,
 *             code, message} for rows that are not packets or too many of them
 * A request that cannot be read (not JSON, a field missing or out of range, the input ending
 * inside its rows) is answered with a refusal coded BAD_WINDOW_REQUEST and ends the serving:
 * past it, where the next request starts is unknown.
 */
import { isJsonObject, safeParseJson, type JsonObject } from '../../src/core/index.ts';
import { ThreadRunner } from '../thread-runner.ts';
import { analyseWindowRows, windowRowsFromIpc, type WindowRowsOutput } from './window-rows.ts';

export interface ServeLimits {
  /** The analyzer's largest timeout; a request without one gets it. */
  maxTimeoutMs: number;
  /** Rows a window may hold when a request does not say. */
  defaultMaxPackets: number;
  memoryLimit: string;
}

export interface WindowRefusal {
  format: 'sextant-window-refusal/1';
  index: number | null;
  code: 'BAD_WINDOW_REQUEST' | 'ROWS_NOT_PACKETS' | 'WINDOW_TOO_LARGE';
  message: string;
}

interface WindowRequest {
  plan: { index: number; fromMs: number; endMs: number; toMs: number };
  toolArguments: JsonObject;
  timeoutMs: number;
  maxPackets: number;
  rowsBytes: number;
}

/** Serves requests from `input` until it ends; returns false when it stopped at an unreadable request. */
export async function serveWindows(input: AsyncIterable<Uint8Array>, answer: (line: string) => void, limits: ServeLimits): Promise<boolean> {
  const reader = new FramedReader(input);
  const thread = new ThreadRunner({ testTools: false, captures: [] });
  const refuse = (refusal: Omit<WindowRefusal, 'format'>): void => answer(`${JSON.stringify({ format: 'sextant-window-refusal/1', ...refusal } satisfies WindowRefusal)}\n`);
  try {
    for (;;) {
      const header = await reader.line();
      if (header === null) return true;
      const request = parseRequest(header, limits);
      if (typeof request === 'string') {
        refuse({ index: null, code: 'BAD_WINDOW_REQUEST', message: request });
        return false;
      }
      const bytes = await reader.bytes(request.rowsBytes);
      if (bytes === null) {
        refuse({ index: request.plan.index, code: 'BAD_WINDOW_REQUEST', message: `the input ended inside window ${request.plan.index}'s rows (rows_bytes ${request.rowsBytes})` });
        return false;
      }
      const table = windowRowsFromIpc(bytes);
      if (typeof table === 'string') {
        refuse({ index: request.plan.index, code: 'ROWS_NOT_PACKETS', message: table });
        continue;
      }
      const outcome = await analyseWindowRows(table, { plan: request.plan, toolArguments: request.toolArguments, timeoutMs: request.timeoutMs, maxPackets: request.maxPackets, memoryLimit: limits.memoryLimit }, thread);
      if (outcome.kind === 'refused') refuse({ index: request.plan.index, code: outcome.code, message: outcome.message });
      else answer(`${JSON.stringify(outcome.output satisfies WindowRowsOutput)}\n`);
    }
  } finally {
    thread.close();
  }
}

function parseRequest(line: string, limits: ServeLimits): WindowRequest | string {
  const parsed = safeParseJson(line);
  if (!parsed.ok || !isJsonObject(parsed.value)) return `a request is one JSON object on a line, not ${JSON.stringify(line.slice(0, 80))}`;
  const fields = parsed.value;
  const whole = (name: string, fallback?: number): number | string => {
    const value = fields[name] ?? fallback;
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : `${name} must be a whole number ≥ 0, not ${JSON.stringify(fields[name] ?? null)}`;
  };
  const values = {
    index: whole('index'),
    fromMs: whole('from_ms'),
    endMs: whole('end_ms'),
    toMs: whole('to_ms'),
    timeoutMs: whole('timeout_ms', limits.maxTimeoutMs),
    maxPackets: whole('max_packets', limits.defaultMaxPackets),
    rowsBytes: whole('rows_bytes'),
  };
  const problem = Object.values(values).find((value): value is string => typeof value === 'string');
  if (problem !== undefined) return problem;
  const { index, fromMs, endMs, toMs, timeoutMs, maxPackets, rowsBytes } = values as Record<keyof typeof values, number>;
  if (!(fromMs < endMs && endMs <= toMs)) return `window ${index} needs from_ms < end_ms ≤ to_ms`;
  if (timeoutMs < 1 || timeoutMs > limits.maxTimeoutMs) return `timeout_ms is between 1 and ${limits.maxTimeoutMs}, the analyzer's limit`;
  if (!isJsonObject(fields.arguments)) return "arguments must be the analyzer's arguments as a JSON object (plan-windows prints them)";
  return { plan: { index, fromMs, endMs, toMs }, toolArguments: fields.arguments, timeoutMs, maxPackets, rowsBytes };
}

/**
 * Lines and byte runs from a stream of chunks. Written here because Node's readline reads text
 * only, and the requests mix a text line with binary rows.
 */
class FramedReader {
  private readonly chunks: Uint8Array[] = [];
  private buffered = 0;
  private readonly iterator: AsyncIterator<Uint8Array>;

  constructor(input: AsyncIterable<Uint8Array>) {
    this.iterator = input[Symbol.asyncIterator]();
  }

  /** The next line without its newline; null at the end of the input (a last line without a newline counts). */
  async line(): Promise<string | null> {
    let searched = 0;
    for (;;) {
      const joined = this.joined();
      const newline = joined.indexOf(0x0a, searched);
      if (newline >= 0) return new TextDecoder().decode(this.take(newline + 1).subarray(0, newline));
      searched = joined.length;
      if (!(await this.fill())) return this.buffered > 0 ? new TextDecoder().decode(this.take(this.buffered)) : null;
    }
  }

  /** Exactly `count` bytes; null when the input ends first. */
  async bytes(count: number): Promise<Uint8Array | null> {
    while (this.buffered < count) if (!(await this.fill())) return null;
    return this.take(count);
  }

  private async fill(): Promise<boolean> {
    const next = await this.iterator.next();
    if (next.done) return false;
    this.chunks.push(next.value);
    this.buffered += next.value.length;
    return true;
  }

  /** The buffered bytes as one array (kept as the only chunk, so a long wait joins each byte once). */
  private joined(): Uint8Array {
    if (this.chunks.length > 1) {
      const all = Buffer.concat(this.chunks, this.buffered);
      this.chunks.length = 0;
      this.chunks.push(all);
    }
    return this.chunks[0] ?? new Uint8Array(0);
  }

  private take(count: number): Uint8Array {
    const all = this.joined();
    const taken = all.subarray(0, count);
    this.chunks.length = 0;
    if (count < all.length) this.chunks.push(all.subarray(count));
    this.buffered -= count;
    return taken;
  }
}
