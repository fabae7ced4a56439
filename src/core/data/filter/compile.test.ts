import { Bool, Dictionary, Int32, LargeUtf8, RecordBatch, Table, Utf8, makeVector, tableFromArrays, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { columnSchemaOf, type ColumnSchema } from '../columns.ts';
import { evaluateTable } from './__fixtures__/filter-test-support.ts';
import { combineFilters, compileFilter, type CompiledFilter } from './compile.ts';
import { parseFilter } from './parser.ts';
import type { FilterProblem } from './problem.ts';
import { evaluateFilterReference } from './reference.ts';

interface BleRow {
  channel: number | null;
  rssi: number;
  adv_type: string | null;
  local_name: string | null;
  signal_quality: number;
  connectable: boolean | null;
  snr: number;
  jitter: number;
}

const BLE_ROWS: BleRow[] = [
  { channel: 37, rssi: -80, adv_type: 'ADV_IND', local_name: 'Pixel', signal_quality: 0.99, connectable: true, snr: 5, jitter: 2 },
  { channel: 38, rssi: -95, adv_type: 'ADV_NONCONN_IND', local_name: null, signal_quality: 0.95, connectable: false, snr: 1.5, jitter: 1.5 },
  { channel: 39, rssi: Number.NaN, adv_type: null, local_name: 'Tag', signal_quality: 0.5, connectable: null, snr: Number.NaN, jitter: 1 },
  { channel: 37, rssi: -91, adv_type: 'SCAN_RSP', local_name: '', signal_quality: Number.NaN, connectable: true, snr: 0.5, jitter: 3 },
  { channel: null, rssi: -60, adv_type: 'ADV_IND', local_name: null, signal_quality: 1, connectable: false, snr: 2, jitter: Number.NaN },
  { channel: 39, rssi: -92, adv_type: 'ADV_IND', local_name: "it's", signal_quality: 0.2, connectable: true, snr: 3, jitter: 3 },
];

/** Numbers as typed arrays, nullable ints and booleans with validity bitmaps, adv_type dictionary-encoded, local_name plain Utf8. */
function bleTable(rows: BleRow[]): Table {
  return new Table({
    channel: vectorFromArray(rows.map((row) => row.channel), new Int32()),
    rssi: makeVector(Float64Array.from(rows, (row) => row.rssi)),
    adv_type: vectorFromArray(rows.map((row) => row.adv_type), new Dictionary(new Utf8(), new Int32())),
    local_name: vectorFromArray(rows.map((row) => row.local_name), new Utf8()),
    signal_quality: makeVector(Float64Array.from(rows, (row) => row.signal_quality)),
    connectable: vectorFromArray(rows.map((row) => row.connectable), new Bool()),
    snr: makeVector(Float64Array.from(rows, (row) => row.snr)),
    jitter: makeVector(Float64Array.from(rows, (row) => row.jitter)),
  });
}

const BLE = bleTable(BLE_ROWS);
const BLE_SCHEMA = columnSchemaOf(BLE.schema.fields);

function compile(expression: string, schema: ReadonlyArray<ColumnSchema> = BLE_SCHEMA): CompiledFilter {
  const result = compileFilter(expression, schema);
  if (!result.ok) throw new Error(`expected ${expression} to compile: ${result.error.message}`);
  return result.value;
}

function compileProblem(expression: string, schema: ReadonlyArray<ColumnSchema> = BLE_SCHEMA): FilterProblem {
  const result = compileFilter(expression, schema);
  if (result.ok) throw new Error(`expected ${expression} to be rejected`);
  return result.error;
}

function reference(expression: string, rows: ReadonlyArray<object>): number[] {
  const parsed = parseFilter(expression);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return rows.map((row) => (evaluateFilterReference(parsed.value, { ...row }) ? 1 : 0));
}

describe('compileFilter: evaluation on a BLE capture', () => {
  it('reads the schema the way the app does', () => {
    expect(BLE_SCHEMA).toEqual([
      { name: 'channel', kind: 'number' },
      { name: 'rssi', kind: 'number' },
      { name: 'adv_type', kind: 'string' },
      { name: 'local_name', kind: 'string' },
      { name: 'signal_quality', kind: 'number' },
      { name: 'connectable', kind: 'boolean' },
      { name: 'snr', kind: 'number' },
      { name: 'jitter', kind: 'number' },
    ]);
  });

  it.each<[string, number[]]>([
    // the spec examples
    ['signal_quality >= 0.95', [1, 1, 0, 0, 1, 0]],
    ['0.95 <= signal_quality', [1, 1, 0, 0, 1, 0]],
    ['channel IN (37,38,39) AND rssi > -92', [1, 0, 0, 1, 0, 0]],
    ["adv_type IN ('ADV_IND','ADV_NONCONN_IND')", [1, 1, 0, 0, 1, 1]],
    ['local_name IS NOT NULL', [1, 0, 1, 1, 0, 1]],
    ['snr > jitter', [1, 0, 0, 0, 0, 0]],
    // every comparison operator
    ['rssi = -91', [0, 0, 0, 1, 0, 0]],
    ['rssi != -91', [1, 1, 0, 0, 1, 1]],
    ['rssi <> -91', [1, 1, 0, 0, 1, 1]],
    ['rssi < -91', [0, 1, 0, 0, 0, 1]],
    ['rssi <= -91', [0, 1, 0, 1, 0, 1]],
    ['rssi > -91', [1, 0, 0, 0, 1, 0]],
    ['rssi >= -91', [1, 0, 0, 1, 1, 0]],
    ['-91 > rssi', [0, 1, 0, 0, 0, 1]],
    ['snr >= jitter', [1, 1, 0, 0, 0, 1]],
    ['snr = jitter', [0, 1, 0, 0, 0, 1]],
    ['NOT snr > jitter', [0, 1, 0, 1, 0, 1]],
    // IN / NOT IN, nulls never match either
    ["adv_type NOT IN ('ADV_IND','ADV_NONCONN_IND')", [0, 0, 0, 1, 0, 0]],
    ['channel NOT IN (37)', [0, 1, 1, 0, 0, 1]],
    ['channel IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 38, 39)', [0, 1, 1, 0, 0, 1]],
    // BETWEEN, with literal and column bounds
    ['rssi BETWEEN -92 AND -80', [1, 0, 0, 1, 0, 1]],
    ['NOT (snr BETWEEN 1 AND 2)', [1, 0, 0, 1, 0, 1]],
    ['snr NOT BETWEEN 1 AND 2', [1, 0, 0, 1, 0, 1]],
    ['snr BETWEEN jitter AND 4', [0, 1, 0, 0, 0, 1]],
    ['snr NOT BETWEEN jitter AND 4', [1, 0, 0, 1, 0, 0]],
    // IS NULL on every kind (NaN is null)
    ['local_name IS NULL', [0, 1, 0, 0, 1, 0]],
    ['adv_type IS NULL', [0, 0, 1, 0, 0, 0]],
    ['channel IS NULL', [0, 0, 0, 0, 1, 0]],
    ['signal_quality IS NULL', [0, 0, 0, 1, 0, 0]],
    ['connectable IS NOT NULL', [1, 1, 0, 1, 1, 1]],
    // strings: plain Utf8 and dictionary, equality and order
    ["local_name = ''", [0, 0, 0, 1, 0, 0]],
    ["local_name = 'it''s'", [0, 0, 0, 0, 0, 1]],
    ["local_name != 'Tag'", [1, 0, 0, 1, 0, 1]],
    ["local_name < 'Q'", [1, 0, 0, 1, 0, 0]],
    ["local_name IN ('Tag', 'Pixel', 'nope')", [1, 0, 1, 0, 0, 0]],
    ["local_name BETWEEN 'A' AND 'Z'", [1, 0, 1, 0, 0, 0]],
    ["adv_type > 'ADV_IND'", [0, 1, 0, 1, 0, 0]],
    ["'ADV_IND' = adv_type", [1, 0, 0, 0, 1, 1]],
    ['local_name = adv_type', [0, 0, 0, 0, 0, 0]],
    ['local_name != adv_type', [1, 0, 0, 1, 0, 1]],
    // booleans: TRUE/FALSE or 0/1
    ['connectable = TRUE', [1, 0, 0, 1, 0, 1]],
    ['connectable = 0', [0, 1, 0, 0, 1, 0]],
    ['connectable != 1', [0, 1, 0, 0, 1, 0]],
    ['NOT connectable = true', [0, 1, 0, 0, 1, 0]],
    ['connectable IN (FALSE)', [0, 1, 0, 0, 1, 0]],
  ])('%s', (expression, expected) => {
    expect(evaluateTable(compile(expression), BLE)).toEqual(expected);
    expect(reference(expression, BLE_ROWS)).toEqual(expected);
  });

  it.each<[string, number[]]>([
    // row 2 has rssi NaN: FALSE AND UNKNOWN is FALSE, so its NOT is TRUE
    ['NOT (rssi > -92 AND channel = 99)', [1, 1, 1, 1, 0, 1]],
    // UNKNOWN OR FALSE is UNKNOWN, and NOT UNKNOWN stays UNKNOWN
    ['NOT (rssi > -92 OR channel = 99)', [0, 1, 0, 0, 0, 1]],
    // UNKNOWN OR TRUE is TRUE
    ['rssi > -92 OR channel = 39', [1, 0, 1, 1, 1, 1]],
    ['NOT NOT rssi > -92', [1, 0, 0, 1, 1, 0]],
    ['NOT (rssi > -92) AND NOT (rssi <= -92)', [0, 0, 0, 0, 0, 0]],
    ['rssi > -92 OR rssi <= -92', [1, 1, 0, 1, 1, 1]],
  ])('three-valued logic: %s', (expression, expected) => {
    expect(evaluateTable(compile(expression), BLE)).toEqual(expected);
    expect(reference(expression, BLE_ROWS)).toEqual(expected);
  });

  it('reports the columns it reads, in order', () => {
    expect(compile('channel IN (37) AND rssi > -92 OR channel = 1 OR 0 < snr').columns).toEqual(['channel', 'rssi', 'snr']);
    expect(compile('local_name IS NULL').expression).toBe('local_name IS NULL');
  });

  it('returns an empty mask for an empty batch', () => {
    const empty = BLE.slice(0, 0);
    for (const batch of empty.batches) expect(compile('rssi > 0 AND local_name = adv_type').evaluate(batch)).toHaveLength(0);
  });

  it('returns a fresh mask on every call', () => {
    const filter = compile('rssi > -92');
    const batch = BLE.batches[0];
    const first = filter.evaluate(batch);
    first.fill(7);
    expect(Array.from(filter.evaluate(batch))).toEqual([1, 0, 0, 1, 1, 0]);
  });
});

describe('compileFilter: demo telemetry capture (string channel)', () => {
  const table = tableFromArrays({
    channel: ['ch1', 'ch2', null, 'ch1', 'ch3'],
    snr: new Float64Array([1.5, 5, 1, Number.NaN, 0]),
  });
  const schema = columnSchemaOf(table.schema.fields);

  it('encodes strings as a dictionary', () => {
    expect(schema).toEqual([
      { name: 'channel', kind: 'string' },
      { name: 'snr', kind: 'number' },
    ]);
    expect(String(table.schema.fields[0].type)).toContain('Dictionary');
  });

  it('evaluates the spec example', () => {
    // row 3: TRUE OR UNKNOWN; row 2: UNKNOWN OR FALSE
    expect(evaluateTable(compile("channel = 'ch1' OR NOT (snr BETWEEN 1 AND 2)", schema), table)).toEqual([1, 1, 0, 1, 1]);
  });

  it('rejects a numeric channel value', () => {
    expect(compileProblem('channel = 37', schema)).toEqual({
      kind: 'type_mismatch',
      column: 'channel',
      position: 10,
      message: 'column channel is string but 37 is a number at position 10',
    });
  });
});

describe('compileFilter: multi-batch tables', () => {
  const expressions = [
    "adv_type IN ('ADV_IND', 'SCAN_RSP') AND local_name IS NOT NULL",
    "local_name >= 'T' OR channel = 38",
    "NOT (adv_type = 'ADV_IND') OR snr BETWEEN jitter AND 4",
    'connectable = FALSE OR rssi < -90',
    "adv_type = local_name OR adv_type != 'SCAN_RSP'",
  ];

  it('gives the same rows for batches sliced from one table', () => {
    const sliced = new Table([...BLE.slice(0, 2).batches, ...BLE.slice(2, 5).batches, ...BLE.slice(5).batches]);
    expect(sliced.batches.length).toBe(3);
    expect(sliced.batches.map((batch) => batch.numRows)).toEqual([2, 3, 1]);
    for (const expression of expressions) {
      const filter = compile(expression);
      expect(evaluateTable(filter, sliced), expression).toEqual(evaluateTable(filter, BLE));
      expect(evaluateTable(filter, sliced), expression).toEqual(reference(expression, BLE_ROWS));
    }
  });

  it('evaluates each batch against its own dictionary', () => {
    const first = bleTable(BLE_ROWS.slice(0, 3));
    const second = bleTable(BLE_ROWS.slice(3));
    // Same schema, different dictionaries: the second batch's dictionary is [SCAN_RSP, ADV_IND].
    const table = new Table([...first.batches, new RecordBatch(first.schema, second.batches[0].data)]);
    expect(table.batches.length).toBe(2);
    expect(table.batches[1].getChild('adv_type')?.data[0].dictionary?.toArray()).toEqual(['SCAN_RSP', 'ADV_IND']);
    for (const expression of expressions) {
      const filter = compile(expression);
      expect(evaluateTable(filter, table), expression).toEqual(evaluateTable(filter, BLE));
    }
  });

  it('reads string types other than Utf8 and dictionaries through vector.get', () => {
    const table = new Table({ name: vectorFromArray(['a', null, 'b', "it's"], new LargeUtf8()) });
    const schema = columnSchemaOf(table.schema.fields);
    expect(evaluateTable(compile("name IN ('a', 'it''s') OR name > 'a'", schema), table)).toEqual([1, 0, 1, 1]);
    expect(evaluateTable(compile('name IS NULL', schema), table)).toEqual([0, 1, 0, 0]);
  });
});

describe('compileFilter: problems', () => {
  it('names an unknown column, its position and the available columns', () => {
    expect(compileProblem('foo = 1')).toEqual({
      kind: 'unknown_column',
      column: 'foo',
      position: 0,
      message: "Unknown column 'foo' at position 0; nearest: snr, rssi, jitter; available: channel, rssi, adv_type, local_name, signal_quality, connectable, snr, jitter",
    });
    const problem = compileProblem('rssi > -92 AND Channel IN (37)');
    expect(problem).toMatchObject({ kind: 'unknown_column', column: 'Channel', position: 15 });
    expect(problem.message).toContain('did you mean channel?');
    expect(compileProblem('0 < "odd name"')).toMatchObject({ kind: 'unknown_column', column: 'odd name', position: 4 });
    expect(compileProblem('x IS NULL', [])).toMatchObject({ message: "Unknown column 'x' at position 0; available: (none)" });
  });

  it('reports the first problem in the text', () => {
    expect(compileProblem("foo = 1 AND channel = 'x'")).toMatchObject({ kind: 'unknown_column', column: 'foo' });
    expect(compileProblem("channel = 'x' AND foo = 1")).toMatchObject({ kind: 'type_mismatch', column: 'channel' });
    expect(compileProblem("channel = 'x' AND (")).toMatchObject({ kind: 'syntax' });
  });

  it.each<[string, string, number, string]>([
    ["channel = 'ch1'", 'channel', 10, "column channel is number but 'ch1' is a string at position 10"],
    ["'ch1' = channel", 'channel', 0, "column channel is number but 'ch1' is a string at position 0"],
    ['adv_type = 37', 'adv_type', 11, 'column adv_type is string but 37 is a number at position 11'],
    ["adv_type IN ('ADV_IND', 3)", 'adv_type', 24, 'column adv_type is string but 3 is a number at position 24'],
    ["rssi BETWEEN 'a' AND 2", 'rssi', 13, "column rssi is number but 'a' is a string at position 13"],
    ['rssi BETWEEN 1 AND local_name', 'rssi', 19, 'column rssi is number but column local_name is string at position 19'],
    ['snr > local_name', 'snr', 6, 'column snr is number but column local_name is string at position 6'],
    ['connectable = rssi', 'connectable', 14, 'column connectable is boolean but column rssi is number at position 14'],
    ['rssi = TRUE', 'rssi', 7, 'column rssi is number but TRUE is a boolean at position 7'],
    ['local_name = FALSE', 'local_name', 13, 'column local_name is string but FALSE is a boolean at position 13'],
    [
      'connectable = 2',
      'connectable',
      14,
      'column connectable is boolean but 2 is a number at position 14 (boolean columns compare with TRUE, FALSE, 0 or 1)',
    ],
    ["connectable IN ('yes')", 'connectable', 16, "column connectable is boolean but 'yes' is a string at position 16 (boolean columns compare with TRUE, FALSE, 0 or 1)"],
  ])('type mismatch: %s', (expression, column, position, message) => {
    expect(compileProblem(expression)).toEqual({ kind: 'type_mismatch', column, position, message });
  });

  it('passes syntax problems through', () => {
    expect(compileProblem('signal_quality >= ')).toEqual({
      kind: 'syntax',
      position: 18,
      message: "Expected a value after '>=' at position 18, found end of input",
    });
  });
});

describe('combineFilters', () => {
  const rssi = compile('rssi > -92');
  const name = compile('local_name IS NOT NULL AND connectable = TRUE');

  it('keeps every row when there are no filters', () => {
    const all = combineFilters([]);
    expect(evaluateTable(all, BLE)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(all.columns).toEqual([]);
    expect(all.expression).toBe('');
  });

  it('returns a single filter as it is', () => {
    expect(combineFilters([rssi])).toBe(rssi);
  });

  it('keeps the rows every filter keeps', () => {
    const both = combineFilters([rssi, name, compile('rssi < 0')]);
    expect(evaluateTable(both, BLE)).toEqual([1, 0, 0, 1, 0, 0]);
    expect(both.columns).toEqual(['rssi', 'local_name', 'connectable']);
    expect(both.expression).toBe('(rssi > -92) AND (local_name IS NOT NULL AND connectable = TRUE) AND (rssi < 0)');
    // The combined text means the same thing as the combination.
    expect(evaluateTable(compile(both.expression), BLE)).toEqual(evaluateTable(both, BLE));
  });
});
