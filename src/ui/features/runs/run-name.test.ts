import { describe, expect, it } from 'vitest';
import type { RunEntry } from '../../lib/stores/run-store.ts';
import { capturesOf, runMatches, runName } from './run-name.ts';

const invocation = (tool: string, selection: unknown, args: unknown = {}, requestId = 'req-1') => ({ tool_name: tool, tool_version: '1.0.0', capture_selection: selection, arguments: args, request_id: requestId, timeout_ms: 1000 });

const entry = (input: unknown, isPlan = Array.isArray(input)): RunEntry => ({ id: 7, input, isPlan, startedAt: new Date('2026-11-27T20:14:05Z'), state: 'done', progress: 1, records: [], durationMs: 10 });

describe('run names', () => {
  it('says tool, capture and operation for one invocation, in either selection shape', () => {
    expect(runName(entry(invocation('statistical_regression_tool', { capture_id: 'demo' }, { operation: 'anova' })))).toBe('statistical_regression_tool · demo · anova');
    expect(runName(entry(invocation('bluetooth_address_analyzer', { capture_ids: ['tesi_ble_nrf_capture'], time_window: {} })))).toBe('bluetooth_address_analyzer · tesi_ble_nrf_capture');
    expect(capturesOf(invocation('x', { capture_ids: ['a', 'b', 'c'] }))).toEqual(['a', 'b', 'c']);
    expect(runName(entry(invocation('x', { capture_ids: ['a', 'b', 'c'] })))).toBe('x · a + 2 more');
    expect(runName(entry('{ not json'))).toBe('unparsed input');
  });

  it('names a conformance check by its tool and case count, and counts a plan’s repeated tools', () => {
    const cases = Array.from({ length: 10 }, (_, index) => invocation('lookup_device_vendor', { capture_id: 'demo' }, {}, `conf-case-${index}`));
    expect(runName(entry(cases))).toBe('conformance: lookup_device_vendor, 10 cases');
    const plan = [invocation('a', { capture_id: 'demo' }), invocation('b', { capture_id: 'demo' }), invocation('a', { capture_id: 'demo' })];
    expect(runName(entry(plan))).toBe('plan of 3: a ×2, b');
  });

  it('filters on every word of name, status and id', () => {
    const run = entry(invocation('statistical_regression_tool', { capture_id: 'demo' }, { operation: 'anova' }));
    expect(runMatches(run, 'ok', 'anova demo')).toBe(true);
    expect(runMatches(run, 'ok', 'ANOVA error')).toBe(false);
    expect(runMatches(run, 'ok', '#7')).toBe(true);
    expect(runMatches(run, 'ok', '2026-11-27')).toBe(true);
    expect(runMatches(run, 'ok', '')).toBe(true);
  });
});
