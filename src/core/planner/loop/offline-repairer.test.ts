import { describe, expect, it } from 'vitest';
import type { ToolError } from '../../contract/tool-error.ts';
import { correctedPlanExample, invalidPlanExample, invalidPlanExpectedResult } from '../../examples/spec-examples.ts';
import { demoCatalog } from '../../executor/test-support.ts';
import { regressionManifest } from '../../tools/regression/manifest.ts';
import type { JsonObject } from '../../util/json.ts';
import { repairInvocationOffline, type RepairContext } from './offline-repairer.ts';

const captures = demoCatalog().list();
const context = (question: string): RepairContext => ({ question, captures, manifest: regressionManifest });
const clone = <T>(value: T): T => structuredClone(value);
const regression = (): JsonObject => clone(correctedPlanExample[0]) as unknown as JsonObject;

describe('the offline repairer', () => {
  it('turns the specification invalid plan into the corrected plan', () => {
    const failed = clone(invalidPlanExample[0]) as unknown as JsonObject;
    const proposal = repairInvocationOffline(failed, invalidPlanExpectedResult.errors as ToolError[], context('does jitter explain latency on ch1?'));
    expect(proposal).not.toBeNull();
    const { request_id: _a, ...repaired } = proposal!.invocation;
    const { request_id: _b, ...expected } = correctedPlanExample[0];
    expect(repaired).toEqual(expected);
    expect(proposal!.changes).toEqual([
      { field: 'arguments.target', from: null, to: 'latency_ms', reason: "Filled from the question's words name the column latency_ms." },
      {
        field: 'capture_selection.selectors.time_range',
        from: { start_ms: 0, end_ms: 999999 },
        to: { start_ms: 0, end_ms: 120000 },
        reason: 'Clamped to the supported range 0-120000ms.',
      },
    ]);
    // The failed invocation is left as it was.
    expect(failed).toEqual(invalidPlanExample[0]);
  });

  it('reads whole words: "channels" does not name the channel column', () => {
    const failed = clone(invalidPlanExample[0]) as unknown as JsonObject;
    const question = 'On cap_2026_03_14_a, channels ch1 and ch2: does jitter explain latency?';
    const proposal = repairInvocationOffline(failed, invalidPlanExpectedResult.errors as ToolError[], context(question));
    expect((proposal!.invocation.arguments as JsonObject).target).toBe('latency_ms');
  });

  it('fills a missing argument from its schema default', () => {
    const failed = regression();
    delete (failed.arguments as JsonObject).alpha;
    const errors: ToolError[] = [{ code: 'MISSING_REQUIRED_ARGUMENT', field: 'arguments.alpha', message: 'arguments.alpha is required' }];
    expect((repairInvocationOffline(failed, errors, context('anything'))!.invocation.arguments as JsonObject).alpha).toBe(0.05);
  });

  it('swaps an unknown capture for a discovered one that holds the columns the arguments use', () => {
    const failed = regression();
    (failed.capture_selection as { capture_id: string }).capture_id = 'cap_missing';
    const errors: ToolError[] = [{ code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.capture_id', message: "Unknown capture 'cap_missing'; available: ..." }];
    const proposal = repairInvocationOffline(failed, errors, context('latency question'))!;
    expect((proposal.invocation.capture_selection as { capture_id: string }).capture_id).toBe('cap_2026_03_14_a');
  });

  it('swaps an unknown channel for one the question names, or drops it', () => {
    const failed = regression();
    ((failed.capture_selection as JsonObject).selectors as JsonObject).channels = ['ch1', 'ch9'];
    const errors: ToolError[] = [
      { code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.selectors.channels[1]', message: "Unknown channel 'ch9' in capture cap_2026_03_14_a; available: ch1, ch2, ch3, ch4" },
    ];
    const named = repairInvocationOffline(failed, errors, context('compare ch1 with ch3'))!;
    expect(((named.invocation.capture_selection as JsonObject).selectors as JsonObject).channels).toEqual(['ch1', 'ch3']);
    const dropped = repairInvocationOffline(failed, errors, context('latency please'))!;
    expect(((dropped.invocation.capture_selection as JsonObject).selectors as JsonObject).channels).toEqual(['ch1']);
    expect(dropped.changes[0]).toMatchObject({ from: 'ch9', to: null });
  });

  it('gives up (null) when an error is beyond it', () => {
    const errors: ToolError[] = [
      { code: 'MISSING_REQUIRED_ARGUMENT', field: 'arguments.target', message: 'arguments.target is required' },
      { code: 'UNKNOWN_ARGUMENT', field: 'arguments.colour', message: 'unknown' },
    ];
    expect(repairInvocationOffline(regression(), errors, context('latency'))).toBeNull();
    // No question word names a column: nothing to fill the target from.
    expect(repairInvocationOffline(regression(), errors.slice(0, 1), context('what is going on?'))).toBeNull();
  });
});
