import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../contract/types.ts';
import { bleExampleInvocation, correctedPlanExample, regressionExampleInvocation } from '../../examples/spec-examples.ts';
import { testExecutor } from '../../executor/test-support.ts';
import { compactJson, digestToolResult, genericDigest } from '../../tools/result-digest.ts';
import { digestBleOutput } from '../../tools/ble-analyzer/tool/digest.ts';
import type { JsonObject } from '../../util/json.ts';
import { modelContentOf } from './planner-session.ts';
import { DEFAULT_PLANNER_SETTINGS } from './planner-settings.ts';
import { plannerSystemPrompt } from './system-prompt.ts';
import { discoverTools, estimateJsonTokens, utf8ByteLength } from './tool-definitions.ts';

/**
 * The size goals of issue 12, measured and printed: the §4 regression's tool message ≤ 4 KB (and
 * valid JSON), the §7.4 BLE result ≤ 8 KB, the system prompt plus the three tool definitions ≤
 * 2,500 tokens by the context guard's own estimator.
 */

const { executor, registry } = testExecutor();
const tool = (name: string) => registry.latest(name);

async function run(invocation: unknown): Promise<ToolResult> {
  return (await executor.execute(invocation)).result;
}

describe('what the model reads of a result', () => {
  it('§4 regression: a complete digest of at most 4 KB of valid JSON', async () => {
    for (const invocation of [regressionExampleInvocation, correctedPlanExample[0]]) {
      const result = await run(invocation);
      expect(result.status).toBe('ok');
      const content = modelContentOf(result, tool('statistical_regression_tool'));
      const bytes = utf8ByteLength(content);
      console.info(`§4 regression tool message: ${bytes} bytes (full ToolResult ${utf8ByteLength(JSON.stringify(result))} bytes)`);
      expect(bytes).toBeLessThanOrEqual(4096);
      const digest = JSON.parse(content) as JsonObject;
      const output = digest.output as JsonObject;
      const full = result.structured_output!;
      // Everything the analysis needs is there, to 6 significant digits.
      expect(output).toMatchObject({ sample_count: full.sample_count, target: full.target, df_model: full.df_model, df_residual: full.df_residual });
      expect(output.r_squared).toBeCloseTo(full.r_squared as number, 5);
      expect(output.f_statistic).toBeCloseTo((full.f_statistic as number) / 1, -1);
      const rows = output.coefficients as JsonObject[];
      expect(rows.map((row) => row.term)).toEqual((full.coefficient_table as JsonObject[]).map((row) => row.term));
      for (const row of rows) {
        const term = row.term as string;
        expect(row.estimate).toBeCloseTo((full.coefficients as JsonObject)[term] as number, 4);
        expect(row.std_error).toBeCloseTo((full.std_errors as JsonObject)[term] as number, 6);
        expect(row.ci).toHaveLength(2);
        expect(row).toHaveProperty('p_value');
      }
      expect(JSON.stringify(output.diagnostics)).toContain('plot points, not shown');
      expect(digest.artifacts).toEqual(result.artifacts!.map((artifact) => expect.objectContaining({ name: artifact.name, sha256: artifact.sha256 })));
      expect(content).not.toContain('base64');
    }
  });

  it('§7.4 BLE: at most 8 KB, with counts, clusters with addresses and strongest links, top classifications', async () => {
    const result = await run(bleExampleInvocation);
    const content = modelContentOf(result, tool('bluetooth_address_analyzer'));
    const bytes = utf8ByteLength(content);
    console.info(`§7.4 BLE tool message: ${bytes} bytes (full ToolResult ${utf8ByteLength(JSON.stringify(result))} bytes)`);
    expect(bytes).toBeLessThanOrEqual(8192);
    const digest = JSON.parse(content) as JsonObject;
    const output = digest.output as JsonObject;
    const full = result.structured_output!;
    const clusters = full.probabilistic_links as JsonObject[];
    expect(output.cluster_count).toBe(clusters.length);
    expect((output.clusters as JsonObject[])[0]).toMatchObject({ cluster_id: clusters[0].cluster_id, addresses: clusters[0].addresses });
    expect(((output.clusters as JsonObject[])[0].strongest_links as unknown[]).length).toBeGreaterThan(0);
    expect((output.address_counts as JsonObject).total).toBe((full.address_classification as unknown[]).length);
    // Clustered addresses come first among the classifications.
    const firstShown = (output.top_classifications as JsonObject[])[0].address;
    expect(clusters[0].addresses).toContain(firstShown);
    expect(digest.warnings).toEqual(result.warnings.map((warning) => ({ code: warning.code, message: warning.message })));
  });

  it('the BLE digest names the strongest travelled-together relations, counts the rest and keeps fields it does not know', () => {
    const output = {
      address_classification: [{ address: 'AA', type: 'rpa', confidence: 0.9, evidence: ['x'] }],
      probabilistic_links: [],
      timeline_segments: [],
      travelled_together: Array.from({ length: 50 }, (_, index) => ({
        addresses_a: [`A${index}`, `A${index}b`],
        addresses_b: [`B${index}`],
        ...(index === 7 ? { cluster_a: 'cluster-7' } : {}),
        probability: index === 7 ? 0.987654321 : 0.5 + index / 1000,
        start_ts: '2026-01-01T00:00:00Z',
        end_ts: '2026-01-01T00:40:00Z',
        duration_s: 2400,
        rationale: ['moved with each other for 40 minutes', 'no evidence of one radio', 'rssi_covariation: …', 'fourth line'],
        tracker_kind: 'smarttag',
      })),
      future_field: Array.from({ length: 50 }, (_, index) => ({ index, score: 0.123456789 })),
    };
    const digest = digestBleOutput(output);
    const travel = digest.travelled_together as JsonObject;
    expect(travel).toMatchObject({ count: 50, relations_not_shown: 35 });
    const relations = travel.relations as JsonObject[];
    expect(relations).toHaveLength(15);
    expect(relations[0]).toMatchObject({ a: 'cluster-7', b: 'B7', probability: 0.987654, duration_s: 2400, tracker_kind: 'smarttag' });
    expect(relations[1]).toMatchObject({ a: 'A49 (+1)', b: 'B49' });
    expect(relations[0].rationale).toHaveLength(3);
    expect(digest.future_field).toMatchObject({ count: 50 });
    expect(JSON.stringify(digest.future_field)).toContain('0.123457');
  });

  it('endpoint and MCP tools get the generic digest: arrays counted, strings cut, within budget', () => {
    const output = { rows: Array.from({ length: 5000 }, (_, index) => ({ index, value: Math.PI * index })), note: 'n'.repeat(5000), nested: { deep: { deeper: { deepest: { bottom: { floor: 1 } } } } } };
    const digest = genericDigest(output);
    expect(utf8ByteLength(JSON.stringify(digest))).toBeLessThanOrEqual(6000);
    expect(digest.rows).toMatchObject({ count: 5000 });
    expect(digest.note).toMatch(/… \(5000 characters\)$/);
    const result: ToolResult = { status: 'ok', summary: 's', structured_output: output, warnings: [], errors: [], confidence: 1 };
    expect(digestToolResult(result)).toMatchObject({ status: 'ok', summary: 's', confidence: 1, output: { rows: { count: 5000 } } });
    expect(compactJson(1 / 3)).toBe(0.333333);
  });

  it('a digest that throws falls back to the generic one', () => {
    const result: ToolResult = { status: 'ok', summary: 's', structured_output: { a: 1 }, warnings: [], errors: [], confidence: 1 };
    expect(digestToolResult(result, { digest: () => { throw new Error('bug'); } }).output).toEqual({ a: 1 });
  });

  it('the system prompt plus the three tool definitions fit 2,500 tokens (the context guard’s estimator)', () => {
    const manifests = registry.manifests().filter((manifest) => manifest.name !== 'test_echo');
    const discovery = discoverTools(manifests, { toolTimeoutMs: DEFAULT_PLANNER_SETTINGS.toolTimeout, reportFormat: DEFAULT_PLANNER_SETTINGS.reportFormat });
    const definitions = [...discovery.definitions, discovery.finalReport];
    expect(definitions).toHaveLength(3);
    const prompt = plannerSystemPrompt({ captures: [], transport: 'native', maxToolCallsPerTurn: DEFAULT_PLANNER_SETTINGS.maxToolCallsPerTurn, reportFormat: 'markdown' });
    const promptTokens = estimateJsonTokens({ role: 'system', content: prompt });
    const toolTokens = estimateJsonTokens(definitions);
    console.info(`system prompt ${promptTokens} tokens + three tool definitions ${toolTokens} tokens = ${promptTokens + toolTokens} tokens`);
    expect(promptTokens + toolTokens).toBeLessThanOrEqual(2500);
  });
});
