import type { EventSourceMessage } from 'eventsource-parser';
import type { JsonValue } from '../../util/json.ts';
import type { LlmResponse, StreamDelta } from '../provider-types.ts';

/** What one stream event did: keep reading, the answer is complete, or the provider reported an error. */
export type StreamStep = { type: 'continue' } | { type: 'done' } | { type: 'error'; payload: JsonValue } | { type: 'malformed'; detail: string };

/** Builds one response from a provider's stream events. */
export interface StreamAccumulator {
  event(event: EventSourceMessage): StreamStep;
  /** After the body ended: the response, or why it is incomplete (no finish reason, no terminator). */
  end(): WireResult;
}

/** A response read from the wire, an error the body carried, or a body that broke the format. */
export type WireResult = { type: 'response'; response: LlmResponse } | { type: 'error'; payload: JsonValue } | { type: 'malformed'; detail: string };

export interface WireSession {
  onDelta?: (delta: StreamDelta) => void;
  /** A fresh id for a tool call the server sent without one (some local servers). */
  newCallId(): string;
}

export const CONTINUE: StreamStep = { type: 'continue' };
