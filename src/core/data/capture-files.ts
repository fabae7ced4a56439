/**
 * The command-line runner's way into the capture-import pipeline: a file held in memory becomes a
 * {@link CaptureSource} and goes through {@link importCaptureSource}, exactly as a browser File
 * does in the import worker. A table that would need the app's column-mapping step fails here
 * with the coded reason (`MISSING_TIME_COLUMN`, `NON_NUMERIC_TIME_COLUMN`).
 */
import { describeCapture, type Capture } from './capture.ts';
import {
  importCaptureSource,
  type CaptureFileFormat,
  type CaptureImportFailure,
  type CaptureImportReport,
  type CaptureSource,
} from './capture-import.ts';

export interface CaptureFileOptions {
  /** Id the capture is known by. */
  id: string;
  /** File name, for messages and the capture's `source`. */
  fileName: string;
  /** Timestamp column; default: the file's recorded one, else `ts_ms`. */
  timeColumn?: string;
  /** Channel column; default: the file's recorded one, else `channel` when present. */
  channelColumn?: string | null;
  /** Receiver name for the rows of a BLE capture (pcap, pcapng, btsnoop); default from the file. */
  receiver?: string;
}

/** Why a file could not be read: the pipeline's coded failure. */
export type CaptureFileProblem = CaptureImportFailure;

/** A capture read from a file, with what the reader learnt on the way. */
export interface CaptureFile extends Capture {
  format: CaptureFileFormat;
  /** What the import found: the BLE report for pcap, pcapng and btsnoop, the tabular report otherwise. */
  report: CaptureImportReport;
}

/** Chunk size a byte array is streamed in, as a browser File stream would deliver it. */
const CHUNK_BYTES = 1 << 20;

/** A file held in memory as a {@link CaptureSource}. */
export function bytesCaptureSource(bytes: Uint8Array, fileName: string): CaptureSource {
  return {
    fileName,
    byteLength: bytes.byteLength,
    async *stream() {
      for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
    },
    slice: async (start, end) => bytes.slice(start, end).buffer,
  };
}

/**
 * Reads a capture file through the one import pipeline: a BLE capture (pcap, pcapng, btsnoop),
 * Arrow IPC, Parquet or CSV. Never throws for bad input.
 */
export async function readCaptureFile(bytes: Uint8Array, options: CaptureFileOptions): Promise<{ ok: true; value: CaptureFile } | { ok: false; error: CaptureFileProblem }> {
  return readCaptureSource(bytesCaptureSource(bytes, options.fileName), options);
}

/** {@link readCaptureFile} for any source (a file read by ranges, say). */
export async function readCaptureSource(source: CaptureSource, options: CaptureFileOptions): Promise<{ ok: true; value: CaptureFile } | { ok: false; error: CaptureFileProblem }> {
  const imported = await importCaptureSource(source, options);
  if (!imported.ok) return imported;
  const file = imported.value;
  if (file.kind === 'needs-mapping') {
    // Without the app's mapping step, say exactly what the table lacks.
    const described = describeCapture(file.table, { id: options.id, timeColumn: options.timeColumn });
    const error: CaptureFileProblem = described.ok
      ? { code: 'MISSING_TIME_COLUMN', message: `${options.fileName} has no numeric time column` }
      : described.error;
    return { ok: false, error };
  }
  return { ok: true, value: { ...file.capture, format: file.report.format, report: file.report } };
}
