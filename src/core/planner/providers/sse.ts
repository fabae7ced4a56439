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

/** Bounds the bytes kept for the stray-line watch (a raw error line is short). */
const MAX_STRAY_LINE = 64 * 1024;

/**
 * Feeds a response body to eventsource-parser until it ends or a handler says `stop`.
 * Rejects as the body's reader does (abort, timeout, connection reset); the caller classifies.
 */
export async function readSse(body: ReadableStream<Uint8Array>, handlers: SseHandlers): Promise<void> {
  let stopped = false;
  const parser = createParser({
    onEvent(event) {
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
