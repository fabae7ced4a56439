// Helpers shared by the provider tests: canned SSE bodies and a recording fake fetch.
import type { FetchFunction, LlmRequest, StreamDelta } from '../provider-types.ts';
import type { InternalToolDefinition } from '../../toolcanon/internal-definition.ts';

export const SECRET_KEY = 'sk-SECRET-0123456789abcdefXYZ';

export const BLE_TOOL: InternalToolDefinition = {
  name: 'ble_address_linkage',
  description: 'Link rotating BLE addresses that likely belong to one device.',
  input_schema: { type: 'object', properties: { capture_id: { type: 'string' } }, required: ['capture_id'] },
  output_schema: { type: 'object' },
};

/** `data:` events, Chat-style, ending in `data: [DONE]` unless `done` is false. */
export function chatSse(chunks: unknown[], done = true): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}

/** Named events, Anthropic-style. */
export function namedSse(events: Array<[string, unknown]>): string {
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

export interface CannedOptions {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  /** Split the body into pieces of this many characters, to test accumulation across reads. */
  chunkSize?: number;
}

export function cannedResponse(body: string, options: CannedOptions = {}): Response {
  const encoder = new TextEncoder();
  const size = options.chunkSize ?? Math.max(1, body.length);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < body.length; i += size) controller.enqueue(encoder.encode(body.slice(i, i + size)));
      controller.close();
    },
  });
  return new Response(stream, { status: options.status ?? 200, headers: { 'content-type': options.contentType ?? 'text/event-stream', ...(options.headers ?? {}) } });
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export interface RecordedCall {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A fake fetch answering each call with the next response (or thrown error) and recording what was sent. */
export function fakeFetch(...answers: Array<Response | Error | (() => Response | Promise<Response>)>): FetchFunction & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fn = async (url: string, init: RequestInit) => {
    calls.push({ url, headers: { ...(init.headers as Record<string, string>) }, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('fakeFetch: no answer left');
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer() : answer;
  };
  return Object.assign(fn, { calls });
}

/** A fetch that never answers until its signal aborts, as a hung server. */
export const hangingFetch: FetchFunction = (_url, init) =>
  new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(init.signal?.reason ?? new Error('aborted')), { once: true });
  });

export function request(overrides: Partial<LlmRequest> = {}): LlmRequest & { deltas: StreamDelta[] } {
  const deltas: StreamDelta[] = [];
  return {
    messages: [
      { role: 'system', content: 'You plan statistical tool calls.' },
      { role: 'user', content: 'Link BLE addresses in capture c1.' },
    ],
    tools: [BLE_TOOL],
    onDelta: (delta) => deltas.push(delta),
    deltas,
    ...overrides,
  };
}
