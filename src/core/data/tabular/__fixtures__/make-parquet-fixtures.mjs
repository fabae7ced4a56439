// Writes the small Parquet fixtures the tabular tests read. Run once, from the repository root:
//
//   node src/core/data/tabular/__fixtures__/make-parquet-fixtures.mjs
//
// Nothing installed here can write Parquet (no pyarrow, no hyparquet-writer), so this is a
// minimal writer for exactly what the fixtures need: flat schemas, one PLAIN data page (v1) per
// column chunk, RLE/bit-packed definition levels for optional columns, and UNCOMPRESSED or GZIP
// pages. The encoding follows parquet-format's parquet.thrift (Thrift compact protocol).
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { TextEncoder } from 'node:util';
import { URL } from 'node:url';

const utf8 = new TextEncoder();

// --- Thrift compact protocol ---------------------------------------------------------------
const T = { TRUE: 1, FALSE: 2, I32: 5, I64: 6, BINARY: 8, LIST: 9, STRUCT: 12 };

class CompactWriter {
  constructor() {
    this.bytes = [];
    this.lastField = [0];
  }
  byte(value) {
    this.bytes.push(value & 0xff);
  }
  varint(value) {
    let rest = BigInt(value);
    while (rest >= 0x80n) {
      this.byte(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    this.byte(Number(rest));
  }
  zigzag(value) {
    const big = BigInt(value);
    return big >= 0n ? big << 1n : ((-big) << 1n) - 1n;
  }
  header(field, type) {
    const delta = field - this.lastField[this.lastField.length - 1];
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
    else {
      this.byte(type);
      this.varint(this.zigzag(field));
    }
    this.lastField[this.lastField.length - 1] = field;
  }
  i32(field, value) {
    this.header(field, T.I32);
    this.varint(this.zigzag(value));
  }
  i64(field, value) {
    this.header(field, T.I64);
    this.varint(this.zigzag(value));
  }
  bool(field, value) {
    this.header(field, value ? T.TRUE : T.FALSE);
  }
  string(field, value) {
    this.header(field, T.BINARY);
    const encoded = utf8.encode(value);
    this.varint(encoded.length);
    for (const byte of encoded) this.byte(byte);
  }
  struct(field, write) {
    this.header(field, T.STRUCT);
    this.structBody(write);
  }
  structBody(write) {
    this.lastField.push(0);
    write(this);
    this.byte(0);
    this.lastField.pop();
  }
  listHeader(field, elementType, size) {
    this.header(field, T.LIST);
    if (size < 15) this.byte((size << 4) | elementType);
    else {
      this.byte(0xf0 | elementType);
      this.varint(size);
    }
  }
  listOfStructs(field, items, write) {
    this.listHeader(field, T.STRUCT, items.length);
    for (const item of items) this.structBody((writer) => write(writer, item));
  }
  listOfI32(field, values) {
    this.listHeader(field, T.I32, values.length);
    for (const value of values) this.varint(this.zigzag(value));
  }
  listOfStrings(field, values) {
    this.listHeader(field, T.BINARY, values.length);
    for (const value of values) {
      const encoded = utf8.encode(value);
      this.varint(encoded.length);
      for (const byte of encoded) this.byte(byte);
    }
  }
  toBytes() {
    return Uint8Array.from(this.bytes);
  }
}

// --- Parquet enums ---------------------------------------------------------------------------
const TYPE = { BOOLEAN: 0, INT32: 1, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 };
const REPETITION = { REQUIRED: 0, OPTIONAL: 1 };
const CONVERTED = { UTF8: 0, TIMESTAMP_MICROS: 10 };
const ENCODING = { PLAIN: 0, RLE: 3 };
const CODEC = { UNCOMPRESSED: 0, GZIP: 2 };

// --- Encoders --------------------------------------------------------------------------------
function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function uint32le(value) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

/** RLE/bit-packed hybrid, bit width 1, as one bit-packed run, prefixed with its byte length. */
function definitionLevels(present) {
  const groups = Math.ceil(present.length / 8);
  const run = [(groups << 1) | 1];
  for (let group = 0; group < groups; group++) {
    let byte = 0;
    for (let bit = 0; bit < 8; bit++) if (present[group * 8 + bit]) byte |= 1 << bit;
    run.push(byte);
  }
  return concat([uint32le(run.length), Uint8Array.from(run)]);
}

function plainValues(type, values) {
  if (type === TYPE.BOOLEAN) {
    const out = new Uint8Array(Math.ceil(values.length / 8));
    values.forEach((value, index) => {
      if (value) out[index >> 3] |= 1 << (index & 7);
    });
    return out;
  }
  if (type === TYPE.INT32) {
    const out = new Uint8Array(values.length * 4);
    values.forEach((value, index) => new DataView(out.buffer).setInt32(index * 4, value, true));
    return out;
  }
  if (type === TYPE.INT64) {
    const out = new Uint8Array(values.length * 8);
    values.forEach((value, index) => new DataView(out.buffer).setBigInt64(index * 8, value, true));
    return out;
  }
  if (type === TYPE.DOUBLE) {
    const out = new Uint8Array(values.length * 8);
    values.forEach((value, index) => new DataView(out.buffer).setFloat64(index * 8, value, true));
    return out;
  }
  return concat(values.flatMap((value) => {
    const encoded = utf8.encode(value);
    return [uint32le(encoded.length), encoded];
  }));
}

/**
 * @param {{ name: string, type: number, optional: boolean, converted?: number, timestampNanos?: boolean }[]} columns
 * @param {{ rows: Record<string, unknown>[], codec: number }[]} rowGroups
 * @param {Record<string, string>} keyValues
 */
function writeParquet(columns, rowGroups, keyValues) {
  const parts = [utf8.encode('PAR1')];
  let offset = 4;
  const groupMeta = [];
  for (const group of rowGroups) {
    const chunks = [];
    let groupBytes = 0;
    for (const column of columns) {
      const cells = group.rows.map((row) => row[column.name] ?? null);
      const present = cells.map((cell) => cell !== null);
      const values = cells.filter((cell) => cell !== null);
      const body = concat([...(column.optional ? [definitionLevels(present)] : []), plainValues(column.type, values)]);
      const stored = group.codec === CODEC.GZIP ? new Uint8Array(gzipSync(body)) : body;
      const pageHeader = new CompactWriter();
      pageHeader.structBody((w) => {
        w.i32(1, 0); // DATA_PAGE
        w.i32(2, body.length);
        w.i32(3, stored.length);
        w.struct(5, (d) => {
          d.i32(1, cells.length);
          d.i32(2, ENCODING.PLAIN);
          d.i32(3, ENCODING.RLE);
          d.i32(4, ENCODING.RLE);
        });
      });
      const headerBytes = pageHeader.toBytes();
      chunks.push({
        column,
        codec: group.codec,
        numValues: cells.length,
        offset,
        uncompressed: headerBytes.length + body.length,
        compressed: headerBytes.length + stored.length,
      });
      parts.push(headerBytes, stored);
      offset += headerBytes.length + stored.length;
      groupBytes += headerBytes.length + body.length;
    }
    groupMeta.push({ chunks, rows: group.rows.length, bytes: groupBytes });
  }

  const footer = new CompactWriter();
  footer.i32(1, 1);
  footer.listOfStructs(2, [null, ...columns], (w, column) => {
    if (column === null) {
      w.string(4, 'schema');
      w.i32(5, columns.length);
      return;
    }
    w.i32(1, column.type);
    w.i32(3, column.optional ? REPETITION.OPTIONAL : REPETITION.REQUIRED);
    w.string(4, column.name);
    if (column.converted !== undefined) w.i32(6, column.converted);
    if (column.timestampNanos) {
      // LogicalType.TIMESTAMP (8) { isAdjustedToUTC: true, unit: TimeUnit.NANOS (3) }
      w.struct(10, (logical) => logical.struct(8, (timestamp) => {
        timestamp.bool(1, true);
        timestamp.struct(2, (unit) => unit.struct(3, () => {}));
      }));
    }
  });
  footer.i64(3, rowGroups.reduce((sum, group) => sum + group.rows.length, 0));
  footer.listOfStructs(4, groupMeta, (w, group) => {
    w.listOfStructs(1, group.chunks, (c, chunk) => {
      c.i64(2, chunk.offset);
      c.struct(3, (m) => {
        m.i32(1, chunk.column.type);
        m.listOfI32(2, [ENCODING.PLAIN, ENCODING.RLE]);
        m.listOfStrings(3, [chunk.column.name]);
        m.i32(4, chunk.codec);
        m.i64(5, chunk.numValues);
        m.i64(6, chunk.uncompressed);
        m.i64(7, chunk.compressed);
        m.i64(9, chunk.offset);
      });
    });
    w.i64(2, group.bytes);
    w.i64(3, group.rows);
  });
  footer.listOfStructs(5, Object.entries(keyValues), (w, [key, value]) => {
    w.string(1, key);
    w.string(2, value);
  });
  footer.string(6, 'sextant make-parquet-fixtures.mjs');
  footer.byte(0);
  const footerBytes = footer.toBytes();
  parts.push(footerBytes, uint32le(footerBytes.length), utf8.encode('PAR1'));
  return concat(parts);
}

// --- Fixtures --------------------------------------------------------------------------------
const snifferColumns = [
  { name: 'timestamp', type: TYPE.INT64, optional: false, converted: CONVERTED.TIMESTAMP_MICROS },
  { name: 'chan', type: TYPE.INT32, optional: false },
  { name: 'rssi', type: TYPE.DOUBLE, optional: true },
  { name: 'adv_addr', type: TYPE.BYTE_ARRAY, optional: true, converted: CONVERTED.UTF8 },
  { name: 'local_name', type: TYPE.BYTE_ARRAY, optional: true, converted: CONVERTED.UTF8 },
  { name: 'crc_ok', type: TYPE.BOOLEAN, optional: true },
  { name: 'seq', type: TYPE.INT64, optional: false },
  { name: 'ts_ns', type: TYPE.INT64, optional: true, timestampNanos: true },
];

const snifferGroups = [
  {
    codec: CODEC.UNCOMPRESSED,
    rows: [
      { timestamp: 1700000000000000n, chan: 37, rssi: -60.5, adv_addr: 'c0:ff:ee:12:34:56', local_name: 'Pixel 7', crc_ok: true, seq: 1n, ts_ns: 1700000000000000000n },
      { timestamp: 1700000000001500n, chan: 38, rssi: null, adv_addr: 'c0ffee123456', local_name: null, crc_ok: false, seq: 2n, ts_ns: null },
      { timestamp: 1700000000002000n, chan: 39, rssi: -70, adv_addr: null, local_name: 'Ünïcode ✓', crc_ok: null, seq: 3n, ts_ns: 1700000000002000000n },
    ],
  },
  {
    codec: CODEC.GZIP,
    rows: [
      { timestamp: 1700000000003250n, chan: 37, rssi: -80.25, adv_addr: 'AA-BB-CC-DD-EE-FF', local_name: '', crc_ok: true, seq: 4n, ts_ns: 1700000000003250000n },
      { timestamp: 1700000000004000n, chan: 12, rssi: -90, adv_addr: 'not-an-address', local_name: 'x', crc_ok: true, seq: 5n, ts_ns: 1700000000004000000n },
    ],
  },
];

const here = new URL('./', import.meta.url);
writeFileSync(new URL('ble-sniffer.parquet', here), writeParquet(snifferColumns, snifferGroups, { 'sextant.fixture': 'ble-sniffer' }));

const normalizedColumns = [
  { name: 'ts_ms', type: TYPE.DOUBLE, optional: false },
  { name: 'channel', type: TYPE.INT32, optional: false },
  { name: 'advertiser_addr', type: TYPE.BYTE_ARRAY, optional: true, converted: CONVERTED.UTF8 },
];
const normalizedGroups = [
  {
    codec: CODEC.UNCOMPRESSED,
    rows: [
      { ts_ms: 0, channel: 37, advertiser_addr: 'C0:FF:EE:12:34:56' },
      { ts_ms: 12.5, channel: 38, advertiser_addr: null },
    ],
  },
];
writeFileSync(new URL('normalized.parquet', here), writeParquet(normalizedColumns, normalizedGroups, {}));
