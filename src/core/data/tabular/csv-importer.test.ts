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

  it('refuses a header-only file with NO_DATA_ROWS and a blank file with EMPTY_FILE (issue 24, D11)', () => {
    for (const headerOnly of ['a,b\n', 'ts_ms,advertiser_addr\r\n\r\n', 'a,b\n1\n2\n']) {
      const result = readCsv(headerOnly, { fileName: 'h.csv' });
      expect(result).toMatchObject({ ok: false, error: { code: 'NO_DATA_ROWS' } });
    }
    const skipped = readCsv('a,b\n1\n2\n');
    if (!skipped.ok) expect(skipped.error.message).toContain('all 2 records were skipped');
    for (const blank of ['', '\n\n', '\r\n', new Uint8Array()]) {
      const result = readCsv(blank);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('EMPTY_FILE');
    }
  });

  it('reads a file that mixes CRLF and LF lines, whichever comes first (issue 24, D11)', () => {
    const expected = { ts_ms: [1, 2, 3, 4], name: ['a', 'b c', 'd', 'e\r\nf'] };
    for (const csv of [
      'ts_ms,name\r\n1,a\r\n2,"b c"\n3,d\r\n\r\n4,"e\r\nf"\n',
      'ts_ms,name\n1,a\r\n2,"b c"\r\n3,d\n4,"e\r\nf"\r\n',
      'ts_ms,name\r\n1,a\r\n2,"b c"\r\n3,d\r\n4,"e\r\nf"\r\n',
    ]) {
      const { table, report } = imported(csv);
      expect(columnsOf(table)).toEqual(expected);
      expect(report).toMatchObject({ skipped: {}, parseWarnings: {}, renamedColumns: [], warnings: [] });
    }
    // Old Mac files, CR only, still read.
    expect(columnsOf(imported('a;b\r1;2\r3;4\r').table)).toEqual({ a: [1, 3], b: [2, 4] });
  });

  it('turns numbers beyond the float64 range into nulls with a NUMBER_OUT_OF_RANGE warning (issue 24, D7)', () => {
    const huge = '9'.repeat(400);
    const { table, report } = imported(`id,value,big\n1,1e400,12345678901234567891\n2,-${huge},3\n3,2.5,4\n4,1e-400,5\n`, { batchSize: 2 });
    expect(columnsOf(table).value).toEqual([null, null, 2.5, 0]);
    expect(report.columns[1]).toMatchObject({ name: 'value', kind: 'number' });
    expect(report.warnings).toEqual([
      expect.objectContaining({ code: 'NUMBER_OUT_OF_RANGE', column: 'value', count: 2, row: 0 }),
    ]);
    expect(report.warnings[0].message).toContain('beyond the float64 range');
    // A 20-digit integer is kept, imprecisely, and counted (the pipeline warns IMPRECISE_VALUE).
    expect(report.impreciseValues).toEqual({ big: 1 });
    // Also with a number override, and in a later batch.
    const late = imported('x\n1\n2\n3\n1e999\n', { types: { x: 'number' }, batchSize: 2 });
    expect(late.report.warnings).toEqual([expect.objectContaining({ code: 'NUMBER_OUT_OF_RANGE', column: 'x', count: 1, row: 3 })]);
  });

  it('warns when empty or repeated header names were made up, not when names were only trimmed (issue 24, D12)', () => {
    const { report } = imported('rssi,,rssi, ts \n1,2,3,4\n');
    expect(report.columns.map((column) => column.name)).toEqual(['rssi', 'column_2', 'rssi_2', 'ts']);
    expect(report.warnings).toEqual([expect.objectContaining({ code: 'RENAMED_COLUMN', count: 2, record: 1, column: 'column_2' })]);
    expect(report.warnings[0].message).toBe("2 header names were empty or repeated and renamed: an empty name → 'column_2', a second 'rssi' → 'rssi_2'");
    expect(imported(' a ,b\n1,2\n').report.warnings).toEqual([]);
  });

  it('refuses a 1 GiB line after its first 16 Mi characters, without reading the rest (issue 24, D8)', () => {
    const importer = createCsvImporter({ fileName: 'long-line.csv' });
    const chunk = encoder.encode('1234567,'.repeat(1 << 17)); // 1 MiB
    importer.push('a,b\n');
    let pushed = 0;
    while (pushed < 1024 && !importer.failed()) {
      importer.push(chunk);
      pushed++;
    }
    expect(pushed).toBe(17);
    // A caller that goes on pushing costs nothing more: the rest is only counted.
    for (let more = 0; more < 1024 - pushed; more++) importer.push(chunk);
    expect(importer.progress().bytes).toBe(4 + 1024 * chunk.length);
    const result = importer.finish();
    expect(result).toMatchObject({ ok: false, error: { code: 'CSV_RECORD_TOO_LONG' } });
    if (!result.ok) expect(result.error.message).toBe('long-line.csv, line 2: a record is longer than 16,777,216 characters; nothing was imported');
  }, 60_000);

  it('refuses a 600 MiB quoted cell after its first 1 Mi characters (issue 24, D8)', () => {
    const importer = createCsvImporter();
    const chunk = 'x\n,"'.repeat(1 << 18); // 1 MiB of text inside one quoted field
    importer.push('ts_ms,payload\n1,ok\n2,"');
    let pushed = 0;
    while (pushed < 600 && !importer.failed()) {
      importer.push(chunk);
      pushed++;
    }
    expect(pushed).toBe(1);
    expect(importer.finish()).toMatchObject({ ok: false, error: { code: 'CSV_CELL_TOO_LONG', message: expect.stringContaining('line 3') } });
  }, 60_000);

  it('reads a long cell under a raised cap in one pass, fed in small chunks (issue 24, D8)', () => {
    // papaparse alone re-parses the unfinished record with every chunk: 8 MiB in 4 KiB chunks
    // would be ~8e9 characters scanned. Fed whole records, it is read once.
    const cell = 'y'.repeat(8 << 20);
    const text = `id,payload\n1,"${cell}"\n2,short\n`;
    const importer = createCsvImporter({ maxCellChars: 16 << 20 });
    for (let offset = 0; offset < text.length; offset += 4096) importer.push(text.slice(offset, offset + 4096));
    const result = importer.finish();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.table.getChild('payload')!.get(0)).toHaveLength(8 << 20);
    expect(columnsOf(result.value.table).id).toEqual([1, 2]);
    // At the default cap the same file is refused.
    expect(readCsv(text)).toMatchObject({ ok: false, error: { code: 'CSV_CELL_TOO_LONG' } });
  }, 60_000);

  it('refuses a delimiter that is not one plain character', () => {
    expect(readCsv('a::b\n1::2\n', { delimiter: '::' })).toMatchObject({ ok: false, error: { code: 'UNREADABLE_CSV' } });
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
