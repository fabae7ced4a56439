/**
 * `npm run bench -- scale`: the dataset path at 10 M and 100 M packets (1 B with `--billion`).
 * Each size is imported from a generated pcap stream (bench/scale-stream.ts; nothing stored but
 * the dataset) in a fresh process, against the peer: today's whole-capture `sextant import`,
 * which runs only where it fits (~0.28 GB per million packets). The analysis rows
 * (`scale_analysis_*`) are measured on a generated week of three sniffers of the same size
 * (bench/week-dataset.ts: phones, multi-set phones, trackers, companions, beacons): its summary
 * stage (`sextant summarize`) and its analysis window by window (`analyze-dataset --window`), in
 * another fresh process; there is no peer: the in-memory analyzer cannot hold these sizes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.ts';
import { writeBleBenchmarkPcap } from './ble-capture-generator.ts';
import { writeWeekDataset } from './week-dataset.ts';
import { ensureBuiltRunner } from './ensure-built-runner.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CHILD = join(REPO, 'bench', 'scale-import-child.ts');
const ANALYSIS_CHILD = join(REPO, 'bench', 'scale-analysis-child.ts');
/**
 * The windows of the analysis rows: the generated week runs ~2,900 packets a second over its three
 * sniffers, so a window with its overlap holds ~2.5 M packets; the overlap outlasts the default
 * linkage window (180 s).
 */
const ANALYSIS_WINDOW = '10m';
const ANALYSIS_OVERLAP = '4m';
/** Windows analysed at once: one per core of this 2-core machine. */
const ANALYSIS_JOBS = 2;
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

interface AnalysisChildResult {
  seconds: number;
  cpu_seconds: number;
  summarize_seconds: number;
  summarize_cpu_seconds: number;
  peak_rss_mb: number;
  windows: number;
  window_statuses: string[];
  rows_analysed: number;
  largest_window_rows: number;
  stitched: Record<string, number>;
  status: string;
}

function runAnalysisChild(root: string, out: string): AnalysisChildResult {
  const child = spawnSync(process.execPath, ['--import', 'tsx', ANALYSIS_CHILD, root, out, ANALYSIS_WINDOW, ANALYSIS_OVERLAP, String(ANALYSIS_JOBS)], { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (child.status !== 0) throw new Error(`scale analysis child (${root}) failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as AnalysisChildResult;
}

/** One import of the generated stream in a fresh process (bench/scale-import-child.ts): into a dataset, or whole in memory (the peer). */
export function runScaleImportChild(mode: 'dataset' | 'memory', base: string, packets: number, root: string, varied: boolean): ChildResult {
  const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, mode, base, String(packets), root, ...(varied ? ['diverse'] : [])], { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (child.status !== 0) throw new Error(`scale import child (${mode}, ${packets}) failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ChildResult;
}

/**
 * `flags.varied`: the stream takes new addresses every repetition and a new payload in one packet
 * of ten (bench/scale-stream.ts), as varied as a real week, so the importer's dictionaries grow as
 * they would; the rows keep their names and say `traffic: "varied"`.
 */
export async function runScaleBench(flags: { billion: boolean; varied?: boolean }, only?: number[]): Promise<BenchRow[]> {
  const varied = flags.varied ?? false;
  const traffic = varied ? 'varied' : 'repeated';
  const stream = varied
    ? `generated pcap stream: a ${BASE_PACKETS.toLocaleString('en-US')}-packet capture of 300 advertisers repeated with advancing times, new addresses every repetition and a new payload in one packet of ten`
    : `generated pcap stream: a ${BASE_PACKETS.toLocaleString('en-US')}-packet capture of 300 advertisers repeated with advancing times`;
  const work = mkdtempSync(join(tmpdir(), 'sextant-scale-'));
  const base = join(work, 'base.pcap');
  await writeBleBenchmarkPcap(base, BASE_PACKETS);
  const sizes = only ?? [10_000_000, 100_000_000, ...(flags.billion ? [1_000_000_000] : [])];
  // The analysis rows run the built runner, as `sextant analyze-dataset` does (scale-analysis-child.ts).
  ensureBuiltRunner();
  const rows: BenchRow[] = [];
  try {
    for (const packets of sizes) {
      const root = join(work, `dataset-${packets}`);
      const load = loadavg()[0];
      const ours = runScaleImportChild('dataset', base, packets, root, varied);
      if (ours.rows !== packets) throw new Error(`the dataset holds ${ours.rows} rows of ${packets}`);
      const peer = packets <= PEER_MAX_PACKETS ? runScaleImportChild('memory', base, packets, root, varied) : null;
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
          traffic,
          source: stream,
        },
      });
      rmSync(root, { recursive: true, force: true });

      const week = join(work, `week-${packets}`);
      const generated = await writeWeekDataset(week, packets);
      const analysisLoad = loadavg();
      const analysis = runAnalysisChild(week, join(work, `analysis-${packets}`));
      const total = analysis.summarize_seconds + analysis.seconds;
      rows.push({
        name: `scale_analysis_${exponent(packets)}`,
        ours_ms: Math.round(total * 1000),
        peer: 'none (the in-memory analyzer holds ~0.3 GB per million observations)',
        peer_ms: null,
        ratio: null,
        peak_rss_mb: Math.round(analysis.peak_rss_mb),
        params: {
          packets,
          // The summary stage and the windowed analysis together (each also on its own below).
          seconds: round(total, 1),
          cpu_seconds: round(analysis.summarize_cpu_seconds + analysis.cpu_seconds, 1),
          peak_rss_mb: Math.round(analysis.peak_rss_mb),
          summarize_seconds: round(analysis.summarize_seconds, 1),
          summarize_cpu_seconds: round(analysis.summarize_cpu_seconds, 1),
          analysis_seconds: round(analysis.seconds, 1),
          analysis_cpu_seconds: round(analysis.cpu_seconds, 1),
          window: ANALYSIS_WINDOW,
          overlap: ANALYSIS_OVERLAP,
          jobs: ANALYSIS_JOBS,
          windows: analysis.windows,
          window_statuses: [...new Set(analysis.window_statuses)],
          rows_analysed: analysis.rows_analysed,
          largest_window_rows: analysis.largest_window_rows,
          stitched: analysis.stitched,
          status: analysis.status,
          load_average_1m: round(analysisLoad[0], 2),
          load_average_5m: round(analysisLoad[1], 2),
          span_s: generated.span_s,
          source: generated.description,
        },
      });
      rmSync(week, { recursive: true, force: true });
      rmSync(join(work, `analysis-${packets}-summaries`), { recursive: true, force: true });
      rmSync(join(work, `analysis-${packets}`), { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

/** `1e7` for 10,000,000: the size in a row's name. */
export function exponent(packets: number): string {
  return `1e${Math.round(Math.log10(packets))}`;
}

export function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}
