import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { BLE_RECORD_COLUMNS, builtinTools, generateConformanceCases, type CaptureInfo, type ColumnSchema, type JsonObject, type ToolManifest } from '../../../core/index.ts';
import {
  actionsToEnter,
  applyFormAction,
  applySelectionAction,
  argumentsForm,
  declaredSelectionShape,
  formNodeFor,
  formProblems,
  readsNoCapture,
  selectionActionsToEnter,
  selectionForCapture,
  suggestedArguments,
} from './form-model.ts';

const manifests: ToolManifest[] = builtinTools({ testTools: true }).map((tool) => tool.manifest);
const ble = manifests.find((manifest) => manifest.name === 'bluetooth_address_analyzer')!;

const NAMES = ['ts_ms', 'rssi', 'channel', 'receiver', 'value', 'x1', 'x2', 'group', ...BLE_RECORD_COLUMNS.map((column) => column.name)];

/** A capture with some of the demo and BLE columns, numeric or not, and integer bounds. */
const captureArbitrary: fc.Arbitrary<CaptureInfo> = fc
  .record({
    names: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 12 }),
    numeric: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    start: fc.integer({ min: 0, max: 2e12 }),
    span: fc.integer({ min: 1, max: 1e7 }),
    id: fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/),
  })
  .map(({ names, numeric, start, span, id }) => ({
    id,
    description: '',
    source: 'test',
    rowCount: 10,
    columns: ['ts_ms', ...names.filter((name) => name !== 'ts_ms')].map((name, index): ColumnSchema => ({ name, kind: name === 'ts_ms' || numeric[index] ? 'number' : 'string' })),
    timeColumn: 'ts_ms',
    channelColumn: null,
    channels: [],
    bounds: { start_ms: start, end_ms: start + span },
    boundsSource: 'declared',
    timeOrigin: null,
  }));

/** Enters `target` through the form's inputs only, starting from a new invocation of its tool, and returns what the form holds. */
function enterThroughForm(target: JsonObject, manifest: ToolManifest, capture: CaptureInfo): JsonObject {
  // A tool that reads no capture has no Capture fieldset: the form holds no selection.
  const selectionActions = readsNoCapture(manifest) ? [] : selectionActionsToEnter(target.capture_selection ?? null);
  const root = argumentsForm(manifest);
  const argumentActions = actionsToEnter(root, (target.arguments ?? {}) as JsonObject);
  if (!selectionActions || !argumentActions) throw new Error(`the form cannot express ${JSON.stringify(target)}`);
  let selection = selectionForCapture('generic', undefined);
  for (const action of selectionActions) selection = applySelectionAction(selection, action, [capture]);
  let args: JsonObject = {};
  for (const action of argumentActions) args = applyFormAction(args, root, action);
  return {
    tool_name: manifest.name,
    tool_version: manifest.version,
    ...(readsNoCapture(manifest) ? {} : { capture_selection: selection }),
    arguments: args,
    request_id: target.request_id,
    timeout_ms: target.timeout_ms,
  };
}

/** An MCP server's tool as `sextant mcp tools` and the MCP page draft it: it reads no capture. */
const captureFree: ToolManifest = {
  ...manifests.find((manifest) => manifest.name === 'test_echo')!,
  name: 'mcp_echo',
  input_schema: { type: 'object', properties: { message: { type: 'string', minLength: 1 }, repeat: { type: 'integer', minimum: 1, maximum: 3 } }, required: ['message'] },
  execution_constraints: { max_timeout_ms: 30_000, max_payload_bytes: 1_048_576, supports_streaming: false, side_effects: 'read_only', capture_selection: 'none' },
};

