import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type SseVerdict = 'continue' | 'stop';

export interface SseHandlers {
  onEvent(event: EventSourceMessage): SseVerdict;
  /**
   * A line that starts with `{` outside the SSE grammar. Ollama writes a mid-stream error as raw
   * JSON without `data:`; eventsource-parser reports such a line only when it arrives whole in
   * one chunk, so we watch line starts ourselves and leave all SSE framing to the parser.
   */
  onStrayJson(line: string): SseVerdict;
}

export interface SseLimits {
  /** Most body bytes read; past them reading stops with a `ResponseTooLargeError`. */
  maxBytes?: number;
  /** Called for every complete event (not for comments such as `: keepalive`): a sign of life. */
  onActivity?: () => void;
}

/** The answer's body went past the byte limit; nothing more of it is read or kept. */
export class ResponseTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the answer went past ${limitBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/** Reads a whole (non-stream) body as text, refusing one longer than `maxBytes`. */
export async function readBodyText(body: ReadableStream<Uint8Array> | null, limits: SseLimits = {}): Promise<string> {
  if (!body) return '';
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let bytes = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      bytes += value.byteLength;
      if (limits.maxBytes !== undefined && bytes > limits.maxBytes) throw new ResponseTooLargeError(limits.maxBytes);
      limits.onActivity?.();
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** Bounds the bytes kept for the stray-line watch (a raw error line is short). */
const MAX_STRAY_LINE = 64 * 1024;

/**
 * Feeds a response body to eventsource-parser until it ends or a handler says `stop`.
 * Rejects as the body's reader does (abort, timeout, connection reset); the caller classifies.
 */
export async function readSse(body: ReadableStream<Uint8Array>, handlers: SseHandlers, limits: SseLimits = {}): Promise<void> {
  let stopped = false;
  let bytes = 0;
  const parser = createParser({
    onEvent(event) {
      limits.onActivity?.();
      if (!stopped && handlers.onEvent(event) === 'stop') stopped = true;
    },
  });
  const decoder = new TextDecoder();
  let partialLine = '';
  const watch = (text: string, final: boolean) => {
    const lines = (partialLine + text).split(/\r\n|\r|\n/);
    partialLine = final ? '' : (lines.pop() ?? '');
    // Only a line's start matters unless it may be a raw JSON line; '#' marks "not one" for the rest of it.
    if (!partialLine.trimStart().startsWith('{')) partialLine = partialLine.slice(0, 8);
    else if (partialLine.length > MAX_STRAY_LINE) partialLine = '#';
    for (const line of lines) {
      if (stopped) return;
      if (line.trimStart().startsWith('{') && handlers.onStrayJson(line.trim()) === 'stop') stopped = true;
    }
  };
  const reader = body.getReader();
  try {
    while (!stopped) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (limits.maxBytes !== undefined && bytes > limits.maxBytes) {
        stopped = true;
        throw new ResponseTooLargeError(limits.maxBytes);
      }
      const text = decoder.decode(value, { stream: true });
      parser.feed(text);
      if (!stopped) watch(text, false);
    }
    if (!stopped) {
      const rest = decoder.decode();
      parser.feed(rest);
      parser.reset({ consume: true });
      if (!stopped) watch(rest, true);
    }
  } finally {
    if (stopped) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
