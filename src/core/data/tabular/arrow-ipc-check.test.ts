/**
 * The Arrow IPC framing check: every file apache-arrow writes passes it unchanged, and the damage
 * that used to make apache-arrow decode without end (issue 14) is refused in milliseconds.
 */
import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  DenseUnion,
  Dictionary,
  DurationMillisecond,
  Field,
  FixedSizeBinary,
  FixedSizeList,
  Float16,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  IntervalYearMonth,
  LargeBinary,
  LargeList,
  LargeUtf8,
  List,
  Map_,
  Null,
  Schema,
  SparseUnion,
  Struct,
  Table,
  TimeNanosecond,
  TimeSecond,
  TimestampMillisecond,
  Uint32,
  Utf8,
  Utf8View,
  Vector,
  makeBuilder,
  tableFromArrays,
  tableFromIPC,
  tableToIPC,
  vectorFromArray,
  type Data,
  type DataType,
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { builtinCaptures } from '../../demo/builtin-captures.ts';
import { address, llPacket, pcapFile } from '../ble/__fixtures__/capture-builders.ts';
import { readCaptureFile } from '../capture-files.ts';
import { checkArrowIpcFraming, MAX_NESTING } from './arrow-ipc-check.ts';
import { readArrowIpc } from './arrow-reader.ts';
import { withCpuTime } from '../../../test-support/cpu-time.ts';

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const CPU_BOUND_MS = 1_000;

/** Tables of many shapes, as apache-arrow writes them. */
function sampleTables(): Array<[string, Table]> {
  const nested = vectorFromArray(
    [[{ a: 1, b: 'x' }], [], null, [{ a: null, b: 'y' }, { a: 3, b: null }]],
    new List(new Field('item', new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), true)]), true)),
  );
  const dictionary = vectorFromArray(['a', 'b', 'a', null], new Dictionary(new Utf8(), new Int8(), 7));
  const names = vectorFromArray(['a', 'b', 'a'], new Dictionary(new Utf8(), new Int32(), 3));
  const twoBatches = new Table({
    ts_ms: vectorFromArray([1, 2], new Float64()).concat(vectorFromArray([3], new Float64())),
    name: names.slice(0, 2).concat(names.slice(2)),
  });
  return [
    ['numbers and dictionary strings', tableFromArrays({ ts_ms: Float64Array.from([1, 2, 3]), name: ['a', 'b', 'c'] })],
    ['ints', tableFromArrays({ ts_ms: Float64Array.from([5, 6]), rssi: Int32Array.from([-40, -50]) })],
    ['nested lists of structs, nulls, booleans', new Table({ nested, flag: vectorFromArray([true, null, false, true], new Bool()), dictionary })],
    ['two record batches sharing a dictionary', twoBatches],
    ['no rows', new Table(new Schema([new Field('ts_ms', new Float64(), true)]))],
    ['no columns', new Table({})],
    ['a deep but legal nesting', new Table({ deep: deepList(MAX_NESTING - 1) })],
    ['built-in capture', builtinCaptures()[0].table],
    ['every other type apache-arrow writes', everyType()],
  ];
}

