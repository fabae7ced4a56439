import type { ToolManifest } from '../../contract/types.ts';
import type { ToolImplementation } from '../tool.ts';

/**
 * `test_echo`: a diagnostic tool that exercises every runtime limit through the real executor.
 * Registered only when test tools are enabled (the runner's `--enable-test-tools`, the app's
 * developer setting); never part of a normal installation.
 */
export const testEchoManifest: ToolManifest = {
  name: 'test_echo',
  version: '1.0.0',
  description: 'Diagnostic tool: echoes text, returns a payload of a chosen size, busy-waits, or fails on request.',
  capabilities: ['diagnostics'],
  input_schema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'Echoed as the result summary.' },
      bytes: { type: 'integer', minimum: 0, maximum: 10_000_000, description: 'Return this many # characters.' },
      sleep_ms: { type: 'integer', minimum: 0, description: 'Busy-wait this long (blocks the thread, as runaway computation does).' },
      fail: { type: 'string', description: 'Throw an error with this message.' },
    },
    additionalProperties: false,
  },
  output_schema: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      payload: { type: 'string' },
      rows_selected: { type: 'integer', minimum: 0 },
    },
    required: ['text', 'payload', 'rows_selected'],
    additionalProperties: false,
  },
  execution_constraints: { max_timeout_ms: 60_000, max_payload_bytes: 65_536, supports_streaming: false, side_effects: 'none' },
  cost_hint: { unit: 'call', estimated_cost: 0, currency: 'credits' },
  deterministic: true,
};

export const testEchoTool: ToolImplementation = {
  manifest: testEchoManifest,
  run(args, context) {
    const sleepMs = typeof args.sleep_ms === 'number' ? args.sleep_ms : 0;
    const deadline = performance.now() + sleepMs;
    while (performance.now() < deadline) {
      // Deliberately blocking: only a runner that terminates the thread can stop this.
    }
    if (typeof args.fail === 'string') throw new Error(args.fail);
    const text = typeof args.text === 'string' ? args.text : '';
    const bytes = typeof args.bytes === 'number' ? args.bytes : 0;
    context.reportProgress(1);
    return {
      status: 'ok',
      summary: text === '' ? 'test_echo finished.' : text,
      structured_output: { text, payload: '#'.repeat(bytes), rows_selected: context.selection.rowCount },
      confidence: 1,
    };
  },
};
