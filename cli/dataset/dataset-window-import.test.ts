import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CaptureCatalog,
  ToolRegistry,
  bleAddressAnalyzerManifest,
  builtinTools,
  createExecutor,
  createInProcessRunner,
  importDatasetWindow,
  parseManifest,
  readCaptureFile,
  type Capture,
  type DatasetFileReader,
  type DatasetManifest,
  type DatasetWindowRequest,
} from '../../src/core/index.ts';
import { defaultCaptureId } from '../capture-files.ts';
import { DEFAULT_ARGUMENTS } from '../commands/analyze-dataset-command.ts';
import { importFiles } from './import-files.ts';
import { decodeParquetPart } from './parquet-part.ts';

/**
 * The app's "Open a dataset window" (core/data/dataset-window-import.ts) reads a dataset's parts
 * with hyparquet, in a browser's worker; here the same function reads a dataset `sextant import
 * --dataset` wrote, and its captures must analyse exactly as the capture files do.
 */
const CAPTURES = fileURLToPath(new URL('../../../shared/captures/ble/', import.meta.url));

const template = { tool_name: bleAddressAnalyzerManifest.name, tool_version: bleAddressAnalyzerManifest.version, arguments: DEFAULT_ARGUMENTS, request_id: 'compare', timeout_ms: 300_000 };

async function analyse(capture: Capture, invocation: unknown): Promise<unknown> {
  const registry = new ToolRegistry(builtinTools({ testTools: false }));
  const catalog = new CaptureCatalog([capture]);
  const executor = createExecutor({ registry, catalog, runner: createInProcessRunner({ registry, capture: (id) => catalog.capture(id) }) });
  return (await executor.execute(invocation)).result;
}

/** The dataset's files read into memory once, served by path as a browser's File objects are. */
function readerOf(files: ReadonlyMap<string, Uint8Array>): DatasetFileReader {
  return (path) => {
    const bytes = files.get(path);
    if (!bytes) return undefined;
    return { byteLength: bytes.byteLength, slice: (start, end) => bytes.slice(start, end).buffer };
  };
}

/** Every row, every column (the window's capture_id is its own id), in order; with each column's type. */
function rowsOf(capture: Capture, keep: (ts: number) => boolean = () => true): string[] {
  const table = capture.table;
  const names = table.schema.fields.map((field) => field.name).filter((name) => name !== 'capture_id');
  const columns = names.map((name) => table.getChild(name)!);
  const rows: string[] = [];
  for (let row = 0; row < table.numRows; row++) {
    const ts = columns[0].get(row) as number;
    if (keep(ts)) rows.push(JSON.stringify(columns.map((column) => column.get(row))));
  }
  // The types too: a window holds dictionaries, narrow integers and lists as the file's import does.
  return [names.map((name, index) => `${name}: ${String(columns[index].type)}`).join(', '), ...rows];
}