/** Five rows of each type with a layout of its own: widths, offsets, views, unions, maps. */
function everyType(): Table {
  const item = (type: DataType) => new Field('item', type, true);
  const bytes = (...values: Array<number[] | null>) => values.map((value) => (value === null ? null : Uint8Array.from(value)));
  const unionOf = <T extends SparseUnion | DenseUnion>(type: T): Vector<T> => {
    const builder = makeBuilder<T>({ type, nullValues: [null], valueToChildTypeId: (_: unknown, value: unknown) => (typeof value === 'number' ? 0 : 1) } as Parameters<typeof makeBuilder<T>>[0]);
    for (const value of [1, 'a', 2, 'b', 3]) builder.append(value as never);
    return new Vector<T>([builder.finish().flush() as Data<T>]);
  };
  const members = () => [new Field('n', new Float64(), true), new Field('s', new Utf8(), true)];
  return new Table({
    i8: vectorFromArray([1, null, 3, 4, 5], new Int8()),
    i16: vectorFromArray([1, 2, null, 4, 5], new Int16()),
    u32: vectorFromArray([1, 2, 3, 4, 5], new Uint32()),
    i64: vectorFromArray([1n, 2n, 3n, null, 5n], new Int64()),
    f16: vectorFromArray([1, 2, 3, 4, 5], new Float16()),
    f32: vectorFromArray([1, 2, 3, 4, null], new Float32()),
    null: vectorFromArray([null, null, null, null, null], new Null()),
    day: vectorFromArray([new Date(0), new Date(86_400_000), null, new Date(0), new Date(0)], new DateDay()),
    ms: vectorFromArray([new Date(0), new Date(1), null, new Date(2), new Date(3)], new DateMillisecond()),
    seconds: vectorFromArray([1, 2, 3, 4, 5], new TimeSecond()),
    nanoseconds: vectorFromArray([1n, 2n, 3n, 4n, 5n], new TimeNanosecond()),
    zoned: vectorFromArray([1, 2, 3, 4, 5], new TimestampMillisecond('UTC')),
    duration: vectorFromArray([1n, 2n, 3n, 4n, 5n], new DurationMillisecond()),
    interval: vectorFromArray([Int32Array.from([1]), Int32Array.from([2]), null, Int32Array.from([3]), Int32Array.from([4])], new IntervalYearMonth()),
    fixed: vectorFromArray(bytes([1, 2], [3, 4], null, [5, 6], [7, 8]), new FixedSizeBinary(2)),
    binary: vectorFromArray(bytes([1], [], null, [5, 6], [7]), new Binary()),
    largeBinary: vectorFromArray(bytes([1], [], null, [5, 6], [7]), new LargeBinary()),
    largeUtf8: vectorFromArray(['a', '', null, 'bc', 'd'], new LargeUtf8()),
    view: vectorFromArray(['a', 'longer than twelve bytes, so out of line', null, 'c', 'd'], new Utf8View()),
    pairs: vectorFromArray([[1, 2], [3, 4], null, [5, 6], [7, 8]], new FixedSizeList(2, item(new Int32()))),
    largeList: vectorFromArray([[1], [], null, [5, 6], [7]], new LargeList(item(new Int32()))),
    map: vectorFromArray([new Map([['a', 1]]), new Map(), null, new Map([['b', 2]]), new Map([['c', 3]])], new Map_(new Field('entries', new Struct<{ key: Utf8; value: Int32 }>([new Field('key', new Utf8(), false), new Field('value', new Int32(), true)]), false))),
    sparse: unionOf(new SparseUnion([0, 1], members())),
    dense: unionOf(new DenseUnion([0, 1], members())),
    smallIndices: vectorFromArray(['a', 'b', 'a', null, 'c'], new Dictionary(new Utf8(), new Int16(), 42)),
  });
}

/** A one-row column of lists nested `levels` deep around a float. */
function deepList(levels: number): Vector {
  let type: Float64 | List = new Float64();
  for (let level = 0; level < levels; level++) type = new List(new Field('item', type, true));
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = [value];
  return vectorFromArray([value], type);
}

async function bleCaptureTable(): Promise<Table> {
  const packets = [0, 1, 2].map((index) => ({ seconds: 1_700_000_000 + index, fraction: 0, bytes: llPacket({ pduType: 0, payload: address(`7A:4C:21:9D:10:E${index}`) }) }));
  const read = await readCaptureFile(pcapFile({ linkType: 251, packets }), { id: 'ble', fileName: 'ble.pcap' });
  if (!read.ok) throw new Error(read.error.message);
  return read.value.table;
}

