/**
 * The analyzer benchmark's worker thread (started through ble-analyzer-worker.mjs, which loads
 * tsx first). Generates the input itself, so the main thread holds no large table; times the
 * floor (one plain pass over the Arrow columns the analysis reads) and `analyzeBle` in mode
 * `both`, and posts the timings back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RecordBatch } from 'apache-arrow';
import { analyzeBle, generateBleBenchmarkInput, type BleAnalysisOptions } from '../src/core/index.ts';

export interface AnalyzerBenchRequest {
  seed: number;
  observations: number;
  addresses: number;
  durationS: number;
  /** Timed runs after one untimed warm-up. */
  runs: number;
}

export interface AnalyzerBenchResult {
  generate_ms: number;
  rows: number;
  addresses_heard: number;
  receivers: number;
  floor_runs_ms: number[];
  analyze_runs_ms: number[];
  classified: number;
  candidates: number;
  clusters: number;
  peak_rss_mb: number;
}

/**
 * The floor: one pass over ts_ms, advertiser_addr (dictionary indices), rssi, receiver
 * (indices) and crc_ok, keeping per-address count, first/last time and RSSI sum — the least any
 * per-address analysis must do. Returns a checksum so the work cannot be optimized away.
 */
function plainPass(batches: ReadonlyArray<RecordBatch>, dictionarySize: number): number {
  const count = new Int32Array(dictionarySize);
  const first = new Float64Array(dictionarySize).fill(Infinity);
  const last = new Float64Array(dictionarySize).fill(-Infinity);
  const rssiSum = new Float64Array(dictionarySize);
  const receiverSeen = new Int32Array(64);
  for (const batch of batches) {
    const ts = batch.getChild('ts_ms')!.data[0].values as Float64Array;
    const address = batch.getChild('advertiser_addr')!.data[0].values as Int32Array;
    const rssi = batch.getChild('rssi')!.data[0].values as Int8Array;
    const receiver = batch.getChild('receiver')!.data[0].values as Int16Array;
    const crc = batch.getChild('crc_ok')!.data[0].values as Uint8Array;
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
  let checksum = 0;
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
  const options: BleAnalysisOptions = {
    mode: 'both',
    linkageWindowS: 180,
    minObservationCount: 25,
    rotationModel: 'spec_default',
    addressColumns: { advertiser: 'advertiser_addr', initiator: 'initiator_addr', scanner: 'scanner_addr' },
  };

  const floorRuns: number[] = [];
  let checksum = plainPass(batches, dictionarySize);
  for (let index = 0; index < request.runs; index++) {
    const started = performance.now();
    checksum += plainPass(batches, dictionarySize);
    floorRuns.push(performance.now() - started);
  }
  let analysis = analyzeBle(selection, options);
  const analyzeRuns: number[] = [];
  for (let index = 0; index < request.runs; index++) {
    const started = performance.now();
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
    analyze_runs_ms: analyzeRuns,
    classified: analysis.classification.length,
    candidates: analysis.candidates.length,
    clusters: analysis.clusters.length,
    peak_rss_mb: peakRssMb(),
  };
}

parentPort?.postMessage(run(workerData as AnalyzerBenchRequest));
