import { describe, expect, it } from 'vitest';
import { bleExampleInvocation, invalidPlanExample } from '../../examples/spec-examples.ts';
import { PLANNER_DEMO_QUESTION, plannerDemoScript } from './planner-demo.ts';

type Entry = { tool_calls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>; usage?: unknown };

describe('the offline demo script', () => {
  it('opens with the specification invalid plan as a tool call, without tool_name and request_id', () => {
    const [first] = plannerDemoScript({ bleAnalyzer: false }) as Entry[];
    const call = first.tool_calls![0];
    const { tool_name, request_id, ...envelope } = invalidPlanExample[0];
    expect(call.name).toBe(tool_name);
    expect(call.arguments).toEqual(envelope);
    expect(call.arguments).not.toHaveProperty('request_id');
    expect(request_id).toBe('req-invalid-001');
    expect(call.arguments.arguments).not.toHaveProperty('target');
  });

  it('ends with agent__final_report in markdown, raw, and plays the BLE call only when the analyzer is installed', () => {
    const without = plannerDemoScript({ bleAnalyzer: false }) as Entry[];
    const withBle = plannerDemoScript({ bleAnalyzer: true }) as Entry[];
    expect(without.map((entry) => entry.tool_calls![0].name)).toEqual(['statistical_regression_tool', 'agent__final_report']);
    expect(withBle.map((entry) => entry.tool_calls![0].name)).toEqual(['statistical_regression_tool', 'bluetooth_address_analyzer', 'agent__final_report']);
    const ble = withBle[1].tool_calls![0].arguments;
    expect(ble.capture_selection).toEqual(bleExampleInvocation.capture_selection);
    const final = withBle[2].tool_calls![0].arguments;
    expect(final).toMatchObject({ report_format: 'markdown', encoding: 'raw' });
    expect(String(final.report_content)).toContain('offline repairer');
  });

  it('is plain JSON, and the question names what the repairer needs', () => {
    const script = plannerDemoScript({ bleAnalyzer: true });
    expect(JSON.parse(JSON.stringify(script))).toEqual(script);
    expect(PLANNER_DEMO_QUESTION).toContain('latency_ms');
    expect(PLANNER_DEMO_QUESTION).toContain('cap_2026_03_14_a');
    expect(PLANNER_DEMO_QUESTION).toContain('lab_floor_2026_04_03_a');
  });
});
