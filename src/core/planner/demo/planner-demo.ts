import { bleExampleInvocation, invalidPlanExample } from '../../examples/spec-examples.ts';
import type { JsonObject, JsonValue } from '../../util/json.ts';

/**
 * The built-in offline demo: a question and the script a scripted provider replays for it. It
 * plays tool-contract.md's end-to-end example: the model proposes the specification's invalid
 * regression plan, validation rejects it with MISSING_REQUIRED_ARGUMENT and
 * UNSUPPORTED_TIME_RANGE, the offline repairer fixes it (no model involved), the corrected
 * invocation runs on `cap_2026_03_14_a`, then a BLE question on the demo captures, then the final
 * report. Pure data: the app and the command-line runner both use it.
 */

/** The demo's question. Its words carry what the offline repairer needs (the target `latency_ms`). */
export const PLANNER_DEMO_QUESTION =
  'On capture cap_2026_03_14_a, channels ch1 and ch2: does jitter (with snr and packet loss) explain latency_ms? ' +
  'Then, on the demo captures lab_floor_2026_04_03_a and lab_floor_2026_04_03_b: which of the advertising addresses are the same phone?';

/** The tool the BLE step calls; the demo includes that step only when it is installed. */
export const PLANNER_DEMO_BLE_TOOL = 'bluetooth_address_analyzer';

/** The scripted target's model name, shown in the timeline and accounting. */
export const PLANNER_DEMO_MODEL = 'offline-demo';

export interface PlannerDemoOptions {
  /**
   * Include the BLE question's tool call. Pass whether `bluetooth_address_analyzer` is installed:
   * without it the call would only fail validation with UNKNOWN_TOOL.
   */
  bleAnalyzer: boolean;
}

/** A tool call's arguments as the model sends them: the envelope without `tool_name` and `request_id` (the runtime fills those). */
function callArguments(invocation: { [key: string]: unknown }): JsonObject {
  const { tool_name: _toolName, request_id: _requestId, ...rest } = invocation;
  // Safe: the specification examples are plain JSON literals.
  return rest as JsonObject;
}

const usage = (inputTokens: number, outputTokens: number): JsonObject => ({ input_tokens: inputTokens, output_tokens: outputTokens });

function finalReport(bleAnalyzer: boolean): string {
  const lines = [
    '# Latency on cap_2026_03_14_a',
    '',
    'The first plan was rejected before anything ran: `arguments.target` was missing (MISSING_REQUIRED_ARGUMENT) and the time range 0–999999 ms ran past the capture (UNSUPPORTED_TIME_RANGE). ' +
      'The offline repairer set the target to `latency_ms` from the question and clamped the range to the 0–120000 ms the capture supports; the corrected regression then ran.',
    '',
    '- See the regression result above for the coefficients, p-values and R² of snr, jitter and packet_loss against latency_ms on ch1 and ch2.',
    '- A coefficient whose p-value is below 0.05 is evidence that the feature explains latency on these channels.',
  ];
  if (bleAnalyzer) {
    lines.push(
      '',
      '# Addresses on lab_floor_2026_04_03_a and _b',
      '',
      'See the bluetooth_address_analyzer result above: addresses it links into one cluster with high confidence are most likely the same phone rotating its resolvable private address.',
    );
  } else {
    lines.push('', '_The BLE question was skipped: bluetooth_address_analyzer is not installed in this build._');
  }
  lines.push('', 'This report was written by the offline demo script, not by a language model.');
  return lines.join('\n');
}

/**
 * The scripted provider's JSON array for the demo, one entry per LLM request: the invalid
 * regression call, then (optionally) the BLE call, then `agent__final_report`. The repair between
 * the first two needs no entry: the offline repairer does it without a request.
 */
export function plannerDemoScript(options: PlannerDemoOptions): JsonValue[] {
  const regression = invalidPlanExample[0];
  const script: JsonValue[] = [
    {
      text: 'I will fit a linear regression of latency on snr, jitter and packet loss over channels ch1 and ch2.',
      tool_calls: [{ id: 'call_demo_regression', name: regression.tool_name, arguments: callArguments(regression) }],
      usage: usage(1240, 96),
    },
  ];
  if (options.bleAnalyzer) {
    script.push({
      text: 'Now the address question on the two lab-floor captures.',
      tool_calls: [{ id: 'call_demo_ble', name: bleExampleInvocation.tool_name, arguments: callArguments(bleExampleInvocation) }],
      usage: usage(1890, 142),
    });
  }
  script.push({
    tool_calls: [
      {
        id: 'call_demo_final',
        name: 'agent__final_report',
        arguments: { report_format: 'markdown', report_content: finalReport(options.bleAnalyzer), encoding: 'raw' },
      },
    ],
    usage: usage(options.bleAnalyzer ? 2630 : 1950, 310),
  });
  return script;
}
