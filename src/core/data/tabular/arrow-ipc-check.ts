/**
 * A bounds check of Arrow IPC framing, run before apache-arrow sees the bytes (issue 14).
 *
 * Why by hand: apache-arrow reads its flatbuffer metadata without any validation. A flatbuffer
 * read past the end of its buffer yields zeros (or undefined) instead of failing, so one flipped
 * bit in a vector length (the schema's fields, a batch's nodes or buffers, the footer's blocks, a
 * custom-metadata list) makes it decode millions or billions of junk entries until the heap is
 * gone, a field table shared by a flipped offset multiplies its recursive schema decoding, and a
 * buffer too short for its column's type fails later, while a value is read. There is no cheap
 * validating pass in the library (flatbuffers' JavaScript runtime has no verifier), so this module
 * reads the few fields that decide how much work the decoding will do — and nothing else — and
 * checks them against the bytes:
 *
 * - framing: the `ARROW1` magic and footer of the file format, the length prefixes (with or without
 *   the 0xFFFFFFFF continuation marker) of every message in the stream format or at every footer
 *   block; every message's metadata and body within the file;
 * - flatbuffers (Message, Schema, Field, DictionaryEncoding, KeyValue, RecordBatch,
 *   DictionaryBatch, Footer, Block; Arrow's `format/*.fbs`): every table, vtable, string and vector
 *   inside its buffer, every vector's elements inside it too. Offsets and lengths are read unsigned,
 *   as the format defines them, so every reference points forward and no table can loop back to
 *   itself (apache-arrow reads them signed: a "negative" one is refused here as out of bounds);
 * - the schema: field, children and metadata counts bounded by the metadata's size (each entry
 *   costs at least four bytes in a flatbuffer that shares no tables, so the walk may visit at most
 *   a quarter as many entries as there are bytes — tables shared to multiply the work exhaust it),
 *   nesting at most {@link MAX_NESTING} deep, known type ids with the children their type has,
 *   named columns, little-endian;
 * - record and dictionary batches: the row count and every node's length bounded by the body's
 *   bits, null counts within lengths, as many nodes as the schema has fields (a dictionary batch:
 *   as its dictionary's value type), top-level nodes as long as the batch, exactly the buffers
 *   the nodes' types use, each inside the body and long enough for the fixed-width values,
 *   offsets, type ids or views apache-arrow will read (a short validity bitmap or variable data
 *   is read safely), dictionary ids the schema declares and sent before use, uncompressed.
 *
 * Everything is a loop over the bytes, never recursion, and the work is linear in the file's size.
 * What is wrong comes back as one plain sentence.
 */

/** The outcome: null when the framing is sound, else what is wrong, for people. */
export type ArrowFramingProblem = string | null;

/** Deepest nesting of field types accepted (a list of structs of lists … counts each level). */
export const MAX_NESTING = 64;
/** Rows a batch may claim per byte of its body: a column of n rows needs at least n bits. */
const ROWS_PER_BODY_BYTE = 8;
/** Rows allowed beyond that, for columns of the Null type, which have no buffers at all. */
const ROW_SLACK = 4096;
/** The largest type id of Arrow's `Type` union (LargeListView). */
const MAX_TYPE_ID = 26;
/** Type ids with a table read beyond widths and units (Union's type ids, Timestamp's zone). */
const TYPE_UNION = 14;
const TYPE_TIMESTAMP = 10;
/**
 * Children each type must have (Arrow's columnar format): lists, maps and fixed-size lists one, a
 * run-end encoded array two, structs and unions any number, every other type none. apache-arrow
 * does not check this, and a list without its child fails later, outside its decoder.
 */
