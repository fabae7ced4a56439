import type { ToolError, ToolWarning } from '../../contract/tool-error.ts';
import type { ExecutionRecord } from '../../executor/executor.ts';
import type { InternalToolDefinition } from '../../toolcanon/internal-definition.ts';
import type { JsonObject, JsonValue } from '../../util/json.ts';

/**
 * What the Planner page's timeline shows, one entry per thing that happened. Derived from the
 * loop's recorded events by `timelineFromEvents` (planner-events.ts), so a saved run replays
 * exactly what was shown live.
 */
export type TimelineStep =
  | {
      kind: 'discover';
      /** The tool definitions exactly as sent to the provider. */
      tools: InternalToolDefinition[];
      /** Token estimate of those definitions (the schema's share of every request). */
      tokenEstimate: number;
    }
  | {
      kind: 'llm-request';
      turn: number;
      /** 1-based attempt within the turn. */
      attempt: number;
      provider: string;
      model: string;
      /** `pending` while the request is in flight (or when the run was stopped during it). */
      status: 'pending' | 'ok' | 'failed';
      latencyMs: number;
      inputTokens: number;
      outputTokens: number;
      cachedTokens: number;
      /** Failure class and the message that says what to do (never a secret). */
      failure?: { kind: string; message: string; httpStatus?: number; retryAfterMs?: number; fatal?: boolean };
      /** How long the loop waited before the next attempt, when it did. */
      waitMs?: number;
      /** The model's text and reasoning, shown as text. */
      text?: string;
      reasoning?: string;
      /** Names of the tools the model called. */
      toolCalls?: string[];
      /** Why the response was not used (`empty`, …). */
      ignored?: string;
      /** The context guard's estimate for this request, in tokens. */
      expectedTokens?: number;
      /** Ephemeral notices sent along with this attempt only. */
      notices?: string[];
    }
  | {
      kind: 'invocation';
      turn: number;
      callId: string;
      toolName: string;
      /** The envelope as validated (after the runtime filled `tool_name`, `request_id`, …). */
      invocation: JsonValue;
      /** Who produced it: the model, or the offline repairer. */
      source?: 'model' | 'offline-repairer';
      /** The arguments needed jsonrepair before they parsed. */
      argumentsRepaired: boolean;
      /** The arguments as the model sent them, when they had to be repaired. */
      rawArguments?: string;
      valid: boolean;
      errors: ToolError[];
      warnings?: ToolWarning[];
    }
  | {
      kind: 'repair';
      turn: number;
      /** Who regenerated the invocation. */
      source: 'model' | 'offline-repairer';
      failed: JsonValue;
      regenerated: JsonValue;
      /** The coded errors that drove it. */
      errors: ToolError[];
      /** One line per change the repairer made, with why. */
      reasons?: string[];
    }
  | {
      kind: 'execution';
      turn: number;
      callId: string;
      record: ExecutionRecord;
      notes?: string[];
      /** What the model received for the call (the result's digest) and its UTF-8 size; absent in old recordings. */
      modelContent?: string;
      modelBytes?: number;
      /** UTF-8 size of the full ToolResult, for comparison. */
      fullBytes?: number;
    }
  | { kind: 'notice'; turn: number; text: string }
  | {
      kind: 'final-report';
      status: 'success' | 'failure';
      format: string;
      /** `tool`, `xml`, `text_fallback` or `synthetic`: what set the status. */
      source?: string;
      /** Text (markdown, plain or JSON text): always rendered as text. */
      content: string;
      metadata?: JsonObject;
    }
  | { kind: 'session-error'; message: string };

export type TimelineStepKind = TimelineStep['kind'];
