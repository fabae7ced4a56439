import type { ToolError, ToolWarning } from '../../contract/tool-error.ts';
import type { ToolResult } from '../../contract/types.ts';
import type { ExecutionRecord } from '../../executor/executor.ts';
import type { InternalToolDefinition } from '../../toolcanon/internal-definition.ts';
import type { JsonObject, JsonValue } from '../../util/json.ts';
import type { ChatMessage, ChatToolCall, ProviderFailure, ProviderFailureKind, StopReason, TokenUsage } from '../provider-types.ts';
import type { RepairChange } from './offline-repairer.ts';
import type { PlannerSettings, ReportFormat } from './planner-settings.ts';

/** Where a final report came from; its `status` follows from this, never from the model. */
export type FinalReportSource = 'tool' | 'xml' | 'text_fallback' | 'synthetic';

/** agent-contract.md §5: the report that ends a session. */
export interface PlannerFinalReport {
  /** `success` when the model wrote it (tool, XML slot or text fallback); `failure` when the runtime made it up. */
  status: 'success' | 'failure';
  format: ReportFormat;
  /** The report text (for `json`, the JSON text of `content_json`). */
  content: string;
  /** The JSON report object, for the `json` format. */
  content_json?: JsonObject;
  /** When the report was captured, ms since the epoch. */
  ts: number;
  /** Model-provided metadata; for synthetic reports `{ reason }` (e.g. `max_turns_exhausted`). */
  metadata: JsonObject;
  source: FinalReportSource;
}

/** §4: one LLM request (every attempt, retries included). */
export interface LlmAccountingEntry {
  type: 'llm';
  provider: string;
  model: string;
  status: 'ok' | 'failed';
  /** Request duration, ms. */
  latency: number;
  tokens: { inputTokens: number; outputTokens: number; cachedTokens?: number; totalTokens: number };
  /** Start of the request, ms since the epoch. */
  timestamp: number;
  error?: string;
  costUsd?: number;
  /** The model that answered, when it differs from the requested one. */
  actualModel?: string;
  stopReason?: StopReason;
  /** The target's display name, e.g. `openai:gpt-4.1-mini`. */
  target: string;
}

/** §4: one tool execution (validation rejects included: the executor saw them). */
export interface ToolAccountingEntry {
  type: 'tool';
  /** Where the tool ran: `sextant` (the local executor) or the configured name of the MCP server it belongs to. */
  mcpServer: string;
  /** Tool name. */
  command: string;
  status: 'ok' | 'failed';
  latency: number;
  timestamp: number;
  /** Characters of the invocation JSON. */
  charactersIn: number;
  /** Characters of the response the model received. */
  charactersOut: number;
  error?: string;
  requestId?: string;
  /** `xml` when the call travelled in an XML slot. */
  source?: 'native' | 'xml';
  /** Context guard drops: the estimate of the dropped output and of the stub that replaced it. */
  originalTokens?: number;
  replacementTokens?: number;
  /** The queue the execution waited in (agent-contract.md §1 "MCP Tool Queues"). */
  queue?: string;
  /** Executions already waiting in that queue when this one arrived. */
  queueDepth?: number;
  /** How long it waited for a slot, ms. */
  queueWaitMs?: number;
}

export type AccountingEntry = LlmAccountingEntry | ToolAccountingEntry;

/** agent-contract.md §2's `AIAgentResult`, as the planner returns it. */
export interface PlannerSessionResult {
  success: boolean;
  /** Fatal errors (auth, quota, cancellation, nothing to talk to): what went wrong. No secrets. */
  error?: string;
  /** The failure kind behind `error`. */
  errorKind?: ProviderFailureKind | 'no_targets' | 'unsupported_provider';
  finalReport?: PlannerFinalReport;
  /** The permanent conversation: system, user, then assistant (with `tool_calls`) and `tool` (with `tool_call_id`). */
  conversation: ChatMessage[];
  accounting: AccountingEntry[];
  /** Turns used (LLM request/response cycles). */
  turns: number;
  /** The session nonce (XML slots and request ids derive from it). */
  nonce: string;
}

/** How a turn's invocation passed or failed validation. */
export type InvocationValidation = { ok: true; warnings: ToolWarning[] } | { ok: false; errors: ToolError[]; warnings: ToolWarning[] };

/** Why the tool list was cut down to `agent__final_report`. */
export type ForcedFinalReason = 'context' | 'max_turns' | 'final_report_failed';