function childrenAllowed(typeId: number, children: number): boolean {
  switch (typeId) {
    case 12: // List
    case 16: // FixedSizeList
    case 17: // Map
    case 21: // LargeList
    case 25: // ListView
    case 26: // LargeListView
      return children === 1;
    case 22: // RunEndEncoded
      return children === 2;
    case 13: // Struct_
    case TYPE_UNION:
      return true;
    default:
      return children === 0;
  }
}
/** `MessageHeader` union ids. */
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY_BATCH = 2;
const HEADER_RECORD_BATCH = 3;
/** `MetadataVersion.V4`: before it, a Buffer struct carried an extra 8-byte page id. */
const METADATA_V4 = 3;
/** `MetadataVersion.V5`: before it, a union had a validity bitmap. */
const METADATA_V5 = 4;
const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"
/** `ARROW1` plus two bytes of padding before the first message of the file format. */
const FILE_HEAD = 8;
/** Footer length (int32) plus the closing `ARROW1`. */
const FILE_TAIL = 10;

/** Thrown inside the check only and turned into its result at the edge. */
class Unsound extends Error {}

function fail(message: string): never {
  throw new Unsound(message);
}

/** A flatbuffer table: where it is, its vtable, and their sizes. */
interface FlatTable {
  at: number;
  vtable: number;
  vtableSize: number;
  size: number;
}

/** A vector's first element and how many there are. */
interface FlatVector {
  at: number;
  length: number;
}

/**
 * One flatbuffer (a message's metadata or the footer), every read bounds-checked. Positions are
 * relative to the start of the flatbuffer, as its offsets are.
 */
class FlatBuffer {
  private readonly view: DataView;
  /** Entries the walk may still visit: a quarter of the bytes (see the module comment). */
  private budget: number;

