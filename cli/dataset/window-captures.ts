/**
 * A time window of a dataset as ordinary captures, one per capture id, for the tools that read
 * captures in memory. The window's rows are read straight from the capture's Parquet parts (the
 * manifest says which parts hold which times): parquet-wasm decodes each part back into the
 * Arrow columns the importer wrote — dictionary-coded texts included, which the analyzer reads by
 * code — and the rows inside the window are kept as zero-copy slices, in the order the source
 * file had them. Nothing goes through a temporary file, text decoding or a second import: that
 * path (DuckDB `COPY` to Parquet, read back, imported as an Arrow file) cost ~11 of the 17 CPU
 * seconds per million rows of a windowed analysis.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, RecordBatch, Schema, Struct, Table, Utf8, makeData, vectorFromArray, type Data, type DataType, type Dictionary, type Int8, type Vector } from 'apache-arrow';
import { BLE_RECORD_COLUMNS, CAPTURE_METADATA, PART_BATCH_ROWS, batchesOfRuns, describeCapture, orderRuns, partOverlapsWindow, runsInWindow, type Capture, type DatasetSource, type DatasetTimeWindow, type RowRun, type TimeRange } from '../../src/core/index.ts';
import { decodeParquetPart } from './parquet-part.ts';

/** A time window (null bounds: the dataset's own) of some of the dataset's captures. */
export interface DatasetWindow extends DatasetTimeWindow {
  /** Only these capture ids; empty for all. */
  captureIds: string[];
}

/**
 * Where a window's rows are read from: the dataset's directory and the sources of its manifest
 * (a `DatasetEngine` is one; a tool thread gets them in a message, as plain data).
 */
export interface DatasetFiles {
  root: string;
  manifest: { sources: DatasetSource[] };
}

export interface WindowCapture {
  capture: Capture;
  rows: number;
}

/** Rows per record batch of a window's capture: the importer's batch size, which parts are decoded in too. */
export const WINDOW_BATCH_ROWS = PART_BATCH_ROWS;

/**
 * The window's rows of each capture as a capture. `batchRows` sets the record batches parts are
 * decoded into (tests use small ones to cross many batch and dictionary boundaries). With
 * `bounds`, every capture declares them as its time bounds, so one invocation's time window holds
 * for all of them (the contract wants it inside each capture's bounds, and captures that start or
 * end at other times within a window would otherwise each claim only their own packets' span).
 */
export async function windowCaptures(dataset: DatasetFiles, window: DatasetWindow, captureIds: string[], batchRows = WINDOW_BATCH_ROWS, bounds?: TimeRange): Promise<WindowCapture[]> {
  const captures: WindowCapture[] = [];
  for (const captureId of captureIds) {
    const source = dataset.manifest.sources.find((candidate) => candidate.capture_id === captureId);
    if (!source) throw new Error(`capture ${captureId} is not in the dataset`);
    const schema = captureSchema(source, bounds);
    // One dictionary for the capture's `capture_id` column, shared by all its batches (the IPC copy for the tool thread writes it once).
    const idDictionary = vectorFromArray([captureId], new Utf8());
    const runs: RowRun[] = [];
    for (const part of source.parts.filter((candidate) => partOverlapsWindow(candidate, window))) {
      const bytes = await readFile(join(dataset.root, part.path));
      const table = decodeParquetPart(bytes, batchRows);
      for (const batch of table.batches) runs.push(...runsInWindow(inCaptureSchema(schema, batch, captureId, idDictionary), window));
    }
    const capture = captureOf(source, schema, orderRuns(runs));
    captures.push({ capture, rows: capture.info.rowCount });
  }
  return captures;
}

/** The record table's schema, with what the capture's metadata says about it. */
function captureSchema(source: DatasetSource, bounds: TimeRange | undefined): Schema {
  const fields = BLE_RECORD_COLUMNS.map((column) => new Field(column.name, column.type(), true));
  const metadata = new Map<string, string>([
    [CAPTURE_METADATA.captureId, source.capture_id],
    [CAPTURE_METADATA.source, source.file],
    [CAPTURE_METADATA.sourceSha256, source.sha256],
    [CAPTURE_METADATA.sourceBytes, String(source.bytes)],
    [CAPTURE_METADATA.timeColumn, 'ts_ms'],
    [CAPTURE_METADATA.channelColumn, 'channel'],
  ]);
  if (bounds) {
    metadata.set(CAPTURE_METADATA.declaredStartMs, String(bounds.start_ms));
    metadata.set(CAPTURE_METADATA.declaredEndMs, String(bounds.end_ms));
  }
  return new Schema(fields, metadata);
}

/**
 * A part's batch in the capture's schema, sharing its buffers: each column's data takes the
 * schema's type (dictionary ids are per file), and `capture_id`, which the directory names carry
 * instead of the parts, is a one-entry dictionary column again.
 */
function inCaptureSchema(schema: Schema, batch: RecordBatch, captureId: string, idDictionary: Vector<Utf8>): RecordBatch {
  const children = schema.fields.map((field): Data => {
    if (field.name === 'capture_id') return makeData({ type: field.type as Dictionary<Utf8, Int8>, length: batch.numRows, nullCount: 0, data: new Int8Array(batch.numRows), dictionary: idDictionary });
    const column = batch.getChild(field.name);
    if (!column || column.data.length !== 1) throw new Error(`a part of capture ${captureId} has no column '${field.name}' in one piece`);
    return column.data[0].clone(field.type as DataType);
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: batch.numRows, nullCount: 0, children }));
}

function captureOf(source: DatasetSource, schema: Schema, runs: readonly RowRun[]): Capture {
  const batches = batchesOfRuns(schema, runs, WINDOW_BATCH_ROWS);
  const table = batches.length > 0 ? new Table(schema, batches) : new Table(schema);
  const described = describeCapture(table, { id: source.capture_id, source: source.file });
  if (!described.ok) throw new Error(`the window of ${source.capture_id} is not a capture: ${described.error.message}`);
  // The schema's metadata carries the source's SHA-256 and size into the description.
  return { info: described.value, table };
}
