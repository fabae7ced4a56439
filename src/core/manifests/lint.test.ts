import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolManifest } from '../contract/types.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { formatJsonPath, parseJsonPath } from './json-path.ts';
import { isCleanManifest, lintManifest, lintManifestText, MANIFEST_PROBLEM_CODES, type ManifestProblem } from './lint.ts';

/** tool-contract.md §7: bluetooth_address_analyzer's schemas in a complete manifest. */
const bleManifest: ToolManifest = {
  name: 'bluetooth_address_analyzer',
  version: '1.0.0',
  description: 'Infers BLE address types and probabilistic identity linkage under configurable temporal assumptions.',
  capabilities: ['address_classification', 'identity_linkage'],
  input_schema: {
    type: 'object',
    properties: {
      capture_selection: {
        type: 'object',
        properties: {
          capture_ids: { type: 'array', items: { type: 'string' }, minItems: 1 },
          time_window: {
            type: 'object',
            properties: { start_ms: { type: 'integer', minimum: 0 }, end_ms: { type: 'integer', minimum: 0 } },
            required: ['start_ms', 'end_ms'],
          },
          filter_expression: { type: 'string' },
        },
        required: ['capture_ids', 'time_window'],
      },
      address_columns: {
        type: 'object',
        properties: { advertiser_addr: { type: 'string' }, initiator_addr: { type: 'string' }, scanner_addr: { type: 'string' } },
        required: ['advertiser_addr', 'initiator_addr'],
      },
      analysis_mode: { type: 'string', enum: ['classification', 'linkage', 'both'] },
      linkage_window_s: { type: 'number', minimum: 1 },
      min_observation_count: { type: 'integer', minimum: 1 },
      rpa_rotation_model: { type: 'string', enum: ['spec_default', 'fast_rotation', 'slow_rotation', 'learned'] },
    },
    required: ['capture_selection', 'address_columns', 'analysis_mode', 'linkage_window_s', 'min_observation_count', 'rpa_rotation_model'],
  },
  output_schema: {
    type: 'object',
    properties: {
      address_classification: { type: 'array', items: { type: 'object', properties: { address: { type: 'string' } }, required: ['address'] } },
    },
    required: ['address_classification'],
  },
  execution_constraints: { max_timeout_ms: 120_000, max_payload_bytes: 65_536, supports_streaming: false, side_effects: 'none' },
  cost_hint: { unit: 'call', estimated_cost: 0, currency: 'credits' },
  deterministic: true,
};

function with_(changes: (manifest: Record<string, unknown>) => void): unknown {
  const manifest = structuredClone(bleManifest) as unknown as Record<string, unknown>;
  changes(manifest);
  return manifest;
}

const brief = (problems: ManifestProblem[]) => problems.map(({ code, path, severity }) => [code, path, severity]);

