import { useCallback, useSyncExternalStore } from 'react';
import type { StreamDelta } from '../../../core/index.ts';
import { createExternalStore } from '../../lib/stores/external-store.ts';

/** What the LLM request in flight has streamed so far. Shown on the page only: never recorded nor saved. */
export interface LiveResponse {
  text: string;
  reasoning: string;
  /** The tool calls the model has begun, in order (the name may be empty until the provider sends it). */
  toolCalls: ReadonlyArray<{ id: string; name: string }>;
}

/**
 * The streamed output of one run, between a request's start and its recorded response. Fed by
 * the runner (`requestStarted`, `delta`, `requestEnded`), read by the timeline's pending item.
 */
export interface LiveOutput {
  subscribe(listener: () => void): () => void;
  /** The output shown now; `null` when no request is streaming. */
  get(): LiveResponse | null;
  requestStarted(): void;
  delta(delta: StreamDelta): void;
  requestEnded(): void;
}

/** At most one re-render per this many milliseconds: a fast stream sends a delta per token. */
export const LIVE_FLUSH_MS = 50;

const EMPTY: LiveResponse = { text: '', reasoning: '', toolCalls: [] };

/**
 * Accumulates deltas at once but publishes them in batches, every `flushMs` at most. A new
 * request and the end of one publish immediately, so a previous request's text never lingers.
 */
export function createLiveOutput(flushMs = LIVE_FLUSH_MS): LiveOutput {
  const shown = createExternalStore<LiveResponse | null>(null);
  let streaming = false;
  let text = '';
  let reasoning = '';
  let toolCalls: Array<{ id: string; name: string }> = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const publish = (next: LiveResponse | null) => {
    cancel();
    shown.set(next);
  };
  const flush = () => publish(streaming ? { text, reasoning, toolCalls: [...toolCalls] } : null);

  return {
    subscribe: shown.subscribe,
    get: shown.get,
    requestStarted() {
      streaming = true;
      text = '';
      reasoning = '';
      toolCalls = [];
      publish(EMPTY);
    },
    delta(delta) {
      // A delta outside a request (a late one after the response) has nothing to belong to.
      if (!streaming) return;
      if (delta.kind === 'text') text += delta.text;
      else if (delta.kind === 'reasoning') reasoning += delta.text;
      else {
        const known = toolCalls.findIndex((call) => call.id === delta.id);
        if (known < 0) toolCalls.push({ id: delta.id, name: delta.name });
        else if (delta.name) toolCalls[known] = { id: delta.id, name: delta.name };
      }
      timer ??= setTimeout(flush, flushMs);
    },
    requestEnded() {
      streaming = false;
      text = '';
      reasoning = '';
      toolCalls = [];
      publish(null);
    },
  };
}

/** The live output of a run, re-rendering at the output's pace (`null` without one). */
export function useLiveOutput(live: LiveOutput | undefined): LiveResponse | null {
  const subscribe = useCallback((listener: () => void) => live?.subscribe(listener) ?? (() => undefined), [live]);
  return useSyncExternalStore(subscribe, () => live?.get() ?? null);
}
