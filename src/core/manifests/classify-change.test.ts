import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolManifest } from '../contract/types.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import type { JsonObject } from '../util/json.ts';
import { classifyChange, type ChangeClassification } from './classify-change.ts';

const base: ToolManifest = {
  name: 'address_scan',
  version: '1.2.3',
  description: 'Scans BLE addresses.',
  capabilities: ['classification'],
  input_schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      mode: { type: 'string', enum: ['fast', 'full'], description: 'How hard to look.' },
      window_s: { type: 'number', minimum: 1, maximum: 600 },
      label: { type: 'string', maxLength: 40 },
      tags: { type: 'array', items: { type: 'string' } },
      filter: { type: 'object', properties: { rssi_min: { type: 'integer' } }, required: ['rssi_min'] },
    },
    required: ['mode'],
  },
  output_schema: {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 0 },
      kind: { type: 'string', enum: ['public', 'random'] },
      note: { type: 'string' },
    },
    required: ['count', 'kind'],
  },
  execution_constraints: { max_timeout_ms: 60_000, max_payload_bytes: 65_536, supports_streaming: false, side_effects: 'read_only' },
  cost_hint: { unit: 'call', estimated_cost: 0, currency: 'credits' },
  deterministic: true,
};

type Mutable = ToolManifest & { input_schema: { properties: Record<string, JsonObject>; required: string[] }; output_schema: { properties: Record<string, JsonObject>; required: string[] } };

function change(edit: (manifest: Mutable) => void, version = base.version): ChangeClassification {
  const next = structuredClone(base) as Mutable;
  edit(next);
  next.version = version;
  return classifyChange(base, next);
}

/** The kinds and paths of the reasons. */
const summary = (result: ChangeClassification) => result.reasons.map((reason) => [reason.kind, reason.path]);

describe('classifyChange: nothing changed', () => {
  it('is none, and any non-lower version is fine', () => {
    expect(classifyChange(base, base)).toEqual({
      kind: 'none',
      reasons: [],
      requiredBump: 'none',
      actualBump: 'none',
      versionOk: true,
      suggestedVersion: '1.2.3',
      message: 'No change: 1.2.3 and 1.2.3 are the same manifest.',
    });
    expect(change(() => {}, '1.2.4')).toMatchObject({ kind: 'none', actualBump: 'patch', versionOk: true });
    expect(change(() => {}, '1.2.2')).toMatchObject({ kind: 'none', actualBump: 'downgrade', versionOk: false, message: 'Refused: 1.2.3 → 1.2.2 lowers the version.' });
  });

  it('ignores key order', () => {
    const reordered = { ...base, input_schema: Object.fromEntries(Object.entries(base.input_schema).reverse()) } as ToolManifest;
    expect(classifyChange(base, reordered).kind).toBe('none');
  });
});