  constructor(
    bytes: Uint8Array,
    start: number,
    readonly length: number,
    /** What this flatbuffer is, for messages ("the footer", "a record batch's metadata"). */
    readonly name: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset + start, length);
    this.budget = Math.floor(length / 4) + 1;
  }

  private need(at: number, size: number, what: string): void {
    if (at < 0 || size < 0 || at + size > this.length) fail(`${this.name} is damaged; ${what} would lie outside it`);
  }

  /** Charges `count` entries to the walk; an overdraft means entries are shared or loop. */
  spend(count: number, what: string): void {
    this.budget -= count;
    if (this.budget < 0) fail(`${this.name} lists more ${what} than its ${this.length} bytes can hold`);
  }

  u8(at: number): number {
    return this.view.getUint8(at);
  }

  i32(at: number): number {
    return this.view.getInt32(at, true);
  }

  /** A non-negative int64 as a number, refused when negative or beyond 2^53. */
  count64(at: number, what: string): number {
    const low = this.view.getUint32(at, true);
    const high = this.view.getInt32(at + 4, true);
    if (high < 0 || high >= 0x200000) fail(`${this.name} is damaged; ${what} is ${high < 0 ? 'negative' : 'impossibly large'}`);
    return high * 0x1_0000_0000 + low;
  }

  root(what: string): FlatTable {
    this.need(0, 4, what);
    return this.table(this.view.getUint32(0, true), what);
  }

  table(at: number, what: string): FlatTable {
    this.need(at, 4, what);
    const vtable = at - this.i32(at);
    this.need(vtable, 4, `${what}'s layout`);
    const vtableSize = this.view.getUint16(vtable, true);
    const size = this.view.getUint16(vtable + 2, true);
    if (vtableSize < 4 || vtableSize % 2 !== 0 || size < 4) fail(`${this.name} is damaged; ${what} has no valid layout`);
    this.need(vtable, vtableSize, `${what}'s layout`);
    this.need(at, size, what);
    return { at, vtable, vtableSize, size };
  }

  /** Where field `slot` of the table is, or null when absent; it must lie inside the table. */
  private field(table: FlatTable, slot: number, size: number, what: string): number | null {
    const entry = 4 + 2 * slot;
    if (entry + 2 > table.vtableSize) return null;
    const offset = this.view.getUint16(table.vtable + entry, true);
    if (offset === 0) return null;
    if (offset + size > table.size) fail(`${this.name} is damaged; ${what} lies outside its table`);
    return table.at + offset;
  }

  u8Field(table: FlatTable, slot: number, fallback: number, what: string): number {
    const at = this.field(table, slot, 1, what);
    return at === null ? fallback : this.u8(at);
  }

  i16Field(table: FlatTable, slot: number, fallback: number, what: string): number {
    const at = this.field(table, slot, 2, what);
    return at === null ? fallback : this.view.getInt16(at, true);
  }

  i32Field(table: FlatTable, slot: number, fallback: number, what: string): number {
    const at = this.field(table, slot, 4, what);
    return at === null ? fallback : this.i32(at);
  }

  count64Field(table: FlatTable, slot: number, what: string): number {
    const at = this.field(table, slot, 8, what);
    return at === null ? 0 : this.count64(at, what);
  }

  /** Where an offset field points, or null when absent. */
  private target(table: FlatTable, slot: number, what: string): number | null {
    const at = this.field(table, slot, 4, what);
    if (at === null) return null;
    const target = at + this.view.getUint32(at, true);
    this.need(target, 4, what);
    return target;
  }

  tableField(table: FlatTable, slot: number, what: string): FlatTable | null {
    const at = this.target(table, slot, what);
    return at === null ? null : this.table(at, what);
  }

  /** A vector of `elementSize`-byte elements (4 for tables and strings), all inside the buffer. */
  vectorField(table: FlatTable, slot: number, elementSize: number, what: string, isString = false): FlatVector | null {
    const at = this.target(table, slot, what);
    if (at === null) return null;
    const length = this.view.getUint32(at, true);
    this.need(at + 4, length * elementSize, isString ? `${what} of ${length} bytes` : `${length} ${what}`);
    return { at: at + 4, length };
  }

  /** A string's bytes must lie inside the buffer. False when the string is absent. */
  stringField(table: FlatTable, slot: number, what: string): boolean {
    return this.vectorField(table, slot, 1, what, true) !== null;
  }

  /** Element `index` of a vector of tables. */
  tableAt(vector: FlatVector, index: number, what: string): FlatTable {
    const at = vector.at + 4 * index;
    return this.table(at + this.view.getUint32(at, true), what);
  }

  /** Checks every key and value string of a `[KeyValue]` field. */
  keyValues(table: FlatTable, slot: number, what: string): void {
    const entries = this.vectorField(table, slot, 4, `${what} entries`);
    if (entries === null) return;
    this.spend(entries.length, `${what} entries`);
    for (let index = 0; index < entries.length; index++) {
      const entry = this.tableAt(entries, index, `a ${what} entry`);
      this.stringField(entry, 0, `a ${what} key`);
      this.stringField(entry, 1, `a ${what} value`);
    }
  }
}

/** What the batches are checked against: the schema's fields as apache-arrow will expand them. */
/**
 * The buffers one field node uses, in order, as letters: `v` validity bitmap, `w` fixed-width
 * values (`bits` each), `o`/`O` 32/64-bit offsets (length + 1 of them), `d` variable data, `t`
 * union type ids (a byte each), `x` views (16 bytes each, then the batch's next variadic count of
 * data buffers). Union layouts get their validity bitmap added for metadata before V5.
 */
interface Layout {
  buffers: string;
  bits: number;
}

/** What the batches are checked against: the schema's fields as apache-arrow will expand them. */
interface SchemaShape {
  /** Layout per field node of a record batch, in node order (pre-order, dictionary-encoded fields as indices). */
  recordBatch: Layout[];
  /** Per node of a record batch, whether it is a top-level column (as long as the batch). */
  topLevel: boolean[];
  /** Per dictionary id, the layouts of its dictionary batch's nodes (the value type's tree). */
  dictionaries: Map<number, Layout[]>;
}

