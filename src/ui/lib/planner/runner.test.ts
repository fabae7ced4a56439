import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlannerEvent, StreamDelta } from '../../../core/index.ts';
import type { PlannerLoopInput } from './loop-adapter.ts';
import type { PlannerRunResult } from './run-store.ts';
import { startPlannerRun, type PlannerStreamSink } from './runner.ts';

const harness = vi.hoisted(() => ({
  loop: null as null | { input: PlannerLoopInput; finish: (result: PlannerRunResult) => void },
  saves: [] as Array<{ events: number; resolve: () => void }>,
}));

vi.mock('./runtime.ts', () => ({ plannerEnvironment: async () => ({}) }));
vi.mock('./loop-adapter.ts', () => ({
  runPlannerLoop: (input: PlannerLoopInput) => new Promise<PlannerRunResult>((finish) => (harness.loop = { input, finish })),
}));
vi.mock('./run-store.ts', () => ({
  // Each save waits until the test lets it through, as a slow IndexedDB write would.
  savePlannerRun: (run: { events: unknown[] }) => new Promise<void>((resolve) => harness.saves.push({ events: run.events.length, resolve })),
}));

const event = (value: Record<string, unknown>) => value as unknown as PlannerEvent;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function sink() {
  const calls: string[] = [];
  const stream: PlannerStreamSink = {
    requestStarted: () => calls.push('started'),
    delta: (delta: StreamDelta) => calls.push(`delta:${delta.kind === 'tool_call' ? delta.name : delta.text}`),
    requestEnded: () => calls.push('ended'),
  };
  return { calls, stream };
}

async function started(stream: PlannerStreamSink) {
  const handle = startPlannerRun({ question: 'q', kind: 'live', targets: [], settings: { values: {}, layers: {} }, offlineRepairer: false, stream });
  harness.saves[0].resolve();
  await flush();
  return { handle, loop: harness.loop! };
}

beforeEach(() => {
  harness.loop = null;
  harness.saves = [];
});

describe('startPlannerRun streaming', () => {
  it('passes deltas to the page without recording or saving them', async () => {
    const { calls, stream } = sink();
    const { loop } = await started(stream);
    loop.input.onEvent(event({ type: 'llm_request', turn: 1, attempt: 1 }));
    const savesBefore = harness.saves.length;
    for (const text of ['a', 'b', 'c']) loop.input.onDelta?.({ kind: 'text', text });
    loop.input.onDelta?.({ kind: 'tool_call', id: 'x', name: 'statistical_regression_tool' });
    expect(harness.saves.length).toBe(savesBefore);
    expect(calls).toEqual(['started', 'delta:a', 'delta:b', 'delta:c', 'delta:statistical_regression_tool']);
  });

  it('ends the live output once the response is saved, and ignores the end of a request another has replaced', async () => {
    const { calls, stream } = sink();
    const { loop, handle } = await started(stream);
    loop.input.onEvent(event({ type: 'llm_request', turn: 1, attempt: 1 }));
    loop.input.onEvent(event({ type: 'llm_response', turn: 1, attempt: 1 }));
    await flush();
    expect(calls).toEqual(['started']);
    const responseSave = harness.saves.at(-1)!;
    // The next request begins before the first response's save completes.
    loop.input.onEvent(event({ type: 'llm_request', turn: 2, attempt: 1 }));
    responseSave.resolve();
    await flush();
    expect(calls).toEqual(['started', 'started']);

    loop.input.onEvent(event({ type: 'llm_failure', turn: 2, attempt: 1 }));
    harness.saves.at(-1)!.resolve();
    await flush();
    expect(calls).toEqual(['started', 'started', 'ended']);

    loop.finish({ success: true, accounting: [], conversation: [] });
    await flush();
    harness.saves.at(-1)!.resolve();
    await handle.done;
    expect(calls.at(-1)).toBe('ended');
  });
});

describe('startPlannerRun and identity keys', () => {
  it('never passes a keyring key to the model, in either byte order', async () => {
    const { getKeyring } = await import('../keyring/keyring.ts');
    await getKeyring().addManual('phone', '267483cba09b720412251bd6638d40b7');
    startPlannerRun({
      question: 'Resolve with 267483cba09b720412251bd6638d40b7 or B7408D63D61B251204729BA0CB837426 please',
      kind: 'live',
      targets: [],
      settings: { values: {}, layers: {} },
      offlineRepairer: false,
    });
    harness.saves[0].resolve();
    await flush();
    expect(harness.loop!.input.question).toBe('Resolve with [redacted] or [redacted] please');
  });
});