describe('lintManifest', () => {
  it('passes the built-in manifests and the contract example', () => {
    for (const { manifest } of builtinTools({ testTools: true })) expect(lintManifest(manifest)).toEqual([]);
    expect(lintManifest(bleManifest)).toEqual([]);
  });

  it('rejects what is not an object', () => {
    expect(lintManifest([])).toEqual([{ code: 'NOT_AN_OBJECT', path: '$', severity: 'error', message: 'A ToolManifest is a JSON object; got an array' }]);
    expect(lintManifestText('{"name": ')[0]).toMatchObject({ code: 'INVALID_JSON', path: '$', severity: 'error' });
  });

  it('reports schema problems with JSON paths: missing, unknown, mistyped', () => {
    const problems = lintManifest(
      with_((manifest) => {
        delete manifest.cost_hint;
        manifest.author = 'me';
        manifest.deterministic = 'yes';
        (manifest.execution_constraints as Record<string, unknown>).max_payload_bytes = 10.5;
      }),
    );
    // In manifest field order; fields the manifest does not know come last.
    expect(problems).toEqual([
      { code: 'INVALID_TYPE', path: '$.execution_constraints.max_payload_bytes', severity: 'error', message: '$.execution_constraints.max_payload_bytes must be integer, got number' },
      { code: 'MISSING_FIELD', path: '$.cost_hint', severity: 'error', message: '$.cost_hint is required' },
      { code: 'INVALID_TYPE', path: '$.deterministic', severity: 'error', message: '$.deterministic must be boolean, got string' },
      { code: 'UNKNOWN_FIELD', path: '$.author', severity: 'error', message: expect.stringContaining('$.author is not a ToolManifest field; expected one of: name, version') },
    ]);
  });

  it('wants a snake_case name and a semver version, with clear messages instead of the pattern', () => {
    const problems = lintManifest(with_((manifest) => Object.assign(manifest, { name: 'BluetoothAnalyzer', version: '1.0' })));
    expect(problems).toEqual([
      {
        code: 'NAME_NOT_SNAKE_CASE',
        path: '$.name',
        severity: 'error',
        message: '$.name "BluetoothAnalyzer" must be lowercase snake_case: a letter first, then lowercase letters, digits and single underscores (e.g. "bluetooth_analyzer")',
      },
      { code: 'VERSION_NOT_SEMVER', path: '$.version', severity: 'error', message: '$.version "1.0" must be a semantic version major.minor.patch without leading zeros, e.g. "1.0.0"' },
    ]);
    expect(brief(lintManifest(with_((manifest) => Object.assign(manifest, { version: '01.2.3' }))))).toEqual([['VERSION_NOT_SEMVER', '$.version', 'error']]);
    expect(brief(lintManifest(with_((manifest) => Object.assign(manifest, { name: 'a'.repeat(70) }))))).toEqual([['NAME_TOO_LONG', '$.name', 'warning']]);
    expect(brief(lintManifest(with_((manifest) => Object.assign(manifest, { description: '   ' }))))).toEqual([['EMPTY_DESCRIPTION', '$.description', 'error']]);
  });

  it('checks input_schema against the meta-schema, one problem per place', () => {
    const problems = lintManifest(
      with_((manifest) => {
        const schema = manifest.input_schema as { properties: Record<string, Record<string, unknown>> };
        schema.properties.linkage_window_s.type = 'float';
        schema.properties.min_observation_count.minimum = 'one';
      }),
    );
    expect(problems).toEqual([
      {
        code: 'INVALID_JSON_SCHEMA',
        path: '$.input_schema.properties.linkage_window_s.type',
        severity: 'error',
        message: 'Not valid JSON Schema: $.input_schema.properties.linkage_window_s.type must be one of the JSON Schema types (string, number, integer, boolean, array, object, null) or an array of them',
      },
      {
        code: 'INVALID_JSON_SCHEMA',
        path: '$.input_schema.properties.min_observation_count.minimum',
        severity: 'error',
        message: 'Not valid JSON Schema: $.input_schema.properties.min_observation_count.minimum must be number',
      },
    ]);
  });

  it('reports a schema that does not compile, and lints a schema with an $id again and again', () => {
    const unresolved = lintManifest(with_((manifest) => ((manifest.input_schema as { properties: Record<string, unknown> }).properties.extra = { $ref: '#/$defs/missing' })));
    expect(brief(unresolved)).toEqual([['INVALID_JSON_SCHEMA', '$.input_schema', 'error']]);
    const identified = with_((manifest) => ((manifest.output_schema as Record<string, unknown>).$id = 'https://example.test/ble-output.json'));
    expect(lintManifest(identified)).toEqual([]);
    expect(lintManifest(structuredClone(identified))).toEqual([]);
  });

  it('names a $schema of another dialect instead of throwing, and still checks the rest', () => {
    const draft07 = with_((manifest) => {
      Object.assign(manifest.input_schema as object, { $schema: 'http://json-schema.org/draft-07/schema#' });
      ((manifest.input_schema as { properties: Record<string, unknown> }).properties.extra = { type: 'float' });
    });
    expect(lintManifest(draft07)).toEqual([
      {
        code: 'INVALID_JSON_SCHEMA',
        path: '$.input_schema["$schema"]',
        severity: 'error',
        message:
          '$.input_schema["$schema"] "http://json-schema.org/draft-07/schema#" is not supported: Sextant validates with JSON Schema 2020-12. Remove $schema or set it to "https://json-schema.org/draft/2020-12/schema"',
      },
      expect.objectContaining({ code: 'INVALID_JSON_SCHEMA', path: '$.input_schema.properties.extra.type' }),
    ]);
    expect(lintManifest(with_((manifest) => Object.assign(manifest.output_schema as object, { $schema: 'https://json-schema.org/draft/2020-12/schema' })))).toEqual([]);
  });

  it('wants type "object" at the top of input_schema', () => {
    expect(lintManifest(with_((manifest) => ((manifest.input_schema as Record<string, unknown>).type = 'array')))).toEqual([
      { code: 'INPUT_SCHEMA_NOT_OBJECT', path: '$.input_schema.type', severity: 'error', message: '$.input_schema.type must be "object" (tool arguments are a JSON object); got "array"' },
    ]);
    expect(brief(lintManifest(with_((manifest) => delete (manifest.input_schema as Record<string, unknown>).type)))).toEqual([['INPUT_SCHEMA_NOT_OBJECT', '$.input_schema.type', 'error']]);
  });

  it('finds required names that no property declares, at every level', () => {
    const problems = lintManifest(
      with_((manifest) => {
        const schema = manifest.input_schema as { required: string[]; properties: Record<string, { required?: string[] }> };
        schema.required.splice(1, 0, 'target');
        schema.properties.address_columns.required = ['advertiser_addr', 'initator_addr'];
      }),
    );
    expect(problems).toEqual([
      {
        code: 'REQUIRED_NOT_DECLARED',
        path: '$.input_schema.required[1]',
        severity: 'error',
        message: '$.input_schema.required[1] requires "target", which no property declares, so no value can ever satisfy the schema. Declare it in properties or remove it from required.',
      },
      { code: 'REQUIRED_NOT_DECLARED', path: '$.input_schema.properties.address_columns.required[1]', severity: 'error', message: expect.stringContaining('"initator_addr"') },
    ]);
  });

  it('lets applicator branches name the parent properties, and warns for open objects', () => {
    const conditional = with_((manifest) => {
      (manifest.input_schema as Record<string, unknown>).allOf = [{ if: { properties: { analysis_mode: { const: 'linkage' } } }, then: { required: ['linkage_window_s'] } }];
    });
    expect(lintManifest(conditional)).toEqual([]);
    const open = with_((manifest) => {
      Object.assign(manifest.output_schema as object, { additionalProperties: true, required: ['address_classification', 'extra'] });
    });
    expect(brief(lintManifest(open))).toEqual([['REQUIRED_NOT_DECLARED', '$.output_schema.required[1]', 'warning']]);
    const patterned = with_((manifest) => {
      Object.assign(manifest.output_schema as object, { patternProperties: { '^x_': {} }, required: ['address_classification', 'x_extra'] });
    });
    expect(lintManifest(patterned)).toEqual([]);
  });

  it('wants an object output schema', () => {
    expect(brief(lintManifest(with_((manifest) => (manifest.output_schema = { type: 'string' }))))).toEqual([['OUTPUT_SCHEMA_NOT_OBJECT', '$.output_schema.type', 'error']]);
    expect(lintManifest(with_((manifest) => (manifest.output_schema = { type: ['object', 'null'] })))).toEqual([]);
    expect(lintManifest(with_((manifest) => (manifest.output_schema = {})))).toEqual([]);
  });

  it('checks the execution constraints against the runtime', () => {
    const constraints = (changes: Record<string, unknown>) => lintManifest(with_((manifest) => Object.assign(manifest.execution_constraints as object, changes)));
    expect(constraints({ max_timeout_ms: 500 })).toEqual([
      {
        code: 'TIMEOUT_BELOW_RUNTIME_MINIMUM',
        path: '$.execution_constraints.max_timeout_ms',
        severity: 'error',
        message: '$.execution_constraints.max_timeout_ms 500 is below the runtime minimum of 1000 ms: every invocation would fail with TIMEOUT_BELOW_MINIMUM',
      },
    ]);
    expect(brief(constraints({ max_timeout_ms: 0 }))).toEqual([['TIMEOUT_BELOW_RUNTIME_MINIMUM', '$.execution_constraints.max_timeout_ms', 'error']]);
    expect(brief(lintManifest(with_((manifest) => ((manifest.execution_constraints as Record<string, unknown>).max_timeout_ms = 500)), { minTimeoutMs: 100 }))).toEqual([]);
    expect(brief(constraints({ max_timeout_ms: 7_200_000 }))).toEqual([['TIMEOUT_UNUSUALLY_LONG', '$.execution_constraints.max_timeout_ms', 'warning']]);
    expect(constraints({ max_payload_bytes: 100 })[0]).toMatchObject({
      code: 'PAYLOAD_LIMIT_TOO_SMALL',
      severity: 'error',
      message: expect.stringContaining('smaller than the smallest possible invocation of this tool (154 bytes)'),
    });
    expect(brief(constraints({ max_payload_bytes: 600 }))).toEqual([['PAYLOAD_LIMIT_TOO_SMALL', '$.execution_constraints.max_payload_bytes', 'warning']]);
    expect(brief(constraints({ max_payload_bytes: -1 }))).toEqual([['INVALID_VALUE', '$.execution_constraints.max_payload_bytes', 'error']]);
  });

  it('checks the enums of side_effects and cost_hint.unit, with suggestions', () => {
    expect(lintManifest(with_((manifest) => ((manifest.execution_constraints as Record<string, unknown>).side_effects = 'read-only')))).toEqual([
      {
        code: 'INVALID_ENUM_VALUE',
        path: '$.execution_constraints.side_effects',
        severity: 'error',
        message: '$.execution_constraints.side_effects must be one of "none", "read_only", "external_write"; got "read-only" (did you mean "read_only"?)',
      },
    ]);
    expect(lintManifest(with_((manifest) => ((manifest.cost_hint as Record<string, unknown>).unit = 'requests')))[0].message).toBe(
      '$.cost_hint.unit must be one of "call", "second", "record"; got "requests" (did you mean "call"?)',
    );
    expect(lintManifest(with_((manifest) => ((manifest.cost_hint as Record<string, unknown>).unit = 7)))[0].message).toBe('$.cost_hint.unit must be one of "call", "second", "record"; got 7');
    expect(brief(lintManifest(with_((manifest) => ((manifest.cost_hint as Record<string, unknown>).currency = '$'))))).toEqual([['CURRENCY_NOT_RECOGNIZED', '$.cost_hint.currency', 'warning']]);
  });

  it('never throws, and every problem has a known code and a parseable path', () => {
    const schemaish = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(fc.constantFrom('type', 'properties', 'required', '$ref', '$id', '$schema', 'patternProperties', 'allOf', 'items', 'additionalProperties'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
    );
    const manifestish = fc.record({ input_schema: schemaish, output_schema: schemaish, name: fc.jsonValue({ maxDepth: 1 }), execution_constraints: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), manifestish.map((partial) => ({ ...bleManifest, ...partial }))), (value) => {
        for (const problem of lintManifest(value)) {
          expect(MANIFEST_PROBLEM_CODES).toContain(problem.code);
          expect(parseJsonPath(problem.path)).not.toBeNull();
          expect(['error', 'warning']).toContain(problem.severity);
        }
      }),
      { seed: 3, numRuns: 400 },
    );
  });

  it('counts a manifest with warnings only as clean', () => {
    expect(isCleanManifest(lintManifest(with_((manifest) => Object.assign(manifest, { name: 'a'.repeat(70) }))))).toBe(true);
    expect(isCleanManifest(lintManifest({}))).toBe(false);
  });
});

describe('JSON paths', () => {
  it('formats and parses both forms', () => {
    expect(formatJsonPath(['input_schema', 'required', 1])).toBe('$.input_schema.required[1]');
    expect(formatJsonPath(['input_schema', '$defs', 'a b'])).toBe('$.input_schema["$defs"]["a b"]');
    expect(formatJsonPath([])).toBe('$');
    expect(parseJsonPath('$.input_schema["$defs"]["a b"][2]')).toEqual(['input_schema', '$defs', 'a b', 2]);
    expect(parseJsonPath('arguments.features[1]')).toEqual(['arguments', 'features', 1]);
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$..x')).toBeNull();
  });
});