describe('Arrow IPC framing check', () => {
  it('passes every file and stream apache-arrow writes, and they import unchanged', async () => {
    const tables = [...sampleTables(), ['BLE capture (dictionaries, lists)', await bleCaptureTable()] as [string, Table]];
    for (const [name, table] of tables) {
      for (const format of ['file', 'stream'] as const) {
        const bytes = tableToIPC(table, format);
        expect(checkArrowIpcFraming(bytes), `${name} (${format})`).toBeNull();
        const read = readArrowIpc(bytes);
        expect(read.ok, `${name} (${format})`).toBe(true);
        if (!read.ok) continue;
        expect(read.value.table.numRows).toBe(table.numRows);
        expect(JSON.stringify(read.value.table.toArray(), bigints)).toBe(JSON.stringify(tableFromIPC(bytes).toArray(), bigints));
      }
    }
  });

  it('accepts a stream with no end marker, or a cut one, as apache-arrow does', () => {
    const stream = tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1, 2]) }), 'stream');
    // The last 8 bytes are the end-of-stream marker 0xFFFFFFFF 0x00000000.
    expect([...stream.subarray(-8)]).toEqual([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    for (let cut = 0; cut <= 8; cut++) expect(checkArrowIpcFraming(stream.subarray(0, stream.length - cut))).toBeNull();
  });

  it('refuses two tables in one stream (apache-arrow would join their batches under the first schema)', () => {
    const first = tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1]) }), 'stream');
    const second = tableToIPC(tableFromArrays({ name: ['a'] }), 'stream');
    expect(checkArrowIpcFraming(Uint8Array.from([...first.subarray(0, -8), ...second]))).toMatch(/second schema/);
  });

  it('refuses a stream of garbage after its last message', () => {
    const stream = tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1, 2]) }), 'stream');
    const garbage = Uint8Array.from([...stream.subarray(0, -8), 0x12, 0x34, 0x56]);
    expect(checkArrowIpcFraming(garbage)).toMatch(/message/);
  });
});

