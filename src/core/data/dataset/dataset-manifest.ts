/**
 * The manifest of a Sextant dataset (`manifest.json` at its root): every source file imported
 * into it, with its SHA-256, import report, time bounds and the Parquet parts that hold its rows.
 * The manifest is the dataset: readers open exactly the parts it lists, so parts that a crashed
 * import left behind are never read.
 */
import { err, ok, type Result } from '../../util/result.ts';
import { PARTITION_COLUMNS } from './partitions.ts';

/** Value of `format` in every manifest this version writes. */
export const DATASET_FORMAT = 'sextant-dataset/1';

/** The manifest's file name at the dataset root. */
export const MANIFEST_FILE = 'manifest.json';

/** One Parquet file of a source's rows. */
export interface DatasetPart {
  /** Relative to the dataset root, `/`-separated. */
  path: string;
  /** The `hour` partition value. */
  hour: string;
  rows: number;
  bytes: number;
  /** Smallest and largest `ts_ms` in the part; null when it has no timestamp. */
  min_ts_ms: number | null;
  max_ts_ms: number | null;
}

/** One imported file. */
export interface DatasetSource {
  capture_id: string;
  /** The file's name as given to the import (its base name). */
  file: string;
  sha256: string;
  bytes: number;
  /** ISO-8601 time the import was committed. */
  imported_at: string;
  rows: number;
  /** Whole milliseconds, like the import report's; null when no record has a time. */
  bounds: { start_ms: number; end_ms: number } | null;
  /** The import report (without identity keys' IRKs: a dataset travels). */
  report: Record<string, unknown>;
  parts: DatasetPart[];
}

export interface DatasetManifest {
  format: typeof DATASET_FORMAT;
  partitioning: ReadonlyArray<(typeof PARTITION_COLUMNS)[number]>;
  sources: DatasetSource[];
}

export interface DatasetProblem {
  code: 'DATASET_MANIFEST_INVALID' | 'DATASET_NOT_FOUND' | 'DATASET_PART_MISSING' | 'DATASET_PART_TRUNCATED' | 'DATASET_EMPTY' | 'DATASET_SCHEMA_DRIFT';
  message: string;
  /** The file concerned, relative to the dataset root. */
  path?: string;
}

export function emptyManifest(): DatasetManifest {
  return { format: DATASET_FORMAT, partitioning: [...PARTITION_COLUMNS], sources: [] };
}

/** Reads a manifest's JSON text, checking every field a reader relies on. */
export function parseManifest(text: string): Result<DatasetManifest, DatasetProblem> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return invalid(`${MANIFEST_FILE} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(value) || value.format !== DATASET_FORMAT) return invalid(`${MANIFEST_FILE} is not a ${DATASET_FORMAT} manifest`);
  if (!Array.isArray(value.sources)) return invalid(`${MANIFEST_FILE}: sources is not an array`);
  const partitioning = value.partitioning;
  if (!Array.isArray(partitioning) || partitioning.join('/') !== PARTITION_COLUMNS.join('/')) {
    return invalid(`${MANIFEST_FILE}: partitioning must be ${JSON.stringify(PARTITION_COLUMNS)}`);
  }
  for (const [index, source] of value.sources.entries()) {
    const problem = sourceProblem(source);
    if (problem) return invalid(`${MANIFEST_FILE}: sources[${index}]: ${problem}`);
  }
  return ok(value as unknown as DatasetManifest);
}

function sourceProblem(source: unknown): string | null {
  if (!isRecord(source)) return 'not an object';
  for (const key of ['capture_id', 'file', 'sha256', 'imported_at'] as const) if (typeof source[key] !== 'string') return `${key} is not a string`;
  if (!/^[0-9a-f]{64}$/.test(source.sha256 as string)) return 'sha256 is not 64 lowercase hex digits';
  for (const key of ['bytes', 'rows'] as const) if (!isCount(source[key])) return `${key} is not a count`;
  if (!Array.isArray(source.parts)) return 'parts is not an array';
  for (const [index, part] of source.parts.entries()) {
    if (!isRecord(part) || typeof part.path !== 'string' || typeof part.hour !== 'string' || !isCount(part.rows) || !isCount(part.bytes)) {
      return `parts[${index}] needs path, hour, rows and bytes`;
    }
    if (part.path.startsWith('/') || part.path.split('/').includes('..')) return `parts[${index}].path leaves the dataset`;
  }
  return null;
}

/** Every part of the manifest, in source order. */
export function manifestParts(manifest: DatasetManifest): DatasetPart[] {
  return manifest.sources.flatMap((source) => source.parts);
}

function invalid(message: string): Result<never, DatasetProblem> {
  return err({ code: 'DATASET_MANIFEST_INVALID', message, path: MANIFEST_FILE });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
