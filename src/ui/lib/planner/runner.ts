import { PLANNER_EVENT_SCHEMA_VERSION, type JsonValue, type PlannerSettings, type ProviderTarget, type StreamDelta } from '../../../core/index.ts';
import { keySlotOf, getKeyStore } from './keys.ts';
import { runPlannerLoop } from './loop-adapter.ts';
import { savePlannerRun, type PlannerRerun, type PlannerRunRecord, type PlannerTargetConfig } from './run-store.ts';
import { plannerEnvironment } from './runtime.ts';
import { toJson } from './json.ts';
import { redactSecrets } from './redact.ts';
import { keyringSecrets } from '../keyring/keyring.ts';

export interface StartPlannerRunInput {
  question: string;
  kind: PlannerRunRecord['kind'];
  targets: PlannerTargetConfig[];
  settings: PlannerRunRecord['settings'];
  offlineRepairer: boolean;
  /** Receives what each LLM request streams; nothing of it is recorded or saved. */
  stream?: PlannerStreamSink;
}

/** Where the streamed output of a run's requests goes (the page's live view). */
export interface PlannerStreamSink {
  /** A new LLM request began: what the previous one streamed is stale. */
  requestStarted(): void;
  delta(delta: StreamDelta): void;
  /** The request's response or failure is recorded and shown, or the run is over. */
  requestEnded(): void;
}

export interface PlannerRunHandle {
  id: string;
  /** Aborts the session: the in-flight request or tool is cancelled and the loop returns. */
  stop(): void;
  /** Settles when the run is over and saved. */
  done: Promise<void>;
}

function newRunId(): string {
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID().slice(0, 8) : Math.random().toString(36).slice(2, 10);
  return `plan-${Date.now().toString(36)}-${random}`;
}

/** The targets with their keys, looked up at the last moment and never recorded. */
function withKeys(targets: ReadonlyArray<PlannerTargetConfig>): ProviderTarget[] {
  const keys = getKeyStore();
  return targets.map((target) => {
    const slot = keySlotOf(target);
    const apiKey = slot === null ? undefined : keys.get(slot);
    return apiKey ? { ...target, apiKey } : { ...target };
  });
}

/**
 * The settings the loop takes from the page's effective values: numbers stay numbers, and a
 * context window that is not a number (`auto`) means the per-provider default.
 */
export function loopSettings(values: Record<string, number | string>): Partial<PlannerSettings> {
  const out: Record<string, number | string | null> = {};
  for (const [key, value] of Object.entries(values)) out[key] = key === 'contextWindow' && typeof value !== 'number' ? null : value;
  // Safe: the values come from the settings form, which checks each against its field's kind.
  return out as Partial<PlannerSettings>;
}

/**
 * Starts a planner session: records every event of the loop, saving the run before showing each
 * one, and the result at the end. Resolves its handle at once; the run goes on in the background.
 */
export function startPlannerRun(request: StartPlannerRunInput): PlannerRunHandle {
  // Identity keys from the keyring never reach a model, even pasted into the question.
  const input = { ...request, question: redactSecrets(request.question, keyringSecrets()) };
  const controller = new AbortController();
  const started = Date.now();
  const record: PlannerRunRecord = {
    id: newRunId(),
    startedAt: new Date(started).toISOString(),
    question: input.question,
    kind: input.kind,
    targets: input.targets,
    settings: input.settings,
    state: 'running',
    events: [],
    eventSchema: PLANNER_EVENT_SCHEMA_VERSION,
    result: null,
    reruns: [],
    durationMs: 0,
    offlineRepairer: input.offlineRepairer,
  };
  const snapshot = (): PlannerRunRecord => ({ ...record, events: [...record.events], durationMs: Date.now() - started });

  const stream = input.stream;
  // Counts requests, so the end of one that arrives after the next began is ignored.
  let requests = 0;

  const done = (async () => {
    await savePlannerRun(snapshot());
    try {
      const environment = await plannerEnvironment();
      const result = await runPlannerLoop({
        question: input.question,
        targets: withKeys(input.targets),
        settings: loopSettings(input.settings.values),
        offlineRepairer: input.offlineRepairer,
        environment,
        signal: controller.signal,
        onEvent: (event) => {
          record.events.push({ at: Date.now() - started, event: toJson(event) });
          const saved = savePlannerRun(snapshot());
          if (!stream) return;
          if (event.type === 'llm_request') {
            requests += 1;
            stream.requestStarted();
          } else if (event.type === 'llm_response' || event.type === 'llm_failure') {
            // The live text goes once the recorded step is shown, so the answer never blinks out.
            const request = requests;
            const end = () => {
              if (request === requests) stream.requestEnded();
            };
            void saved.then(end, end);
          }
        },
        ...(stream ? { onDelta: (delta: StreamDelta) => stream.delta(delta) } : {}),
      });
      record.result = result;
    } catch (error) {
      // The loop returns failures as values; reaching here is a bug, still shown as a failed run.
      record.result = { success: false, error: `The planner stopped unexpectedly: ${error instanceof Error ? error.message : String(error)}`, accounting: [], conversation: [] };
    }
    // A stopped run may end mid-stream; nothing streams any more.
    stream?.requestEnded();
    record.state = controller.signal.aborted ? 'stopped' : 'done';
    await savePlannerRun(snapshot());
  })();

  return { id: record.id, stop: () => controller.abort(), done };
}

/**
 * Validates and executes again the given invocations, each with a fresh request id, with no
 * model involved; appends the outcome to the run as a re-run and saves it.
 */
export async function rerunInvocations(run: PlannerRunRecord, invocations: ReadonlyArray<JsonValue>): Promise<PlannerRerun> {
  const environment = await plannerEnvironment();
  const steps: PlannerRerun['steps'] = [];
  for (const invocation of invocations) {
    const envelope = typeof invocation === 'object' && invocation !== null && !Array.isArray(invocation) ? invocation : {};
    const originalRequestId = typeof envelope.request_id === 'string' ? envelope.request_id : null;
    const fresh = { ...envelope, request_id: `req-${crypto.randomUUID()}` };
    const executed = await environment.executor.execute(fresh);
    steps.push({ originalRequestId, invocation: fresh, record: executed });
  }
  const rerun: PlannerRerun = { at: new Date().toISOString(), steps };
  await savePlannerRun({ ...run, reruns: [...run.reruns, rerun] });
  return rerun;
}
