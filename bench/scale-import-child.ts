/**
 * One import of a generated pcap stream in a fresh process, so its time and peak memory are its
 * own: `dataset` streams it into a dataset (`sextant import --dataset`'s path: staging, Parquet
 * parts, commit), `memory` imports it whole as `sextant import` does (the peer).
 *
 *   node --import tsx bench/scale-import-child.ts dataset|memory BASE.pcap PACKETS DATASET_DIR [diverse]
 *
 * `diverse`: the stream takes new addresses every repetition and new payloads (scale-stream.ts).
 */
import { readFileSync } from 'node:fs';
import { commitSource } from '../cli/dataset/dataset-store.ts';
import { streamIntoStaging } from '../cli/dataset/stream-import.ts';
import { createBleImporter } from '../src/core/index.ts';
import { repeatedPcap } from './scale-stream.ts';

function peakRssMb(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) / 1024 : process.resourceUsage().maxRSS / 1024;
}

async function main(): Promise<void> {
  const [mode, base, packetsText, root, variety] = process.argv.slice(2);
  const stream = (): Iterable<Uint8Array> => repeatedPcap(base, packets, { diverse: variety === 'diverse' });
  const packets = Number(packetsText);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let rows: number;
  let parts = 0;
  let bytesWritten = 0;
  if (mode === 'dataset') {
    const staged = await streamIntoStaging({ root, path: `scale-${packets}.pcap`, captureId: `scale_${packets}` }, { read: () => toAsync(stream()) });
    if (!staged.ok) throw new Error(`${staged.error.code}: ${staged.error.message}`);
    const committed = await commitSource(root, staged.value);
    if (!committed.ok) throw new Error(`${committed.error.code}: ${committed.error.message}`);
    rows = committed.value.rows;
    parts = committed.value.parts.length;
    bytesWritten = committed.value.parts.reduce((sum, part) => sum + part.bytes, 0);
  } else {
    const importer = createBleImporter({ captureId: 'scale', fileName: 'scale.pcap' });
    for (const chunk of stream()) importer.push(chunk);
    const result = importer.finish();
    if (!result.ok) throw new Error(result.error.message);
    rows = result.value.table.numRows;
  }
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, cpu_seconds: (used.user + used.system) / 1e6, peak_rss_mb: peakRssMb(), rows, parts, bytes_written: bytesWritten }));
}

async function* toAsync(chunks: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

await main();