describe('classifyChange: breaking input changes (major)', () => {
  it.each<[string, (manifest: Mutable) => void, string]>([
    ['a removed property', (m) => delete m.input_schema.properties.label, '$.input_schema.properties.label'],
    ['a renamed property', (m) => {
      m.input_schema.properties.caption = m.input_schema.properties.label;
      delete m.input_schema.properties.label;
    }, '$.input_schema.properties.caption'],
    ['a type change', (m) => (m.input_schema.properties.window_s.type = 'string'), '$.input_schema.properties.window_s.type'],
    ['a widened type (any retyped field, settled decision 7)', (m) => (m.input_schema.properties.window_s.type = ['number', 'null']), '$.input_schema.properties.window_s.type'],
    ['a new required property', (m) => {
      m.input_schema.properties.capture = { type: 'string' };
      m.input_schema.required.push('capture');
    }, '$.input_schema.properties.capture'],
    ['an optional property made required', (m) => m.input_schema.required.push('label'), '$.input_schema.required'],
    ['a nested property made required', (m) => {
      m.input_schema.properties.filter.properties = { rssi_min: { type: 'integer' }, channel: { type: 'integer' } };
      m.input_schema.properties.filter.required = ['rssi_min', 'channel'];
    }, '$.input_schema.properties.filter.properties.channel'],
    ['an enum value removed', (m) => (m.input_schema.properties.mode.enum = ['fast']), '$.input_schema.properties.mode.enum'],
    ['an enum added', (m) => (m.input_schema.properties.label.enum = ['a', 'b']), '$.input_schema.properties.label.enum'],
    ['a const added', (m) => (m.input_schema.properties.mode.const = 'fast'), '$.input_schema.properties.mode.const'],
    ['a minimum raised', (m) => (m.input_schema.properties.window_s.minimum = 5), '$.input_schema.properties.window_s.minimum'],
    ['a maximum lowered', (m) => (m.input_schema.properties.window_s.maximum = 60), '$.input_schema.properties.window_s.maximum'],
    ['an exclusiveMinimum added', (m) => (m.input_schema.properties.window_s.exclusiveMinimum = 0), '$.input_schema.properties.window_s.exclusiveMinimum'],
    ['a maxLength lowered', (m) => (m.input_schema.properties.label.maxLength = 20), '$.input_schema.properties.label.maxLength'],
    ['a minLength added', (m) => (m.input_schema.properties.label.minLength = 1), '$.input_schema.properties.label.minLength'],
    ['a maxItems added', (m) => (m.input_schema.properties.tags.maxItems = 3), '$.input_schema.properties.tags.maxItems'],
    ['a pattern added', (m) => (m.input_schema.properties.label.pattern = '^[a-z]+$'), '$.input_schema.properties.label.pattern'],
    ['a format added', (m) => (m.input_schema.properties.label.format = 'email'), '$.input_schema.properties.label.format'],
    ['a multipleOf added', (m) => (m.input_schema.properties.window_s.multipleOf = 5), '$.input_schema.properties.window_s.multipleOf'],
    ['uniqueItems added', (m) => (m.input_schema.properties.tags.uniqueItems = true), '$.input_schema.properties.tags.uniqueItems'],
    ['an items type changed', (m) => (m.input_schema.properties.tags.items = { type: 'integer' }), '$.input_schema.properties.tags.items.type'],
    ['a nested object closed (below the root, an absent additionalProperties means true)', (m) => {
      m.input_schema.properties.filter.additionalProperties = false;
    }, '$.input_schema.properties.filter.additionalProperties'],
    ['an allOf constraint added', (m) => (m.input_schema.allOf = [{ if: { properties: { mode: { const: 'full' } } }, then: { required: ['window_s'] } }]), '$.input_schema.allOf[0]'],
    ['a oneOf changed', (m) => (m.input_schema.properties.label.oneOf = [{ minLength: 2 }]), '$.input_schema.properties.label.oneOf'],
  ])('%s', (_label, edit, path) => {
    const result = change(edit, '1.3.0');
    expect(result.kind).toBe('major');
    expect(result.reasons).toContainEqual(expect.objectContaining({ kind: 'major', path }));
    expect(result.versionOk).toBe(false);
  });

  it('closing the input root by dropping additionalProperties: true counts (absent means false, settled decision 2)', () => {
    const open = { ...base, input_schema: { ...base.input_schema, additionalProperties: true } };
    const closed = structuredClone(base) as Mutable;
    delete (closed.input_schema as JsonObject).additionalProperties;
    expect(summary(classifyChange(open, closed))).toEqual([['major', '$.input_schema.additionalProperties']]);
    expect(classifyChange(base, closed).kind).toBe('none');
  });

  it('explains a refused breaking change and suggests the version', () => {
    const result = change((m) => delete m.input_schema.properties.label, '1.3.0');
    expect(result).toMatchObject({ requiredBump: 'major', actualBump: 'minor', versionOk: false, suggestedVersion: '2.0.0' });
    expect(result.message).toBe(
      'Refused: the change is breaking, but 1.2.3 → 1.3.0 is only a minor bump. Breaking changes: property "label" was removed: callers that send it are rejected. Publish it as 2.0.0.',
    );
    expect(change((m) => delete m.input_schema.properties.label, '2.0.0')).toMatchObject({ versionOk: true, message: 'Major change (1 difference): 1.2.3 → 2.0.0 is a major bump, which is enough.' });
  });

  it('names renames', () => {
    const result = change((m) => {
      m.input_schema.properties.caption = { ...m.input_schema.properties.label, description: 'Caption.' };
      delete m.input_schema.properties.label;
    });
    expect(result.reasons).toEqual([{ kind: 'major', path: '$.input_schema.properties.caption', message: 'property "label" was renamed to "caption": callers that send "label" are rejected' }]);
  });

  it('describes nested locations', () => {
    const result = change((m) => (m.input_schema.properties.filter.properties = { rssi_min: { type: 'number' } }));
    expect(result.reasons).toEqual([{ kind: 'major', path: '$.input_schema.properties.filter.properties.rssi_min.type', message: 'argument filter.rssi_min: type changed from integer to number' }]);
  });
});