/** Reads a Schema table: every field, its children and metadata, within the budget. */
function checkSchema(buffer: FlatBuffer, schema: FlatTable): SchemaShape {
  if (buffer.i16Field(schema, 0, 0, 'the schema endianness') !== 0) fail('it is big-endian, which is not supported');
  buffer.keyValues(schema, 2, 'schema metadata');
  const fields = buffer.vectorField(schema, 1, 4, 'schema fields');
  const topCount = fields?.length ?? 0;
  buffer.spend(topCount, 'fields');
  // Fields numbered in pre-order (a parent before its children, each subtree contiguous), as the
  // nodes of a batch are ordered. A shared table is expanded once per reference, as apache-arrow does.
  const parent: number[] = [];
  const dictionaryId: Array<number | null> = [];
  /** As a column or value type, and (dictionary-encoded fields) as indices. */
  const layouts: Layout[] = [];
  const indexLayouts: Array<Layout | null> = [];
  const pending: Array<{ table: FlatTable; parent: number; depth: number }> = [];
  for (let index = topCount - 1; index >= 0; index--) pending.push({ table: buffer.tableAt(fields as FlatVector, index, 'a field'), parent: -1, depth: 1 });
  let columns = 0;
  while (pending.length > 0) {
    const next = pending.pop() as { table: FlatTable; parent: number; depth: number };
    const id = parent.length;
    parent.push(next.parent);
    const field = next.table;
    if (next.parent === -1) columns++;
    // Columns are known by name everywhere in Sextant; a column without one is damage.
    if (!buffer.stringField(field, 0, 'a field name') && next.parent === -1) fail(`column ${columns} has no name`);
    const typeId = buffer.u8Field(field, 2, 0, 'a field type');
    if (typeId > MAX_TYPE_ID) fail(`a field has type id ${typeId}, which Arrow does not define`);
    const type = buffer.tableField(field, 3, 'a field type');
    layouts.push(layoutOf(buffer, typeId, type));
    const dictionary = buffer.tableField(field, 4, 'a dictionary encoding');
    if (dictionary === null) {
      dictionaryId.push(null);
      indexLayouts.push(null);
    } else {
      dictionaryId.push(buffer.count64Field(dictionary, 0, 'a dictionary id'));
      const indexType = buffer.tableField(dictionary, 1, 'a dictionary index type');
      // An absent index type is a signed 32-bit integer.
      indexLayouts.push(indexType === null ? { buffers: 'vw', bits: 32 } : layoutOf(buffer, 2, indexType));
    }
    buffer.keyValues(field, 6, 'field metadata');
    const children = buffer.vectorField(field, 5, 4, 'field children');
    if (!childrenAllowed(typeId, children?.length ?? 0)) fail(`a field of type id ${typeId} has ${children?.length ?? 0} child field${children?.length === 1 ? '' : 's'}, which that type cannot have`);
    if (children !== null && children.length > 0) {
      if (next.depth >= MAX_NESTING) fail(`its field types nest more than ${MAX_NESTING} levels deep`);
      buffer.spend(children.length, 'fields');
      for (let index = children.length - 1; index >= 0; index--) pending.push({ table: buffer.tableAt(children, index, 'a child field'), parent: id, depth: next.depth + 1 });
    }
  }
  // Fields in each subtree (itself included): a subtree spans ids [id, id + size).
  const size = new Array<number>(parent.length).fill(1);
  for (let id = parent.length - 1; id >= 0; id--) if (parent[id] !== -1) size[parent[id]] += size[id];
  /** The nodes of the fields in [from, to): a dictionary-encoded field is its indices, its subtree skipped (except `root`'s). */
  const nodesOf = (from: number, to: number, root: number): Layout[] => {
    const nodes: Layout[] = [];
    for (let id = from; id < to; ) {
      const indices = id === root ? null : indexLayouts[id];
      nodes.push(indices ?? layouts[id]);
      id += indices === null ? 1 : size[id];
    }
    return nodes;
  };
  const recordBatch = nodesOf(0, parent.length, -1);
  const topLevel: boolean[] = [];
  for (let id = 0; id < parent.length; ) {
    topLevel.push(parent[id] === -1);
    id += indexLayouts[id] === null ? 1 : size[id];
  }
  const dictionaries = new Map<number, Layout[]>();
  dictionaryId.forEach((dictionary, id) => {
    if (dictionary !== null && !dictionaries.has(dictionary)) dictionaries.set(dictionary, nodesOf(id, id + size[id], id));
  });
  return { recordBatch, topLevel, dictionaries };
}