describe('the invocation form model', () => {
  test.prop([captureArbitrary], { numRuns: 60 })('every valid conformance invocation of every installed manifest can be entered in the form and round-trips to the same JSON', (capture) => {
    for (const manifest of [...manifests, captureFree]) {
      const valid = generateConformanceCases(manifest, capture).find((entry) => entry.id === 'valid')!.invocation;
      expect(enterThroughForm(valid, manifest, capture)).toEqual(valid);
    }
  });

  it('a tool that reads no capture: no selection is asked for, and one given is marked as the executor would refuse it', () => {
    const anyCapture: CaptureInfo = { id: 'c', description: '', source: 'test', rowCount: 1, columns: [{ name: 'ts_ms', kind: 'number' }], timeColumn: 'ts_ms', channelColumn: null, channels: [], bounds: { start_ms: 0, end_ms: 10 }, boundsSource: 'observed', timeOrigin: null };
    const valid = generateConformanceCases(captureFree, anyCapture).find((entry) => entry.id === 'valid')!.invocation;
    expect(valid).not.toHaveProperty('capture_selection');
    expect(formProblems(valid, captureFree, [])).toEqual([]);
    expect(formProblems({ ...valid, capture_selection: { capture_id: 'x' } }, captureFree, []).map((problem) => [problem.code, problem.field])).toEqual([['UNKNOWN_ARGUMENT', 'capture_selection']]);
    expect(formProblems({ ...valid, arguments: {} }, captureFree, []).map((problem) => [problem.code, problem.field])).toEqual([['MISSING_REQUIRED_ARGUMENT', 'arguments.message']]);
    // A capture tool still needs its selection.
    expect(formProblems({ tool_name: 'test_echo', tool_version: '1.0.0', arguments: {} }, manifests.find((manifest) => manifest.name === 'test_echo'), []).length).toBeGreaterThan(0);
  });

  it('gives every argument of the installed tools a structured input (no JSON text box), and no capture_selection argument', () => {
    for (const manifest of manifests) {
      const root = argumentsForm(manifest);
      expect(root.fields.map((field) => field.key)).not.toContain('capture_selection');
      const kinds = (node: ReturnType<typeof formNodeFor>): string[] =>
        node.kind === 'object' ? node.fields.flatMap((field) => kinds(field.node)) : node.kind === 'list' ? kinds(node.item) : [node.kind];
      expect(kinds(root), manifest.name).not.toContain('json');
    }
    const addressColumns = argumentsForm(ble).fields.find((field) => field.key === 'address_columns')!;
    expect(addressColumns.node.kind).toBe('object');
  });

  it('suggests the BLE analyzer its documented values, with address columns from the capture’s own columns', () => {
    const capture: CaptureInfo = {
      id: 'tesi',
      description: '',
      source: 'test',
      rowCount: 1,
      columns: BLE_RECORD_COLUMNS.map((column) => ({ name: column.name, kind: 'string' })),
      timeColumn: 'ts_ms',
      channelColumn: 'channel',
      channels: [],
      bounds: { start_ms: 1.5, end_ms: 9.5 },
      boundsSource: 'observed',
      timeOrigin: null,
    };
    expect(suggestedArguments(ble, capture)).toEqual({
      address_columns: { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr', scanner_addr: 'scanner_addr' },
      analysis_mode: 'both',
      linkage_window_s: 180,
      min_observation_count: 25,
      rpa_rotation_model: 'spec_default',
    });
    const withoutScanner = { ...capture, columns: capture.columns.filter((column) => column.name !== 'scanner_addr') };
    expect(suggestedArguments(ble, withoutScanner).address_columns).toEqual({ advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr' });
    expect(declaredSelectionShape(ble)).toBe('ble');
    // The BLE window is whole milliseconds inside the bounds.
    expect(selectionForCapture('ble', capture)).toEqual({ capture_ids: ['tesi'], time_window: { start_ms: 2, end_ms: 9 } });
  });

  it('switches the selection between its two shapes without losing captures, window or filters', () => {
    const generic = { capture_id: 'a', selectors: { time_range: { start_ms: 1, end_ms: 5 }, filters: ['rssi > -90', "adv_type = 'ADV_IND'"] } };
    const asBle = applySelectionAction(generic, { type: 'shape', shape: 'ble' }, []);
    expect(asBle).toEqual({ capture_ids: ['a'], time_window: { start_ms: 1, end_ms: 5 }, filter_expression: "(rssi > -90) AND (adv_type = 'ADV_IND')" });
    expect(applySelectionAction(asBle, { type: 'shape', shape: 'generic' }, [])).toEqual({
      capture_id: 'a',
      selectors: { time_range: { start_ms: 1, end_ms: 5 }, filters: ["(rssi > -90) AND (adv_type = 'ADV_IND')"] },
    });
  });

  it('keeps text of the wrong type as typed, so validation marks the field instead of losing it', () => {
    const root = argumentsForm(ble);
    const args = applyFormAction({}, root, { type: 'input', path: ['linkage_window_s'], text: 'soon' });
    expect(args).toEqual({ linkage_window_s: 'soon' });
    const columns = applyFormAction({}, root, { type: 'input', path: ['address_columns', 'advertiser_addr'], text: 'advertiser_addr' });
    expect(columns).toEqual({ address_columns: { advertiser_addr: 'advertiser_addr' } });
    expect(applyFormAction(columns, root, { type: 'input', path: ['address_columns', 'advertiser_addr'], text: '' })).toEqual({ address_columns: {} });
  });
});
