// Captures named on the command line (`--capture ID=PATH`), read through the one import pipeline.
import { basename } from 'node:path';
import { CaptureCatalog, builtinCaptures, readCaptureSource, type Capture, type JsonValue } from '../src/core/index.ts';
import { withFileCaptureSource } from './file-source.ts';
import { UsageError } from './usage-error.ts';

/** SHA-256, size and import report of each --capture file, kept for `invoke --run-out`. */
export const fileFingerprints = new WeakMap<Capture, { sha256: string; bytes: number; importReport: JsonValue }>();

/** Reads each `ID=PATH`; a bad spec or an unreadable file is a UsageError. */
export async function readCaptures(specs: string[], timeColumn: string | undefined): Promise<Capture[]> {
  const captures: Capture[] = [];
  for (const spec of specs) {
    const separator = spec.indexOf('=');
    if (separator <= 0 || separator === spec.length - 1) throw new UsageError(`--capture expects ID=PATH, got '${spec}'`);
    const id = spec.slice(0, separator);
    const path = spec.slice(separator + 1);
    const read = await withFileCaptureSource(path, path, (source) => readCaptureSource(source, { id, fileName: path, timeColumn }));
    if (!read.ok) throw new UsageError(`--capture ${id}: ${read.error.message} [${read.error.code}]`);
    const { sourceSha256, sourceBytes } = read.value.info;
    // The pipeline hashed the file's bytes as it read them.
    if (sourceSha256 !== undefined && sourceBytes !== undefined) {
      fileFingerprints.set(read.value, { sha256: sourceSha256, bytes: sourceBytes, importReport: JSON.parse(JSON.stringify(read.value.report)) as JsonValue });
    }
    captures.push(read.value);
  }
  return captures;
}

/** The built-in captures and the given ones. */
export async function loadCatalog(specs: string[], timeColumn: string | undefined): Promise<CaptureCatalog> {
  return new CaptureCatalog([...builtinCaptures(), ...(await readCaptures(specs, timeColumn))]);
}

/** The file name without its extension(s), reduced to letters, digits, `_` and `-`. */
export function defaultCaptureId(path: string): string {
  const stem = basename(path).replace(/\.[^.]*$/, '');
  const id = stem.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return id.length > 0 ? id : 'capture';
}