interface EventBase {
  /** Position in the recording, from 1. */
  seq: number;
  /** ms since the epoch, from the injected clock. */
  ts: number;
}

/**
 * The step recording: every event, in order. The UI's timeline renders these; a run is replayed
 * from them. Texts from models and captures inside them are data, to be rendered as text.
 */
export type PlannerEvent = EventBase &
  (
    | { type: 'session_started'; question: string; settings: PlannerSettings; targets: string[]; nonce: string }
    /** Discover: the tool definitions exactly as offered, with their token estimate (ceil(UTF-8 bytes / 4)). */
    | {
        type: 'discover';
        definitions: InternalToolDefinition[];
        tokenEstimate: number;
        estimator: string;
        captures: string[];
        problems: Array<{ tool: string; version: string; problems: Array<{ field: string; message: string }> }>;
      }
    | { type: 'turn_started'; turn: number; forcedFinal: ForcedFinalReason | null; tools: string[] }
    /** One LLM attempt about to be sent: the context guard's numbers and the ephemeral notices that ride along. */
    | {
        type: 'llm_request';
        turn: number;
        attempt: number;
        target: string;
        provider: string;
        model: string;
        tools: string[];
        ctxTokens: number;
        pendingTokens: number;
        schemaTokens: number;
        expectedTokens: number;
        notices: string[];
      }
    | {
        type: 'llm_response';
        turn: number;
        attempt: number;
        target: string;
        model: string;
        latencyMs: number;
        usage: TokenUsage;
        stopReason: StopReason;
        text: string;
        reasoning?: string;
        toolCalls: ChatToolCall[];
        /** Ids of `toolCalls` extracted from the reply's text (the model sent no native calls). */
        extractedFromText?: string[];
        /** Set when the response was not used: `empty`, `xml_final_truncated`. */
        ignored?: string;
      }
    | { type: 'llm_failure'; turn: number; attempt: number; target: string; latencyMs: number; failure: ProviderFailure; fatal: boolean; waitMs: number }
    | {
        type: 'context_guard';
        turn: number;
        where: 'tool_preflight' | 'turn_preflight' | 'post_shrink';
        projectedTokens: number;
        limitTokens: number;
        target: string;
        action: 'forced_final' | 'tool_dropped' | 'proceed_best_effort';
      }
    /** Calls the model sent that never became invocations (over the per-turn limit, unreadable arguments, ignored XML tags). */
    | { type: 'calls_dropped'; turn: number; calls: Array<{ id: string; name: string; reason: string; rawArguments?: string }> }
    /** An invocation entering validation. `argumentsRepaired`: jsonrepair fixed its JSON (both texts kept). */
    | {
        type: 'invocation';
        turn: number;
        callId: string;
        requestId: string;
        toolName: string;
        invocation: JsonObject;
        source: 'model' | 'offline_repairer';
        argumentsRepaired: boolean;
        rawArguments?: string;
        repairedArguments?: string;
      }
    | { type: 'validation'; turn: number; callId: string; requestId: string; validation: InvocationValidation }
    /** A regenerated invocation beside the failed one, with the errors that drove it. */
    | {
        type: 'repair';
        turn: number;
        callId: string;
        failed: JsonObject;
        regenerated: JsonObject;
        errors: ToolError[];
        source: 'model' | 'offline_repairer';
        changes: RepairChange[];
      }
    /**
     * An execution's outcome: the executor's record (null when nothing reached the executor),
     * the result, and the text the model received (after truncation or the context stub).
     */
    | {
        type: 'execution';
        turn: number;
        callId: string;
        requestId: string;
        toolName: string;
        record: ExecutionRecord | null;
        result: ToolResult;
        /** What the model received for this call: the result's digest (truncated to toolResponseMaxBytes when over it). */
        modelContent: string;
        /** UTF-8 bytes of `modelContent`. */
        modelContentBytes?: number;
        timedOut: boolean;
        truncated: { originalBytes: number; limitBytes: number } | null;
        /** The result was reused from an identical invocation that already passed (never re-executed). */
        reusedFrom: string | null;
        droppedForContext: boolean;
      }
    | { type: 'final_report_rejected'; turn: number; callId: string; errors: string[]; payload: JsonValue }
    | { type: 'final_report'; report: PlannerFinalReport }
    | { type: 'warning'; turn: number; message: string }
    | { type: 'session_finished'; success: boolean; turns: number; error?: string }
  );

export type PlannerEventType = PlannerEvent['type'];
