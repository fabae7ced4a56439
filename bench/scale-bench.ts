/**
 * `npm run bench -- scale`: the dataset path at 10 M and 100 M packets (1 B with `--billion`).
 * Each size is imported from a generated pcap stream (bench/scale-stream.ts; nothing stored but
 * the dataset) in a fresh process, against the peer: today's whole-capture `sextant import`,
 * which runs only where it fits (~0.28 GB per million packets).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.ts';
import { writeBleBenchmarkPcap } from './ble-capture-generator.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CHILD = join(REPO, 'bench', 'scale-import-child.ts');
const BASE_PACKETS = 1_000_000;
/** The in-memory peer needs ~0.28 GB per million packets: run it only where that fits easily. */
const PEER_MAX_PACKETS = 20_000_000;

interface ChildResult {
  seconds: number;
  cpu_seconds: number;
  peak_rss_mb: number;
  rows: number;
  parts: number;
  bytes_written: number;
}

function runChild(mode: 'dataset' | 'memory', base: string, packets: number, root: string): ChildResult {
  const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, mode, base, String(packets), root], { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (child.status !== 0) throw new Error(`scale import child (${mode}, ${packets}) failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ChildResult;
}

export async function runScaleBench(flags: { billion: boolean }): Promise<BenchRow[]> {
  const work = mkdtempSync(join(tmpdir(), 'sextant-scale-'));
  const base = join(work, 'base.pcap');
  await writeBleBenchmarkPcap(base, BASE_PACKETS);
  const sizes = [10_000_000, 100_000_000, ...(flags.billion ? [1_000_000_000] : [])];
  const rows: BenchRow[] = [];
  try {
    for (const packets of sizes) {
      const root = join(work, `dataset-${packets}`);
      const load = loadavg()[0];
      const ours = runChild('dataset', base, packets, root);
      if (ours.rows !== packets) throw new Error(`the dataset holds ${ours.rows} rows of ${packets}`);
      const peer = packets <= PEER_MAX_PACKETS ? runChild('memory', base, packets, root) : null;
      const free = statfsSync(work);
      rows.push({
        name: `scale_import_${exponent(packets)}`,
        ours_ms: Math.round(ours.seconds * 1000),
        peer: 'sextant import (whole capture in memory)',
        peer_ms: peer ? Math.round(peer.seconds * 1000) : null,
        ratio: peer ? round(peer.seconds / ours.seconds, 3) : null,
        peak_rss_mb: Math.round(ours.peak_rss_mb),
        params: {
          packets,
          seconds: round(ours.seconds, 1),
          cpu_seconds: round(ours.cpu_seconds, 1),
          peak_rss_mb: Math.round(ours.peak_rss_mb),
          // One import runs on one thread: packets per CPU-second is its rate per core, and it holds on a busy machine.
          packets_per_s_per_core: Math.round(packets / ours.cpu_seconds),
          packets_per_s: Math.round(packets / ours.seconds),
          parquet_parts: ours.parts,
          parquet_bytes: ours.bytes_written,
          peer_peak_rss_mb: peer ? Math.round(peer.peak_rss_mb) : null,
          peer_cpu_seconds: peer ? round(peer.cpu_seconds, 1) : null,
          peer_skipped: peer ? null : `the whole-capture import needs ~${Math.round(packets * 0.28e-6)} GB for ${packets.toLocaleString('en-US')} packets`,
          load_average_1m: round(load, 2),
          disk_free_gb_after: round((free.bavail * free.bsize) / 1e9, 1),
          source: `generated pcap stream: a ${BASE_PACKETS.toLocaleString('en-US')}-packet capture of 300 advertisers repeated with advancing times`,
        },
      });
      rmSync(root, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

function exponent(packets: number): string {
  return `1e${Math.round(Math.log10(packets))}`;
}

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}