/** The buffer layout of a type, read from its type table (Arrow's `Schema.fbs`). */
function layoutOf(buffer: FlatBuffer, typeId: number, type: FlatTable | null): Layout {
  /** The type's table, which apache-arrow reads for these types and fails without. */
  const table = (): FlatTable => type ?? fail(`a field of type id ${typeId} lacks its type parameters`);
  const fixed = (bits: number, what: string): Layout => {
    if (!(bits > 0)) fail(`a field has ${what}`);
    return { buffers: 'vw', bits };
  };
  switch (typeId) {
    case 2: {
      const bits = buffer.i32Field(table(), 0, 0, 'an integer width');
      return fixed([8, 16, 32, 64].includes(bits) ? bits : 0, `an integer width of ${bits} bits`);
    }
    case 3: {
      const precision = buffer.i16Field(table(), 0, 0, 'a float precision');
      return fixed([16, 32, 64][precision] ?? 0, `float precision ${precision}`);
    }
    case 6:
      return { buffers: 'vw', bits: 1 };
    case 7: {
      const bits = buffer.i32Field(table(), 2, 128, 'a decimal width');
      return fixed([32, 64, 128, 256].includes(bits) ? bits : 0, `a decimal width of ${bits} bits`);
    }
    case 8:
      return { buffers: 'vw', bits: buffer.i16Field(table(), 0, 1, 'a date unit') === 0 ? 32 : 64 };
    case 9: {
      const bits = buffer.i32Field(table(), 1, 32, 'a time width');
      return fixed(bits === 32 || bits === 64 ? bits : 0, `a time width of ${bits} bits`);
    }
    case TYPE_TIMESTAMP:
      buffer.stringField(table(), 1, 'a time zone');
      return { buffers: 'vw', bits: 64 };
    case 11: {
      const unit = buffer.i16Field(table(), 0, 0, 'an interval unit');
      return fixed([32, 64, 128][unit] ?? 0, `interval unit ${unit}`);
    }
    case 15: {
      const width = buffer.i32Field(table(), 0, 0, 'a fixed binary width');
      return fixed(width > 0 ? width * 8 : 0, `a fixed binary width of ${width} bytes`);
    }
    case 18:
      table();
      return { buffers: 'vw', bits: 64 };
    case 4: // Binary
    case 5: // Utf8
      return { buffers: 'vod', bits: 0 };
    case 19: // LargeBinary
    case 20: // LargeUtf8
      return { buffers: 'vOd', bits: 0 };
    case 12: // List
    case 17: // Map
      if (typeId === 17) table();
      return { buffers: 'vo', bits: 0 };
    case 21: // LargeList
      return { buffers: 'vO', bits: 0 };
    case 25: // ListView
    case 26: // LargeListView
      return { buffers: 'vdd', bits: 0 };
    case 13: // Struct_
      return { buffers: 'v', bits: 0 };
    case 16: // FixedSizeList
      table();
      return { buffers: 'v', bits: 0 };
    case TYPE_UNION: {
      const union = table();
      buffer.vectorField(union, 1, 4, 'union type ids');
      // Sparse (0): type ids; dense (1): type ids and 32-bit offsets.
      return buffer.i16Field(union, 0, 0, 'a union mode') === 1 ? { buffers: 'tw', bits: 32 } : { buffers: 't', bits: 0 };
    }
    case 23: // BinaryView
    case 24: // Utf8View
      return { buffers: 'vx', bits: 0 };
    default: // NONE, Null, RunEndEncoded: no buffers of their own.
      return { buffers: '', bits: 0 };
  }
}

