/**
 * DuckDB over a dataset: the engine behind `sextant query` (and the analysis of a dataset). The
 * view `packets` reads exactly the Parquet parts the manifest lists, with the capture schema's
 * columns in their documented order and the `hour` partition after them. DuckDB runs out of
 * core: past `memory_limit` it spills to a temporary directory instead of growing.
 */
import { rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type JS } from '@duckdb/node-api';
import { BLE_RECORD_COLUMNS, err, ok, type DatasetManifest, type DatasetProblem, type Result } from '../../src/core/index.ts';
import { checkParts, readManifest } from './dataset-store.ts';

export interface EngineOptions {
  /** DuckDB's `memory_limit`, e.g. `1GB`. */
  memoryLimit?: string;
  threads?: number;
  /** Where DuckDB spills; default the system's temporary directory. */
  tempDirectory?: string;
}

export const DEFAULT_MEMORY_LIMIT = '1GB';

/** A query's answer, with every value made JSON-safe (see {@link jsonValue}). */
export interface QueryAnswer {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  /** True when more rows than asked for exist. */
  truncated: boolean;
}

export class DatasetEngine {
  private constructor(
    /** The dataset's directory. */
    readonly root: string,
    readonly manifest: DatasetManifest,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    /** The spill directory this engine made for itself, removed on close; null for the caller's. */
    private readonly ownTempDirectory: string | null,
  ) {}

  /** Opens the dataset at `root`, refusing it when its manifest or any listed part is damaged. */
  static async open(root: string, options: EngineOptions = {}): Promise<Result<DatasetEngine, DatasetProblem>> {
    const manifest = await readManifest(root);
    if (!manifest.ok) return manifest;
    const parts = await checkParts(root, manifest.value);
    if (!parts.ok) return parts;
    const ownTempDirectory = options.tempDirectory === undefined ? join(tmpdir(), `sextant-duckdb-${process.pid}-${Math.random().toString(36).slice(2, 8)}`) : null;
    const instance = await DuckDBInstance.create(':memory:', {
      memory_limit: options.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
      threads: String(options.threads ?? availableParallelism()),
      temp_directory: options.tempDirectory ?? ownTempDirectory!,
    });
    const connection = await instance.connect();
    const drift = await checkPartSchemas(connection, root, parts.value.map((part) => part.path));
    if (!drift.ok) {
      connection.closeSync();
      instance.closeSync();
      if (ownTempDirectory) rmSync(ownTempDirectory, { recursive: true, force: true });
      return drift;
    }
    const files = parts.value.map((part) => sqlString(join(root, part.path))).join(', ');
    // Partition values are text (a capture id of digits stays text); partition columns come last.
    const columns = BLE_RECORD_COLUMNS.map((column) => `"${column.name}"`).join(', ');
    await connection.run(
      `CREATE VIEW packets AS SELECT ${columns}, "hour" FROM read_parquet([${files}], hive_partitioning = true, hive_types = {'capture_id': VARCHAR, 'hour': VARCHAR})`,
    );
    return ok(new DatasetEngine(root, manifest.value, instance, connection, ownTempDirectory));
  }

  /** Runs `sql`, keeping at most `maxRows` rows of its answer. Throws DuckDB's error for bad SQL. */
  async query(sql: string, maxRows: number): Promise<QueryAnswer> {
    const reader = await this.connection.runAndReadUntil(sql, maxRows + 1);
    const names = reader.columnNames();
    const types = reader.columnTypes();
    const rows = reader.getRowsJS();
    return {
      columns: names.map((name, index) => ({ name, type: types[index].toString() })),
      rows: rows.slice(0, maxRows).map((row) => row.map(jsonValue)),
      truncated: rows.length > maxRows || !reader.done,
    };
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
    if (this.ownTempDirectory) rmSync(this.ownTempDirectory, { recursive: true, force: true });
  }
}

/**
 * Refuses parts whose Parquet schema differs from the one most parts share (a column missing,
 * added or of another type), naming the first that differs: DuckDB would otherwise fail
 * mid-query on a missing column, or cast another type silently. Reads the footers only. `parts`
 * are paths relative to `root`, as the manifest lists them.
 */
export async function checkPartSchemas(connection: DuckDBConnection, root: string, parts: string[]): Promise<Result<void, DatasetProblem>> {
  const paths = parts.map((part) => join(root, part));
  // Each part's columns with the types DuckDB reads them as (not the Parquet annotations, which
  // differ between writers for the same data).
  const schemas: string[] = [];
  for (const path of paths) {
    const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(path)}, hive_partitioning = false)`);
    schemas.push(reader.getRowsJS().map(([name, type]) => `${String(name)} ${String(type)}`).sort().join('\n'));
  }
  const counts = new Map<string, number>();
  for (const schema of schemas) counts.set(schema, (counts.get(schema) ?? 0) + 1);
  // The schema most parts share; on a tie, the first part's (Map keeps first-seen order).
  const expected = [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
  const index = schemas.findIndex((schema) => schema !== expected);
  if (index < 0) return ok(undefined);
  const have = new Set(schemas[index].split('\n'));
  const want = new Set(expected.split('\n'));
  const missing = [...want].filter((column) => !have.has(column));
  const extra = [...have].filter((column) => !want.has(column));
  return err({
    code: 'DATASET_SCHEMA_DRIFT',
    message: `${paths[index]}: its schema differs from that of ${counts.get(expected)} of the ${paths.length} parts (expected but absent: ${missing.join('; ') || 'none'}; present but not expected: ${extra.join('; ') || 'none'})`,
    path: parts[index],
  });
}

/**
 * A DuckDB value as JSON: integers as numbers while they are exact (beyond ±2^53 as decimal
 * text), dates and times as ISO text, blobs as hex, lists and structs recursively.
 */
export function jsonValue(value: JS): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, jsonValue(entry)]));
  return value;
}

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
