/**
 * The analyzer benchmark's worker thread (started through ble-analyzer-worker.mjs, which loads
 * tsx first). Generates the input itself, so the main thread holds no large table; times the
 * floor (one plain pass over the Arrow columns the analysis reads) and `analyzeBle` in mode
 * `both`, and posts the timings back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RecordBatch } from 'apache-arrow';
import { analyzeBle, generateBleBenchmarkInput } from '../src/core/index.ts';
import { bleAnalysisOptions } from '../src/core/tools/ble-analyzer/shared/test-support.ts';

export interface AnalyzerBenchRequest {
  seed: number;
  observations: number;
  addresses: number;
  durationS: number;
  /** Untimed runs first (the first of them is the cold one, before the JIT has seen the data). */
  warmUpRuns: number;
  /** Timed runs after the warm-up. */
  runs: number;
}

export interface AnalyzerBenchResult {
  generate_ms: number;
  rows: number;
  addresses_heard: number;
  receivers: number;
  floor_runs_ms: number[];
  /** The narrower floor over five of those columns, kept for comparison with earlier reports. */
  five_column_floor_runs_ms: number[];
  analyze_runs_ms: number[];
  /** The warm-up runs' times, in order: the first is the cold run. */
  warm_up_runs_ms: number[];
  classified: number;
  candidates: number;
  clusters: number;
  peak_rss_mb: number;
}

/** The columns the analyzer's row scan reads (src/core/tools/ble-analyzer/scan/observations.ts, scan-rows.ts). */
const SCANNED_COLUMNS = ['ts_ms', 'advertiser_addr', 'initiator_addr', 'scanner_addr', 'adv_type', 'advertiser_addr_type', 'tx_add', 'rx_add', 'rssi', 'crc_ok', 'receiver', 'payload_signature'] as const;

/** A column's value buffer (codes for dictionary columns, bits for booleans) in the first record batch chunk. */
function values(batch: RecordBatch, name: string): ArrayLike<number> {
  return batch.getChild(name)!.data[0].values as ArrayLike<number>;
}

/**
 * The floor: one plain pass over the same Arrow columns the analysis's row scan reads, touching
 * every value once — per-address count, first/last time and RSSI sum, and a running sum of the
 * other columns' codes — the least any per-address analysis of those columns must do. Returns a
 * checksum so the work cannot be optimized away. With `columns: 'five'` it reads only ts_ms,
 * advertiser_addr, rssi, receiver and crc_ok (the floor reported before 2026-11-23).
 */
function plainPass(batches: ReadonlyArray<RecordBatch>, dictionarySize: number, columns: 'scanned' | 'five'): number {
  const count = new Int32Array(dictionarySize);
  const first = new Float64Array(dictionarySize).fill(Infinity);
  const last = new Float64Array(dictionarySize).fill(-Infinity);
  const rssiSum = new Float64Array(dictionarySize);
  const receiverSeen = new Int32Array(64);
  let codes = 0;
  for (const batch of batches) {
    const ts = values(batch, 'ts_ms');
    const address = values(batch, 'advertiser_addr');
    const rssi = values(batch, 'rssi');
    const receiver = values(batch, 'receiver');
    const crc = values(batch, 'crc_ok');
    if (columns === 'scanned') {
      const initiator = values(batch, 'initiator_addr');
      const scanner = values(batch, 'scanner_addr');
      const advType = values(batch, 'adv_type');
      const addrType = values(batch, 'advertiser_addr_type');
      const txAdd = values(batch, 'tx_add');
      const rxAdd = values(batch, 'rx_add');
      const signature = values(batch, 'payload_signature');
      for (let row = 0; row < batch.numRows; row++) {
        codes += initiator[row] + scanner[row] + advType[row] + addrType[row] + txAdd[row] + rxAdd[row] + signature[row];
      }
    }
    for (let row = 0; row < batch.numRows; row++) {
      if ((crc[row >> 3] & (1 << (row & 7))) === 0) continue;
      const id = address[row];
      count[id]++;
      const time = ts[row];
      if (time < first[id]) first[id] = time;
      if (time > last[id]) last[id] = time;
      rssiSum[id] += rssi[row];
      receiverSeen[receiver[row] & 63]++;
    }
  }
  let checksum = codes * 1e-9;
  for (let id = 0; id < dictionarySize; id++) if (count[id] > 0) checksum += count[id] + rssiSum[id] * 1e-3 + (last[id] - first[id]) * 1e-9;
  return checksum + receiverSeen[0];
}

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

function run(request: AnalyzerBenchRequest): AnalyzerBenchResult {
  const generateStart = performance.now();
  const input = generateBleBenchmarkInput({ seed: request.seed, observations: request.observations, addresses: request.addresses, durationS: request.durationS });
  const generateMs = performance.now() - generateStart;
  const capture = input.captures[0];
  const batches = capture.table.batches;
  const selection = {
    batches: batches.map((batch) => ({ captureId: capture.info.id, batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows })),
    rowCount: capture.table.numRows,
  };
  const dictionarySize = batches[0].getChild('advertiser_addr')!.data[0].dictionary!.length;
  const options = bleAnalysisOptions();

  for (const name of SCANNED_COLUMNS) if (!batches[0].getChild(name)) throw new Error(`benchmark input lacks column ${name}`);
  const floorRuns: number[] = [];
  const fiveColumnRuns: number[] = [];
  let checksum = plainPass(batches, dictionarySize, 'scanned') + plainPass(batches, dictionarySize, 'five');
  for (let index = 0; index < request.runs; index++) {
    let started = performance.now();
    checksum += plainPass(batches, dictionarySize, 'scanned');
    floorRuns.push(performance.now() - started);
    started = performance.now();
    checksum += plainPass(batches, dictionarySize, 'five');
    fiveColumnRuns.push(performance.now() - started);
  }
  let started = performance.now();
  let analysis = analyzeBle(selection, options);
  const warmUpRuns = [performance.now() - started];
  while (warmUpRuns.length < request.warmUpRuns) {
    started = performance.now();
    analysis = analyzeBle(selection, options);
    warmUpRuns.push(performance.now() - started);
  }
  const analyzeRuns: number[] = [];
  for (let index = 0; index < request.runs; index++) {
    started = performance.now();
    analysis = analyzeBle(selection, options);
    analyzeRuns.push(performance.now() - started);
  }
  if (!Number.isFinite(checksum)) throw new Error('floor checksum is not finite');
  return {
    generate_ms: generateMs,
    rows: capture.table.numRows,
    addresses_heard: input.addressesHeard,
    receivers: input.truth.receivers.length,
    floor_runs_ms: floorRuns,
    five_column_floor_runs_ms: fiveColumnRuns,
    analyze_runs_ms: analyzeRuns,
    warm_up_runs_ms: warmUpRuns,
    classified: analysis.classification.length,
    candidates: analysis.candidatePairs,
    clusters: analysis.clusters.length,
    peak_rss_mb: peakRssMb(),
  };
}

parentPort?.postMessage(run(workerData as AnalyzerBenchRequest));