/** Reads a RecordBatch table against the schema's node layouts and the body behind it. */
function checkRecordBatch(buffer: FlatBuffer, batch: FlatTable, version: number, bodyLength: number, layouts: readonly Layout[], topLevel: readonly boolean[], what: string): void {
  const rowLimit = bodyLength * ROWS_PER_BODY_BYTE + ROW_SLACK;
  const rows = buffer.count64Field(batch, 0, `the row count of ${what}`);
  if (rows > rowLimit) fail(`${what} claims ${rows} rows but has only ${bodyLength} bytes`);
  if (buffer.tableField(batch, 3, 'a compression setting') !== null) fail(`${what} is compressed (LZ4 or ZSTD), which is not supported; write the file uncompressed`);
  const nodes = buffer.vectorField(batch, 1, 16, 'field nodes') ?? { at: 0, length: 0 };
  if (nodes.length !== layouts.length) fail(`${what} has ${nodes.length} field node${nodes.length === 1 ? '' : 's'} where its schema has ${layouts.length}`);
  const variadic = buffer.vectorField(batch, 4, 8, 'variadic buffer counts') ?? { at: 0, length: 0 };
  let nextVariadic = 0;
  // Before metadata V4 a Buffer was {page, offset, length}; apache-arrow skips the page id.
  const bufferSize = version < METADATA_V4 ? 24 : 16;
  const buffers = buffer.vectorField(batch, 2, bufferSize, 'buffers') ?? { at: 0, length: 0 };
  let nextBuffer = 0;
  /** The next buffer's length, checked to lie inside the body. */
  const takeBuffer = (): number => {
    if (nextBuffer >= buffers.length) fail(`${what} has fewer buffers (${buffers.length}) than its columns need`);
    const at = buffers.at + bufferSize * nextBuffer++ + bufferSize - 16;
    const offset = buffer.count64(at, `a buffer offset of ${what}`);
    const length = buffer.count64(at + 8, `a buffer length of ${what}`);
    if (offset + length > bodyLength) fail(`a buffer of ${what} lies outside its ${bodyLength}-byte body`);
    return length;
  };
  for (let index = 0; index < nodes.length; index++) {
    const at = nodes.at + 16 * index;
    const length = buffer.count64(at, `a field length of ${what}`);
    const nulls = buffer.count64(at + 8, `a null count of ${what}`);
    if (length > rowLimit) fail(`${what} claims ${length} rows but has only ${bodyLength} bytes`);
    if (nulls > length) fail(`${what} has a column with more nulls (${nulls}) than values (${length})`);
    if (topLevel[index] && length !== rows) fail(`${what} has a column of ${length} rows in a batch of ${rows}`);
    const layout = layouts[index];
    // Unions had a validity bitmap before metadata V5.
    const kinds = layout.buffers.startsWith('t') && version < METADATA_V5 ? `v${layout.buffers}` : layout.buffers;
    for (const kind of kinds) {
      const bytes = takeBuffer();
      // What apache-arrow reads per value must be there: a short offsets or values buffer is
      // read past its end (64-bit offsets then fail inside apache-arrow when a value is read).
      const needed = kind === 'w' ? Math.ceil((length * layout.bits) / 8) : kind === 'o' ? (length + 1) * 4 : kind === 'O' ? (length + 1) * 8 : kind === 't' ? length : kind === 'x' ? length * 16 : 0;
      if (length > 0 && bytes < needed) fail(`a column of ${what} has ${length} values but a ${bytes}-byte buffer where it needs ${needed}`);
      if (kind === 'x') {
        if (nextVariadic >= variadic.length) fail(`${what} lacks the variadic buffer count of a view column`);
        const count = buffer.count64(variadic.at + 8 * nextVariadic++, `a variadic buffer count of ${what}`);
        for (let taken = 0; taken < count; taken++) takeBuffer();
      }
    }
  }
  if (nextBuffer !== buffers.length) fail(`${what} has ${buffers.length} buffers where its columns use ${nextBuffer}`);
}

