/**
 * Runs the BLE importer on files in a fresh process, so that its time and peak memory are its
 * own (the parent benchmark process has run other benchmarks). Reads each file as the app's
 * worker does: streamed in 64 KiB chunks, pushed into `createBleImporter`.
 *
 *   node --expose-gc --import tsx bench/ble-import-child.ts RUNS FILE...
 *
 * Prints one JSON object: per file the wall times of RUNS timed imports (after one untimed
 * warm-up; RUNS = 0 times a single cold import) and the report's counts; the process's RSS
 * before any import and its peak RSS.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createBleImporter } from '../src/core/data/ble/index.ts';

const CHUNK_BYTES = 64 * 1024;

async function importOnce(path: string): Promise<{ ms: number; rows: number; packets: number; advertisers: number }> {
  const started = performance.now();
  const importer = createBleImporter({ captureId: 'bench', fileName: path });
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) importer.push(chunk as Buffer);
  const result = importer.finish();
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`${path}: ${result.error.code} ${result.error.message}`);
  return { ms, rows: result.value.table.numRows, packets: result.value.report.packets, advertisers: result.value.report.advertisers };
}

const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.();

/**
 * This process's peak RSS in MiB. Linux's VmHWM belongs to the process image, whereas
 * getrusage's ru_maxrss survives fork + exec and would report the parent's (large) peak.
 */
function peakRssMb(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) / 1024;
  } catch {
    // Not Linux: fall back to getrusage.
  }
  return process.resourceUsage().maxRSS / 1024;
}

async function main(): Promise<void> {
  const [runsText, ...files] = process.argv.slice(2);
  const runs = Number(runsText);
  collectGarbage();
  const baselineRssMb = process.memoryUsage().rss / 1024 / 1024;
  const results: Record<string, { runs_ms: number[]; rows: number; packets: number; advertisers: number }> = {};
  for (const file of files) {
    const timed: number[] = [];
    let last = await importOnce(file);
    if (runs === 0) timed.push(last.ms);
    // No forced GC between runs: a full collection makes V8 drop and re-learn the importer's
    // optimized code, which would time the JIT, not the import.
    for (let run = 0; run < runs; run++) {
      last = await importOnce(file);
      timed.push(last.ms);
    }
    results[file] = { runs_ms: timed, rows: last.rows, packets: last.packets, advertisers: last.advertisers };
  }
  process.stdout.write(`${JSON.stringify({ baseline_rss_mb: baselineRssMb, peak_rss_mb: peakRssMb(), results })}\n`);
}

await main();