describe('classifyChange: compatible input changes', () => {
  it.each<[string, (manifest: Mutable) => void, 'minor' | 'patch', string]>([
    ['a new optional property', (m) => (m.input_schema.properties.verbose = { type: 'boolean' }), 'minor', '$.input_schema.properties.verbose'],
    ['an enum value added', (m) => (m.input_schema.properties.mode.enum = ['fast', 'full', 'deep']), 'minor', '$.input_schema.properties.mode.enum'],
    ['a required property made optional', (m) => (m.input_schema.required = []), 'minor', '$.input_schema.required'],
    ['additionalProperties opened', (m) => (m.input_schema.additionalProperties = true), 'minor', '$.input_schema.additionalProperties'],
    ['a deprecation', (m) => (m.input_schema.properties.label.deprecated = true), 'minor', '$.input_schema.properties.label.deprecated'],
    ['a minimum lowered', (m) => (m.input_schema.properties.window_s.minimum = 0), 'patch', '$.input_schema.properties.window_s.minimum'],
    ['a maximum raised', (m) => (m.input_schema.properties.window_s.maximum = 3600), 'patch', '$.input_schema.properties.window_s.maximum'],
    ['a maxLength removed', (m) => delete m.input_schema.properties.label.maxLength, 'patch', '$.input_schema.properties.label.maxLength'],
    ['a description reworded', (m) => (m.input_schema.properties.mode.description = 'How thoroughly to look.'), 'patch', '$.input_schema.properties.mode.description'],
    ['an example added', (m) => (m.input_schema.properties.mode.examples = ['fast']), 'patch', '$.input_schema.properties.mode.examples'],
    ['a default changed', (m) => (m.input_schema.properties.mode.default = 'fast'), 'patch', '$.input_schema.properties.mode.default'],
  ])('%s is %s', (_label, edit, kind, path) => {
    const result = change(edit);
    expect(summary(result)).toEqual([[kind, path]]);
    expect(result.kind).toBe(kind);
  });

  it('accepts exactly the bump a change needs, or more', () => {
    const addOptional = (m: Mutable) => (m.input_schema.properties.verbose = { type: 'boolean' });
    expect(change(addOptional, '1.2.4')).toMatchObject({ versionOk: false, suggestedVersion: '1.3.0' });
    expect(change(addOptional, '1.2.4').message).toBe(
      'Refused: the change needs a minor bump, but 1.2.3 → 1.2.4 is a patch bump. Minor changes: new optional property "verbose". Publish it as 1.3.0 (or higher).',
    );
    expect(change(addOptional, '1.3.0').versionOk).toBe(true);
    expect(change(addOptional, '2.0.0').versionOk).toBe(true);
    expect(change(addOptional).message).toBe(
      'Refused: the manifest changed but its version stayed 1.2.3. Minor changes: new optional property "verbose". Publish it as 1.3.0 (or higher).',
    );
    expect(change((m) => (m.description = 'Scans addresses.'), '1.2.4')).toMatchObject({ kind: 'patch', versionOk: true });
  });
});

describe('classifyChange: output schema', () => {
  it.each<[string, (manifest: Mutable) => void, 'major' | 'minor' | 'patch', string]>([
    ['a removed field is breaking', (m) => delete m.output_schema.properties.note, 'major', '$.output_schema.properties.note'],
    ['a retyped field is breaking', (m) => (m.output_schema.properties.count.type = 'number'), 'major', '$.output_schema.properties.count.type'],
    ['a field no longer guaranteed is breaking', (m) => (m.output_schema.required = ['count']), 'major', '$.output_schema.required'],
    ['a new field is minor', (m) => (m.output_schema.properties.extra = { type: 'string' }), 'minor', '$.output_schema.properties.extra'],
    ['a new always-present field is minor', (m) => {
      m.output_schema.properties.extra = { type: 'string' };
      m.output_schema.required.push('extra');
    }, 'minor', '$.output_schema.properties.extra'],
    ['an enum value added is minor', (m) => (m.output_schema.properties.kind.enum = ['public', 'random', 'rpa']), 'minor', '$.output_schema.properties.kind.enum'],
    ['a field now always present is minor', (m) => m.output_schema.required.push('note'), 'minor', '$.output_schema.required'],
    ['a constraint relaxed is minor', (m) => delete m.output_schema.properties.count.minimum, 'minor', '$.output_schema.properties.count.minimum'],
    ['an enum value removed is a patch', (m) => (m.output_schema.properties.kind.enum = ['public']), 'patch', '$.output_schema.properties.kind.enum'],
    ['a constraint tightened is a patch', (m) => (m.output_schema.properties.count.maximum = 1000), 'patch', '$.output_schema.properties.count.maximum'],
  ])('%s', (_label, edit, kind, path) => {
    expect(summary(change(edit))).toEqual([[kind, path]]);
  });
});