/** One framed message: its metadata flatbuffer and where its body is. */
interface FramedMessage {
  buffer: FlatBuffer;
  message: FlatTable;
  version: number;
  headerType: number;
  header: FlatTable;
  bodyStart: number;
  bodyLength: number;
  end: number;
}

/**
 * Reads the message framed at `at` (a length prefix, with or without the continuation marker):
 * null at an end-of-stream marker. Metadata and body must end by `limit`.
 */
function readMessage(bytes: Uint8Array, view: DataView, at: number, limit: number): FramedMessage | null {
  if (at + 4 > limit) fail('a message starts past the end of the file');
  let length = view.getInt32(at, true);
  let metadataStart = at + 4;
  if (length === -1) {
    if (at + 8 > limit) fail('it ends inside a message header');
    length = view.getInt32(at + 4, true);
    metadataStart = at + 8;
  }
  if (length === 0) return null;
  if (length < 0 || metadataStart + length > limit) fail('a message runs past the end of the file (the file is cut short or damaged)');
  const buffer = new FlatBuffer(bytes, metadataStart, length, 'a message');
  const message = buffer.root('the message');
  const version = buffer.i16Field(message, 0, 0, 'the metadata version');
  const headerType = buffer.u8Field(message, 1, 0, 'the message type');
  const header = buffer.tableField(message, 2, 'the message header');
  const bodyLength = buffer.count64Field(message, 3, 'the body length');
  buffer.keyValues(message, 4, 'message metadata');
  if (headerType < HEADER_SCHEMA || headerType > HEADER_RECORD_BATCH) fail(`a message has type ${headerType}, not a schema, dictionary or record batch`);
  if (header === null) fail('a message has no header');
  const bodyStart = metadataStart + length;
  if (bodyStart + bodyLength > limit) fail(`a message claims a ${bodyLength}-byte body that runs past the end of the file`);
  return { buffer, message, version, headerType, header, bodyStart, bodyLength, end: bodyStart + bodyLength };
}

/** Checks a dictionary or record batch message against the schema; returns the dictionary id it defines. */
function checkBatchMessage(framed: FramedMessage, shape: SchemaShape, seenDictionaries: ReadonlySet<number>, ordinal: number): number | null {
  const { buffer, header, version, bodyLength } = framed;
  if (framed.headerType === HEADER_RECORD_BATCH) {
    for (const id of shape.dictionaries.keys()) if (!seenDictionaries.has(id)) fail(`record batch ${ordinal} comes before the dictionary it uses (id ${id})`);
    checkRecordBatch(buffer, header, version, bodyLength, shape.recordBatch, shape.topLevel, `record batch ${ordinal}`);
    return null;
  }
  const id = buffer.count64Field(header, 0, 'a dictionary id');
  const layouts = shape.dictionaries.get(id);
  if (layouts === undefined) fail(`a dictionary batch has id ${id}, which no field of the schema uses`);
  const data = buffer.tableField(header, 1, 'dictionary data');
  if (data === null) fail(`the dictionary batch of id ${id} has no data`);
  checkRecordBatch(buffer, data, version, bodyLength, layouts, [true], `the dictionary batch of id ${id}`);
  return id;
}

/** The stream format: a schema message, then dictionary and record batches, until the end marker. */
function checkStream(bytes: Uint8Array, view: DataView): void {
  let shape: SchemaShape | null = null;
  const seen = new Set<number>();
  let ordinal = 0;
  let at = 0;
  while (at < bytes.length) {
    const left = bytes.length - at;
    if (left < 8 && isEndMarkerPrefix(bytes.subarray(at))) return;
    const framed = readMessage(bytes, view, at, bytes.length);
    if (framed === null) return;
    if (framed.headerType === HEADER_SCHEMA) {
      // apache-arrow would start a second table here and join its batches to the first's.
      if (shape !== null) fail('it holds a second schema (two tables in one stream)');
      shape = checkSchema(framed.buffer, framed.header);
    } else if (shape === null) {
      fail('its first message is not a schema');
    } else {
      if (framed.headerType === HEADER_RECORD_BATCH) ordinal++;
      const id = checkBatchMessage(framed, shape, seen, ordinal);
      if (id !== null) seen.add(id);
    }
    at = framed.end;
  }
  if (shape === null) fail('it has no schema');
}

