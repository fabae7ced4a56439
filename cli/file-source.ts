// The command-line runner's adapter to the one capture-import pipeline: a file on disk as a
// CaptureSource, streamed in chunks and read by ranges, never held whole unless the format needs it.
import { open } from 'node:fs/promises';
import type { CaptureSource } from '../src/core/index.ts';

const CHUNK_BYTES = 1 << 20;

/** Opens `path` as a CaptureSource for the duration of `use`, then closes it. */
export async function withFileCaptureSource<T>(path: string, fileName: string, use: (source: CaptureSource) => Promise<T>): Promise<T> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (start: number, end: number): Promise<Uint8Array<ArrayBuffer>> => {
      const length = Math.max(0, Math.min(end, size) - start);
      const buffer = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === length ? buffer : buffer.slice(0, filled);
    };
    const source: CaptureSource = {
      fileName,
      byteLength: size,
      async *stream() {
        for (let at = 0; at < size; at += CHUNK_BYTES) {
          const chunk = await read(at, at + CHUNK_BYTES);
          if (chunk.byteLength === 0) return;
          yield chunk;
        }
      },
      slice: async (start, end) => (await read(start, end ?? size)).buffer,
    };
    return await use(source);
  } finally {
    await handle.close();
  }
}