describe('damage that made apache-arrow decode without end (issue 14) is refused at once', () => {
  const file = tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1, 2, 3]), name: ['a', 'b', 'c'] }), 'file');

  /** Refused within 50 ms, as UNREADABLE_ARROW with a plain message. */
  function expectRefused(bytes: Uint8Array, pattern: RegExp) {
    const { value: read, cpuMs } = withCpuTime(() => readArrowIpc(bytes, { fileName: 'damaged.arrow' }));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(read).toMatchObject({ ok: false, error: { code: 'UNREADABLE_ARROW' } });
    if (read.ok) return;
    expect(read.error.message).toMatch(/^damaged\.arrow is not readable Arrow IPC: /);
    expect(read.error.message).toMatch(pattern);
    expect(read.error.message).not.toMatch(/Cannot read|undefined|TypeError|RangeError|\n/);
  }

  it('a schema field count with a high bit flipped (apache-arrow: millions of junk fields until the heap is gone)', () => {
    const footer = locateFooter(file);
    const fields = footer.vector(footer.table(footer.root(), 1), 1);
    expectRefused(withUint32(file, fields - 4, 2 + (1 << 22)), /4194306 schema fields would lie outside it/);
  });

  it("a record batch's node count with a high bit flipped", () => {
    const batch = locateBatch(file);
    const nodes = batch.vector(batch.table(batch.root(), 2), 1);
    expectRefused(withUint32(file, nodes - 4, 2 + (1 << 24)), /field nodes would lie outside it/);
  });

  it("a record batch's node count that disagrees with its schema", () => {
    const batch = locateBatch(file);
    const nodes = batch.vector(batch.table(batch.root(), 2), 1);
    expectRefused(withUint32(file, nodes - 4, 1), /record batch 1 has 1 field node where its schema has 2/);
  });

  it("a footer's record batch count with a high bit flipped", () => {
    const footer = locateFooter(file);
    const blocks = footer.vector(footer.root(), 3);
    expectRefused(withUint32(file, blocks - 4, 1 + (1 << 20)), /record batch blocks would lie outside it/);
  });

  it('a buffer that lies outside its body', () => {
    const batch = locateBatch(file);
    const buffers = batch.vector(batch.table(batch.root(), 2), 2);
    expectRefused(withUint32(file, buffers + 8, 1 << 20), /a buffer of record batch 1 lies outside its \d+-byte body/);
  });

  it('a row count beyond what the body can hold', () => {
    const batch = locateBatch(file);
    const rowsAt = batch.field(batch.table(batch.root(), 2), 0);
    expectRefused(withUint32(file, rowsAt, 3 + (1 << 30)), /claims 1073741827 rows but has only \d+ bytes/);
  });

  it('a type id flipped to a list, which then has no child (apache-arrow failed later, outside its decoder)', () => {
    const footer = locateFooter(file);
    const first = footer.tableAt(footer.vector(footer.table(footer.root(), 1), 1), 0);
    const flipped = file.slice();
    flipped[footer.field(first, 2)] = 12; // ts_ms: FloatingPoint → List
    expectRefused(flipped, /a field of type id 12 has 0 child fields/);
  });

  it('a string column flipped to LargeUtf8, whose 32-bit offsets are then too short (apache-arrow threw while reading a value)', () => {
    const strings = tableToIPC(new Table({ ts_ms: vectorFromArray([1, 2, 3], new Float64()), name: vectorFromArray(['a', 'b', 'c'], new Utf8()) }), 'file');
    const footer = locateFooter(strings);
    const name = footer.tableAt(footer.vector(footer.table(footer.root(), 1), 1), 1);
    const flipped = strings.slice();
    flipped[footer.field(name, 2)] = 20; // Utf8 → LargeUtf8
    expectRefused(flipped, /has 3 values but a \d+-byte buffer where it needs 32/);
  });

  it('field types nested deeper than the limit', () => {
    const bytes = tableToIPC(new Table({ deep: deepList(MAX_NESTING + 1) }), 'stream');
    expect(checkArrowIpcFraming(bytes)).toMatch(/nest more than 64 levels deep/);
  });
});

const bigints = (_: string, value: unknown) => (typeof value === 'bigint' ? String(value) : value);

function withUint32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copied = bytes.slice();
  new DataView(copied.buffer).setUint32(at, value >>> 0, true);
  return copied;
}

/**
 * A minimal flatbuffer locator for the tests, independent of the module under test: absolute
 * positions of tables, fields and vectors inside one flatbuffer that starts at `base`.
 */
class Locator {
  private readonly view: DataView;
  constructor(bytes: Uint8Array, private readonly base: number) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  root(): number {
    return this.base + this.view.getUint32(this.base, true);
  }
  field(table: number, slot: number): number {
    const vtable = table - this.view.getInt32(table, true);
    return table + this.view.getUint16(vtable + 4 + 2 * slot, true);
  }
  table(table: number, slot: number): number {
    const at = this.field(table, slot);
    return at + this.view.getUint32(at, true);
  }
  /** The first element of a vector field (its length is the uint32 just before). */
  vector(table: number, slot: number): number {
    return this.table(table, slot) + 4;
  }
  tableAt(vector: number, index: number): number {
    const at = vector + 4 * index;
    return at + this.view.getUint32(at, true);
  }
}

function locateFooter(file: Uint8Array): Locator {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const length = view.getInt32(file.length - 10, true);
  return new Locator(file, file.length - 10 - length);
}

/** The metadata flatbuffer of the file's first record batch (continuation marker, length, flatbuffer). */
function locateBatch(file: Uint8Array): Locator {
  const footer = locateFooter(file);
  const block = footer.vector(footer.root(), 3);
  const offset = Number(new DataView(file.buffer, file.byteOffset).getBigInt64(block, true));
  return new Locator(file, offset + 8);
}
