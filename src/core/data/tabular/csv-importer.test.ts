import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DataType, type Table } from 'apache-arrow';
import { createCsvImporter, readCsv, type CsvImportOptions } from './csv-importer.ts';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));
const encoder = new TextEncoder();

function imported(input: Uint8Array | string, options: CsvImportOptions = {}) {
  const result = readCsv(input, options);
  if (!result.ok) throw new Error(`import failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}

/** Column name → values, nulls kept, for comparisons. */
function columnsOf(table: Table): Record<string, unknown[]> {
  return Object.fromEntries(table.schema.fields.map((field) => [field.name, [...table.getChild(field.name)!]]));
}

function pushInPieces(bytes: Uint8Array, cuts: number[], options: CsvImportOptions = {}) {
  const importer = createCsvImporter(options);
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    importer.push(bytes.subarray(start, cut));
    start = cut;
  }
  importer.push(bytes.subarray(start));
  return importer.finish();
}

describe('createCsvImporter', () => {
  it('types columns by looking at every value, with empty cells as nulls', () => {
    const { table, report } = imported(fixture('sniffer-export.csv'), { fileName: 'sniffer-export.csv' });
    expect(report.columns).toEqual([
      { name: 'time_us', kind: 'number', typeSource: 'inferred' },
      { name: 'chan', kind: 'number', typeSource: 'inferred' },
      { name: 'adv_addr', kind: 'string', typeSource: 'inferred' },
      { name: 'rssi', kind: 'number', typeSource: 'inferred' },
      { name: 'crc_ok', kind: 'boolean', typeSource: 'inferred' },
      { name: 'local_name', kind: 'string', typeSource: 'inferred' },
    ]);
    expect(DataType.isFloat(table.schema.fields[0].type)).toBe(true);
    expect(DataType.isBool(table.schema.fields[4].type)).toBe(true);
    const columns = columnsOf(table);
    expect(columns.rssi).toEqual([-60.5, null, -70, -90]);
    expect(columns.crc_ok).toEqual([true, false, true, false]);
    expect(columns.local_name).toEqual(['Pixel 7', 'Café, "Ünïcode" ✓', null, 'two\nlines']);
    expect(report.rows).toBe(4);
    expect(table.numRows).toBe(4);
    expect(table.schema.metadata.get('sextant.source')).toBe('sniffer-export.csv');
    expect(table.schema.metadata.get('sextant.source_format')).toBe('csv');
  });

  it('skips and counts records whose field count differs from the header', () => {
    const { report, table } = imported(fixture('sniffer-export.csv'));
    expect(report.skipped).toEqual({ field_count_mismatch: 1 });
    // Record 5 of the file (the header is record 1) has 4 fields instead of 6.
    expect(report.skippedExamples).toEqual([{ record: 5, reason: 'field_count_mismatch', fields: 4 }]);
    expect(columnsOf(table).chan).toEqual([37, 38, 39, 12]);
  });

  it('counts every mismatch but keeps only the first examples', () => {
    const lines = ['a,b', ...Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? `${index},x` : `${index}`))];
    const { report, table } = imported(lines.join('\n'));
    expect(report.skipped.field_count_mismatch).toBe(15);
    expect(report.skippedExamples).toHaveLength(10);
    expect(report.skippedExamples[0]).toEqual({ record: 3, reason: 'field_count_mismatch', fields: 1 });
    expect(table.numRows).toBe(15);
  });

  it('lets an override win over inference, counting values that do not fit', () => {
    const csv = 'id,score,flag,when\n007,1.50,yes,12\n010,n/a,no,x\n,3,maybe,\n';
    const { table, report } = imported(csv, { types: { id: 'string', score: 'number', flag: 'boolean', when: 'number' } });
    const columns = columnsOf(table);
    expect(columns.id).toEqual(['007', '010', null]);
    expect(columns.score).toEqual([1.5, null, 3]);
    expect(columns.flag).toEqual([true, false, null]);
    expect(columns.when).toEqual([12, null, null]);
    expect(report.invalidValues).toEqual({ score: 1, flag: 1, when: 1 });
    expect(report.columns.map((column) => column.typeSource)).toEqual(['override', 'override', 'override', 'override']);
    // Without the override, id would have been a number.
    expect(imported(csv).report.columns[0]).toEqual({ name: 'id', kind: 'number', typeSource: 'inferred' });
  });

  it('rejects an override for a column the file does not have', () => {
    const result = readCsv('a,b\n1,2\n', { types: { c: 'number' } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'UNKNOWN_COLUMN', column: 'c' });
  });

  it('decodes UTF-8 characters split across chunks, byte by byte', () => {
    const text = 'name,symbol\nCafé,✓\nemoji,😀\nŁódź,日本語\n';
    const bytes = encoder.encode(text);
    const importer = createCsvImporter();
    for (let index = 0; index < bytes.length; index++) importer.push(bytes.subarray(index, index + 1));
    const result = importer.finish();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(columnsOf(result.value.table)).toEqual({ name: ['Café', 'emoji', 'Łódź'], symbol: ['✓', '😀', '日本語'] });
  });

  it('gives the same table however the bytes are cut (property)', () => {
    const bytes = fixture('sniffer-export.csv');
    const whole = columnsOf(imported(bytes).table);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
        const result = pushInPieces(bytes, cuts);
        expect(result.ok).toBe(true);
        if (result.ok) expect(columnsOf(result.value.table)).toEqual(whole);
      }),
      { numRuns: 200, seed: 42 },
    );
  });

  it('streams a file larger than the detection block, with records and quotes spanning chunks', () => {
    const rows = 5_000;
    const lines = ['ts_ms;label;value'];
    for (let row = 0; row < rows; row++) lines.push(`${row};"label ${row}; with ""quotes""\nand a newline";${row % 7 === 0 ? '' : row * 0.5}`);
    const bytes = encoder.encode(lines.join('\r\n') + '\r\n');
    expect(bytes.length).toBeGreaterThan(65_536 * 3);
    const importer = createCsvImporter({ batchSize: 1_000 });
    for (let offset = 0; offset < bytes.length; offset += 997) importer.push(bytes.subarray(offset, offset + 997));
    expect(importer.progress().bytes).toBe(bytes.length);
    const result = importer.finish();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { table, report } = result.value;
    expect(report.rows).toBe(rows);
    expect(report.batches).toBe(5);
    expect(table.batches.map((batch) => batch.numRows)).toEqual([1_000, 1_000, 1_000, 1_000, 1_000]);
    expect(table.getChild('label')!.get(4_321)).toBe('label 4321; with "quotes"\nand a newline');
    expect(table.getChild('value')!.get(7)).toBeNull();
    expect(table.getChild('value')!.get(8)).toBe(4);
    expect(report.parseWarnings).toEqual({});
  });

  it('settles a column type only after the last batch', () => {
    const { table, report } = imported('x,y\n1.50,1\n2,2\n3,3\nthree,4\n', { batchSize: 2 });
    expect(report.columns[0]).toMatchObject({ name: 'x', kind: 'string' });
    expect(report.batches).toBe(2);
    // Earlier batches keep the original text, not a re-printed number.
    expect(columnsOf(table).x).toEqual(['1.50', '2', '3', 'three']);
    expect(columnsOf(table).y).toEqual([1, 2, 3, 4]);
  });

  it('names empty and repeated header cells, and strips a byte-order mark', () => {
    const { table, report } = imported('\ufeffa, ,a,a\n1,2,3,4\n');
    expect(table.schema.fields.map((field) => field.name)).toEqual(['a', 'column_2', 'a_2', 'a_3']);
    expect(report.renamedColumns).toEqual([
      { from: ' ', to: 'column_2' },
      { from: 'a', to: 'a_2' },
      { from: 'a', to: 'a_3' },
    ]);
    const fromBytes = imported(new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('name\nx\n')]));
    expect(fromBytes.table.schema.fields[0].name).toBe('name');
  });

  it('reads a header-only file as an empty table and a blank file as an error', () => {
    const { table, report } = imported('a,b\n');
    expect(table.numRows).toBe(0);
    expect(report.columns.map((column) => column.kind)).toEqual(['string', 'string']);
    for (const blank of ['', '\n\n', new Uint8Array()]) {
      const result = readCsv(blank);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('EMPTY_FILE');
    }
  });

  it('reads CRLF files and treats all-empty columns as text', () => {
    const { table, report } = imported(fixture('normalized.csv'));
    expect(columnsOf(table).rssi).toEqual([-60, -61, -62]);
    expect(report.columns[1]).toMatchObject({ name: 'channel', kind: 'number' });
    expect(imported('a,b\n1,\n2,\n').report.columns[1]).toMatchObject({ kind: 'string' });
  });

  it('counts malformed quotes as warnings, not failures', () => {
    const { report, table } = imported('a,b\n1,"x"y\n2,z\n');
    expect(Object.keys(report.parseWarnings).length).toBeGreaterThan(0);
    expect(table.numRows).toBeGreaterThan(0);
  });

  it('returns the same result from a second finish and refuses pushes after it', () => {
    const importer = createCsvImporter();
    importer.push('a\n1\n');
    const first = importer.finish();
    expect(importer.finish()).toBe(first);
    expect(() => importer.push('2\n')).toThrow(/after finish/);
  });

  it('never throws on arbitrary bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat(400), { maxLength: 5 }), (bytes, cuts) => {
        const result = pushInPieces(bytes, cuts.filter((cut) => cut <= bytes.length));
        if (result.ok) expect(result.value.table.numRows).toBe(result.value.report.rows);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
