import type { QueueSet } from '../../util/work-queue.ts';
import type { ToolManifest } from '../../contract/types.ts';
import type { CaptureInfo } from '../../data/capture.ts';
import type { Executor } from '../../executor/executor.ts';
import type { DigestingTool } from '../../tools/result-digest.ts';
import type { ChatMessage, LlmProvider, PlannerClock, StreamDelta } from '../provider-types.ts';
import { SessionAccounting } from './accounting.ts';
import type { InvocationRepairer } from './offline-repairer.ts';
import { plannerSettingsWith, type PlannerSettings } from './planner-settings.ts';
import type { ForcedFinalReason, PlannerEvent, PlannerSessionResult } from './session-types.ts';
import { discoverTools, estimateJsonTokens, type ToolDiscovery } from './tool-definitions.ts';

/** Everything one planner session needs. The core reads no clock, timer or environment of its own. */
export interface PlannerSessionOptions {
  question: string;
  /** The provider targets, in order: attempt N of a turn goes to `targets[(N-1) % length]`. */
  targets: ReadonlyArray<LlmProvider>;
  executor: Executor;
  /** The installed manifests (every version); each name becomes one tool. */
  manifests: ReadonlyArray<ToolManifest>;
  /** The discovered captures: shown to the model as data, and used by the offline repairer. */
  captures: ReadonlyArray<CaptureInfo>;
  settings?: Partial<PlannerSettings>;
  clock: PlannerClock;
  signal?: AbortSignal;
  /** The step recording, event by event (a throwing listener is ignored). */
  onEvent?: (event: PlannerEvent) => void;
  /** Streaming output of the current request, for a live view. */
  onDelta?: (delta: StreamDelta) => void;
  /** Fixes failed invocations before the model sees them (the offline repairer). */
  repairer?: InvocationRepairer;
  /** Session nonce (8 hex digits by default, random); tests fix it. */
  nonce?: string;
  /** A tool's digest by name (the registry's newest implementation); the generic digest otherwise. */
  digestFor?: (toolName: string) => DigestingTool | undefined;
  /** The executor's minimum `timeout_ms` (default: the runtime's 1000 ms). */
  minTimeoutMs?: number;
  /**
   * The queues tool executions wait in (built from `queues.<name>.concurrent`, bindings checked at
   * start-up); default: one `default` queue running one execution at a time.
   */
  queues?: QueueSet;
  /** The queue a tool is bound to; the default queue when absent. */
  queueFor?: (toolName: string) => string;
  /** The MCP server a tool runs on (its accounting entries' `mcpServer`); `sextant` when absent or undefined. */
  mcpServerFor?: (toolName: string) => string | undefined;
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type UnstampedEvent = DistributiveOmit<PlannerEvent, 'seq' | 'ts'>;

function randomNonce(): string {
  const bytes = new Uint8Array(4);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The state one session's modules share: settings, nonce, discovered tools, the conversation, the
 * token counts the context guard reads, the forced-final state, accounting and the event stream.
 */
export class SessionCore {
  readonly settings: PlannerSettings;
  readonly nonce: string;
  readonly discovery: ToolDiscovery;
  readonly conversation: ChatMessage[] = [];
  readonly accounting: SessionAccounting;
  turn = 0;
  /** Provider-reported context after the last response (input + output tokens). */
  ctxTokens = 0;
  /** Estimated tokens of messages appended since the last request. */
  pendingTokens = 0;
  forcedFinal: ForcedFinalReason | null = null;
  toolBudgetExceeded = false;
  /** The first free XML slot number. */
  nextSlot = 1;
  /** Notices for the next turn's request (ephemeral). */
  nextNotices: string[] = [];
  finalReportRejectedInTurn = 0;
  private seq = 0;
  private requestCount = 0;

  constructor(readonly options: PlannerSessionOptions) {
    this.settings = plannerSettingsWith(options.settings);
    this.nonce = options.nonce ?? randomNonce();
    this.discovery = discoverTools(options.manifests, { toolTimeoutMs: this.settings.toolTimeout, reportFormat: this.settings.reportFormat });
    this.accounting = new SessionAccounting(() => options.clock.now(), options.mcpServerFor);
  }

  now(): number {
    return this.options.clock.now();
  }

  /** True once the caller stopped the session (cancellation is a value: callers return, nothing throws). */
  cancelled(): boolean {
    return this.options.signal?.aborted === true;
  }

  commit(message: ChatMessage): void {
    this.conversation.push(message);
    // The system prompt and the question count as pending for the first request; later the
    // assistant's own message is inside the provider's output count.
    if (message.role !== 'assistant') this.pendingTokens += estimateJsonTokens(message);
  }

  emit(event: UnstampedEvent): void {
    this.seq += 1;
    const full = { ...event, seq: this.seq, ts: this.now() } as PlannerEvent;
    try {
      this.options.onEvent?.(full);
    } catch {
      // A listener's failure must not end the session.
    }
  }

  label(provider: LlmProvider): string {
    return provider.target.label ?? `${provider.target.provider}:${provider.target.model}`;
  }

  newRequestId(): string {
    this.requestCount += 1;
    return `req-${this.nonce}-${String(this.requestCount).padStart(4, '0')}`;
  }

  result(partial: Partial<PlannerSessionResult>): PlannerSessionResult {
    return {
      success: false,
      conversation: this.conversation,
      accounting: this.accounting.entries,
      turns: Math.min(this.turn, this.settings.maxTurns),
      nonce: this.nonce,
      ...partial,
    };
  }
}