describe('classifyChange: the rest of the manifest', () => {
  it.each<[string, (manifest: Mutable) => void, 'major' | 'minor' | 'patch', string]>([
    ['a new name', (m) => (m.name = 'address_scanner'), 'major', '$.name'],
    ['a removed capability', (m) => (m.capabilities = []), 'major', '$.capabilities'],
    ['an added capability', (m) => m.capabilities.push('linkage'), 'minor', '$.capabilities[1]'],
    ['a lower max_timeout_ms', (m) => (m.execution_constraints.max_timeout_ms = 30_000), 'major', '$.execution_constraints.max_timeout_ms'],
    ['a higher max_timeout_ms', (m) => (m.execution_constraints.max_timeout_ms = 90_000), 'patch', '$.execution_constraints.max_timeout_ms'],
    ['a lower max_payload_bytes', (m) => (m.execution_constraints.max_payload_bytes = 1024), 'major', '$.execution_constraints.max_payload_bytes'],
    ['streaming added', (m) => (m.execution_constraints.supports_streaming = true), 'minor', '$.execution_constraints.supports_streaming'],
    ['more side effects', (m) => (m.execution_constraints.side_effects = 'external_write'), 'major', '$.execution_constraints.side_effects'],
    ['fewer side effects', (m) => (m.execution_constraints.side_effects = 'none'), 'patch', '$.execution_constraints.side_effects'],
    ['reads no capture any more', (m) => Object.assign(m.execution_constraints, { capture_selection: 'none' }), 'major', '$.execution_constraints.capture_selection'],
    ['a cost hint', (m) => (m.cost_hint.estimated_cost = 2), 'patch', '$.cost_hint'],
    ['no longer deterministic', (m) => (m.deterministic = false), 'major', '$.deterministic'],
    ['a description', (m) => (m.description = 'Scans addresses.'), 'patch', '$.description'],
  ])('%s', (_label, edit, kind, path) => {
    expect(summary(change(edit))).toEqual([[kind, path]]);
  });

  it('refuses invalid versions', () => {
    expect(change(() => {}, '1.3')).toMatchObject({ actualBump: 'invalid', versionOk: false, message: 'Refused: version "1.3" is not major.minor.patch.' });
    expect(classifyChange({ ...base, version: 'one' }, base)).toMatchObject({ actualBump: 'invalid', versionOk: false, suggestedVersion: null });
  });

  it('lists every reason, the largest kind wins', () => {
    const result = change((m) => {
      m.description = 'Scans addresses.';
      m.input_schema.properties.verbose = { type: 'boolean' };
      delete m.output_schema.properties.note;
    });
    expect(result.kind).toBe('major');
    expect(summary(result)).toEqual([
      ['patch', '$.description'],
      ['minor', '$.input_schema.properties.verbose'],
      ['major', '$.output_schema.properties.note'],
    ]);
  });

  it('never throws on arbitrary schemas, and the same manifest is always none', () => {
    const schema = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(schema, schema, (before, after) => {
        const old = { ...base, input_schema: before, output_schema: after } as unknown as ToolManifest;
        const next = { ...base, input_schema: after, output_schema: before } as unknown as ToolManifest;
        const result = classifyChange(old, next);
        expect(result.kind === 'none').toBe(result.reasons.length === 0);
        // Semantically equal spellings (type "x" vs ["x"], a $defs entry nobody uses) may differ as JSON and still be none.
        if (JSON.stringify(before) === JSON.stringify(after)) expect(result.kind).toBe('none');
        expect(classifyChange(old, old).kind).toBe('none');
      }),
      { seed: 9, numRuns: 500 },
    );
  });

  it('never throws on partial manifests', () => {
    expect(classifyChange({} as ToolManifest, base).kind).toBe('major');
    expect(() => classifyChange(null as unknown as ToolManifest, 7 as unknown as ToolManifest)).not.toThrow();
  });

  it('classifies a real manifest against itself with a changed conditional as breaking', () => {
    const [regression] = builtinTools();
    const next = structuredClone(regression.manifest);
    (next.input_schema.allOf as JsonObject[])[0] = { if: { properties: { operation: { const: 'linear_regression' } }, required: ['operation'] }, then: { required: ['target'] } };
    const result = classifyChange(regression.manifest, { ...next, version: '1.3.0' });
    expect(result.kind).toBe('major');
    expect(result.reasons[0].path).toBe('$.input_schema.allOf[0].then');
  });
});