/**
 * A tail shorter than a message header that apache-arrow reads as the end of the stream: a cut
 * end-of-stream marker (0xFFFFFFFF then zeros) or zeros.
 */
function isEndMarkerPrefix(tail: Uint8Array): boolean {
  const marker = tail.length > 0 && tail[0] === 0xff ? [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0] : [0, 0, 0, 0, 0, 0, 0, 0];
  return tail.every((byte, index) => byte === marker[index]);
}

/**
 * The file format: `ARROW1`, the stream, the footer flatbuffer, its length, `ARROW1`. apache-arrow
 * reads the schema from the footer and each batch at the offset its footer block gives, so those
 * are what is checked (the schema message at the start is not read by it).
 */
function checkFile(bytes: Uint8Array, view: DataView): void {
  const length = bytes.length;
  if (length < FILE_HEAD + FILE_TAIL || !MAGIC.every((byte, index) => bytes[length - 6 + index] === byte)) fail('its footer is missing (the file is cut short or damaged)');
  const footerLength = view.getInt32(length - FILE_TAIL, true);
  const footerStart = length - FILE_TAIL - footerLength;
  if (footerLength <= 0 || footerStart < FILE_HEAD) fail(`its footer claims ${footerLength} bytes in a file of ${length}`);
  const footerBuffer = new FlatBuffer(bytes, footerStart, footerLength, 'the footer');
  const footer = footerBuffer.root('the footer');
  const schema = footerBuffer.tableField(footer, 1, 'the schema');
  if (schema === null) fail('its footer has no schema');
  const shape = checkSchema(footerBuffer, schema);
  const blockLists = [
    { vector: footerBuffer.vectorField(footer, 2, 24, 'dictionary blocks'), type: HEADER_DICTIONARY_BATCH },
    { vector: footerBuffer.vectorField(footer, 3, 24, 'record batch blocks'), type: HEADER_RECORD_BATCH },
  ];
  const seen = new Set<number>();
  // Every block's message must lie in the data part; together they may not claim more bytes than
  // it has, so blocks pointing at one batch over and over cannot multiply the work.
  let claimed = 0;
  let ordinal = 0;
  for (const { vector, type } of blockLists) {
    for (let index = 0; index < (vector?.length ?? 0); index++) {
      const offset = footerBuffer.count64((vector as FlatVector).at + 24 * index, 'a block offset');
      if (offset < FILE_HEAD || offset >= footerStart) fail('a footer block points outside the file');
      const framed = readMessage(bytes, view, offset, footerStart);
      if (framed === null || framed.headerType !== type) fail(`a footer block does not point at a ${type === HEADER_RECORD_BATCH ? 'record' : 'dictionary'} batch`);
      claimed += framed.end - offset;
      if (claimed > footerStart) fail('its footer blocks claim more bytes than the file has');
      if (type === HEADER_RECORD_BATCH) ordinal++;
      const id = checkBatchMessage(framed, shape, seen, ordinal);
      if (id !== null) seen.add(id);
    }
  }
}

/**
 * Checks that `bytes` (starting with `ARROW1` or a stream message) frame sound Arrow IPC that
 * apache-arrow can decode in time and memory proportional to their size. Returns null when they
 * do, else what is wrong. Never throws.
 */
export function checkArrowIpcFraming(bytes: Uint8Array): ArrowFramingProblem {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (bytes.length >= MAGIC.length && MAGIC.every((byte, index) => bytes[index] === byte)) checkFile(bytes, view);
    else checkStream(bytes, view);
    return null;
  } catch (thrown) {
    if (thrown instanceof Unsound) return thrown.message;
    // A DataView read past the end (a bug here rather than in the file) is still a refusal.
    if (thrown instanceof RangeError) return 'its metadata points outside the file';
    throw thrown;
  }
}