describe('a dataset window opened as the app opens it', () => {
  let names: string[];
  let manifest: DatasetManifest;
  let files: Map<string, Uint8Array>;

  beforeAll(async () => {
    const root = join(await mkdtemp(join(tmpdir(), 'sextant-window-import-')), 'ds');
    names = (await readdir(CAPTURES)).filter((name) => /\.(pcap|pcapng|log|snoop)$/.test(name)).sort();
    const outcomes = await importFiles({ root, files: names.map((name) => ({ path: join(CAPTURES, name), captureId: defaultCaptureId(name) })), jobs: 2, drainRows: 65_536 });
    expect(outcomes.filter((outcome) => !outcome.result.ok)).toEqual([]);
    const parsed = parseManifest(await readFile(join(root, 'manifest.json'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    manifest = parsed.value;
    files = new Map();
    for (const source of manifest.sources) for (const part of source.parts) files.set(part.path, new Uint8Array(await readFile(join(root, part.path))));
  });

  it('gives every real capture, whole, the analysis its file gets', async () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const name of names) {
      const id = defaultCaptureId(name);
      const fromFile = await readCaptureFile(new Uint8Array(await readFile(join(CAPTURES, name))), { id, fileName: name });
      if (!fromFile.ok) throw new Error(fromFile.error.message);
      if (fromFile.value.info.rowCount === 0) continue;
      const opened = await importDatasetWindow(manifest, readerOf(files), { captureId: id, window: { fromMs: null, toMs: null }, id, maxRows: 5_000_000, decodePart: decodeParquetPart });
      if (!opened.ok) throw new Error(`${name}: ${opened.error.code} ${opened.error.message}`);
      const window = opened.value.capture;
      expect(rowsOf(window), name).toEqual(rowsOf(fromFile.value));
      expect(window.info.sourceSha256).toBe(fromFile.value.info.sourceSha256);
      expect(opened.value.report.dataset_window?.rows).toBe(fromFile.value.info.rowCount);
      const { bounds } = fromFile.value.info;
      const invocation = { ...template, capture_selection: { capture_ids: [id], time_window: { start_ms: bounds!.start_ms, end_ms: bounds!.end_ms } } };
      const [expected, actual] = await Promise.all([analyse(fromFile.value, invocation), analyse(window, invocation)]);
      compared++;
      if (JSON.stringify(expected) !== JSON.stringify(actual)) mismatches.push(name);
    }
    expect(compared).toBeGreaterThanOrEqual(15);
    expect(mismatches).toEqual([]);
  });

  it('keeps only the rows inside a bounded window, in the file’s order, reading only the parts that can hold them', async () => {
    const source = [...manifest.sources].sort((a, b) => b.rows - a.rows)[0];
    const fromFile = await readCaptureFile(new Uint8Array(await readFile(join(CAPTURES, source.file))), { id: source.capture_id, fileName: source.file });
    if (!fromFile.ok) throw new Error(fromFile.error.message);
    const { start_ms: start, end_ms: end } = source.bounds!;
    const fromMs = start + Math.floor((end - start) / 3);
    const toMs = start + Math.floor((2 * (end - start)) / 3);
    const opened = await importDatasetWindow(manifest, readerOf(files), { captureId: source.capture_id, window: { fromMs, toMs }, id: 'middle', maxRows: 5_000_000, decodePart: decodeParquetPart });
    if (!opened.ok) throw new Error(opened.error.message);
    const expected = rowsOf(fromFile.value, (ts) => ts >= fromMs && ts < toMs);
    expect(expected.length).toBeGreaterThan(100);
    expect(rowsOf(opened.value.capture)).toEqual(expected);
    expect(opened.value.capture.info.id).toBe('middle');
    // The first line is the column types.
    expect(opened.value.report.dataset_window).toMatchObject({ capture_id: source.capture_id, from_ms: fromMs, to_ms: toMs, rows: expected.length - 1 });
  });

  it('refuses with a code: an unknown capture, an empty window, a window over the limit, a missing, cut, foreign or unreadable part', async () => {
    const source = manifest.sources.find((entry) => entry.parts.length > 0 && entry.rows > 10)!;
    const base: DatasetWindowRequest = { captureId: source.capture_id, window: { fromMs: null, toMs: null }, id: 'x', maxRows: 5_000_000, decodePart: decodeParquetPart };
    const codeOf = async (request: DatasetWindowRequest, reader = readerOf(files)) => {
      const result = await importDatasetWindow(manifest, reader, request);
      return result.ok ? 'ok' : `${result.error.code}${'path' in result.error && result.error.path ? ` ${result.error.path}` : ''}`;
    };
    expect(await codeOf({ ...base, captureId: 'nope' })).toBe('DATASET_CAPTURE_UNKNOWN');
    expect(await codeOf({ ...base, window: { fromMs: 0, toMs: 1_000 } })).toBe('WINDOW_EMPTY');
    expect(await codeOf({ ...base, maxRows: 10 })).toBe('WINDOW_TOO_LARGE');
    const part = source.parts[0].path;
    expect(await codeOf(base, (path) => (path === part ? undefined : readerOf(files)(path)))).toBe(`DATASET_PART_MISSING ${part}`);
    const cut = new Map(files);
    cut.set(part, files.get(part)!.slice(0, 100));
    expect(await codeOf(base, readerOf(cut))).toBe(`DATASET_PART_TRUNCATED ${part}`);
    // A part of other columns (here: two of them) or one the decoder cannot read.
    expect(await codeOf({ ...base, decodePart: (bytes) => decodeParquetPart(bytes).select(['ts_ms', 'advertiser_addr']) })).toBe(`DATASET_SCHEMA_DRIFT ${part}`);
    expect(await codeOf({ ...base, decodePart: () => { throw new Error('Parquet error: bad magic'); } })).toBe('UNREADABLE_PARQUET');
    expect(await codeOf(base)).toBe('ok');
  });
});
