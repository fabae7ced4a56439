import { checkPlannerEvent, type ExecutionRecord, type JsonValue, type ProviderKind, type RecordedEvent } from '../../../core/index.ts';
import { getKeyStore } from './keys.ts';
import { keyringSecrets } from '../keyring/keyring.ts';
import { containsNoSecret, redactSecrets } from './redact.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { createExternalStore, useExternalStore } from '../stores/external-store.ts';

/** A provider target as a run records it: everything but the key. */
export interface PlannerTargetConfig {
  provider: ProviderKind;
  model: string;
  baseUrl?: string;
  contextWindow?: number;
  /** The scripted provider's JSON array. */
  script?: JsonValue;
  label?: string;
}

/** One event of the loop's recording, with when it happened (core's type). */
export type { RecordedEvent };

/** A re-run of a run's failed invocations: executed again with fresh request ids, no model involved. */
export interface PlannerRerun {
  at: string;
  steps: Array<{ originalRequestId: string | null; invocation: JsonValue; record: ExecutionRecord }>;
}

/** The session result with the contract's names (agent-contract §2, §4, §5, §6). */
export interface PlannerRunResult {
  success: boolean;
  error?: string;
  /** The failure kind behind `error` (`auth`, `quota`, `cancelled`, …). */
  errorKind?: string;
  finalReport?: JsonValue;
  turns?: number;
  accounting: JsonValue[];
  conversation: JsonValue[];
}

/** A Planner page run: saved after every event, exported whole, replayed from `events`. Never holds a key. */
export interface PlannerRunRecord {
  id: string;
  startedAt: string;
  question: string;
  /** `demo`: the built-in offline demo. */
  kind: 'live' | 'demo';
  targets: PlannerTargetConfig[];
  /** The effective settings and the layer each came from. */
  settings: { values: Record<string, number | string>; layers: Record<string, string> };
  state: 'running' | 'done' | 'stopped';
  /** The offline repairer was allowed to fix failed invocations. */
  offlineRepairer?: boolean;
  events: RecordedEvent[];
  /** The event schema the events were recorded with (core's PLANNER_EVENT_SCHEMA_VERSION); absent in runs saved before it existed (version 1). */
  eventSchema?: number;
  /** Why a restored run shows less than it recorded (events the schema refused). */
  readProblems?: string[];
  result: PlannerRunResult | null;
  reruns: PlannerRerun[];
  durationMs: number;
  /** Why the last save failed, when it did (the run is still shown). */
  saveProblem?: string;
}

const runs = createExternalStore<PlannerRunRecord[]>([]);

function put(run: PlannerRunRecord): void {
  const others = runs.get().filter((entry) => entry.id !== run.id);
  runs.set([run, ...others].sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id)));
}

/** Strips keys and anything echoing one: the form a run takes whenever it leaves memory. */
export function exportablePlannerRun(run: PlannerRunRecord): PlannerRunRecord {
  const { saveProblem: _saveProblem, ...rest } = run;
  return redactSecrets(rest, [...getKeyStore().allKeys(), ...keyringSecrets()]);
}

/** Per run: the newest snapshot not yet saved, and the save loop working through them. */
const unsaved = new Map<string, PlannerRunRecord>();
const saving = new Map<string, Promise<void>>();

/**
 * Saves the run in the workspace, then shows it: what the user has seen survives a reload. Saves
 * of one run happen one at a time, and a snapshot superseded while another was being saved is
 * skipped for the newer one: every save copies, redacts and checks the whole record (results
 * included), and the loop emits events faster than storage answers (issue 15: no main-thread
 * task over 50 ms during the offline demo). Resolves once a snapshot at least this new is saved.
 */
export function savePlannerRun(run: PlannerRunRecord): Promise<void> {
  unsaved.set(run.id, run);
  let loop = saving.get(run.id);
  if (!loop) {
    loop = saveNewest(run.id);
    saving.set(run.id, loop);
  }
  return loop;
}

async function saveNewest(id: string): Promise<void> {
  try {
    for (let run = unsaved.get(id); run; run = unsaved.get(id)) {
      unsaved.delete(id);
      const saveProblem = await store(exportablePlannerRun(run));
      // The page shows the run itself (it holds no key: targets are recorded without theirs), so
      // unchanged events keep their identity and their views are not rebuilt on every save.
      const { saveProblem: _stale, ...shown } = run;
      put(saveProblem ? { ...shown, saveProblem } : shown);
    }
  } finally {
    saving.delete(id);
  }
}

async function store(run: PlannerRunRecord): Promise<string | undefined> {
  const workspace = await getWorkspace();
  if (!workspace) return 'The browser offers no storage here';
  // Safe: a PlannerRunRecord is plain JSON (ExecutionRecords included).
  const saved = await workspace.savePlannerRun({ id: run.id, startedAt: run.startedAt, record: run as unknown as JsonValue });
  return saved.ok ? undefined : saved.error.message;
}

export async function deletePlannerRun(id: string): Promise<void> {
  const workspace = await getWorkspace();
  await workspace?.deletePlannerRun(id);
  runs.update((current) => current.filter((entry) => entry.id !== id));
}

let restoring: Promise<void> | null = null;

/** The recorded events core's event schema accepts (for the version they were recorded with), and why the others were left out. */
export function checkRecordedEvents(events: ReadonlyArray<unknown>, version: number): { events: RecordedEvent[]; problems: string[] } {
  const kept: RecordedEvent[] = [];
  const problems: string[] = [];
  for (const [index, item] of events.entries()) {
    const at = typeof item === 'object' && item !== null ? (item as { at?: unknown }).at : undefined;
    const checked = checkPlannerEvent(typeof item === 'object' && item !== null ? (item as { event?: unknown }).event : undefined, version);
    if (typeof at === 'number' && checked.ok) kept.push(item as RecordedEvent);
    else problems.push(`event ${index}: ${checked.ok ? 'no time' : checked.problem}`);
  }
  return { events: kept, problems };
}

/** Loads the planner runs saved in the workspace, once. */
export function restorePlannerRuns(): Promise<void> {
  restoring ??= (async () => {
    const workspace = await getWorkspace();
    const stored = workspace ? await workspace.listPlannerRuns({ limit: 200 }) : null;
    if (!stored?.ok) return;
    const known = new Set(runs.get().map((entry) => entry.id));
    for (const entry of stored.value) {
      // Written by savePlannerRun; each event is checked against its recorded event schema below.
      const record = entry.record as unknown as PlannerRunRecord;
      if (known.has(entry.id) || !Array.isArray(record.events)) continue;
      const { events, problems } = checkRecordedEvents(record.events, record.eventSchema ?? 1);
      // A run still marked running was cut off by a reload: it is over now.
      put({ ...record, events, ...(problems.length > 0 ? { readProblems: problems } : {}), state: record.state === 'running' ? 'stopped' : record.state, reruns: record.reruns ?? [] });
    }
  })();
  return restoring;
}

export function getPlannerRun(id: string): PlannerRunRecord | undefined {
  return runs.get().find((entry) => entry.id === id);
}

export function usePlannerRuns(): PlannerRunRecord[] {
  return useExternalStore(runs);
}

/** The run as a JSON file's text; refuses to produce one that mentions a known key. */
export function plannerRunJson(run: PlannerRunRecord): string {
  const text = JSON.stringify(exportablePlannerRun(run), null, 2);
  if (!containsNoSecret(text, [...getKeyStore().allKeys(), ...keyringSecrets()])) throw new Error('The export still mentions an API key or an identity key; nothing was exported');
  return text;
}
