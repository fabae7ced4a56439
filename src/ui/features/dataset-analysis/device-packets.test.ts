import { describe, expect, it } from 'vitest';
import type { DatasetManifest } from '../../../core/index.ts';
import { datasetOfAnalysis, devicePacketsPlan } from './device-packets.ts';

const part = (hour: string, min: number, max: number, rows: number) => ({ path: `parts/${hour}.parquet`, hour, rows, bytes: 100, min_ts_ms: min, max_ts_ms: max });
const source = (capture_id: string, sha: string, parts: ReturnType<typeof part>[]) => ({
  capture_id,
  file: `${capture_id}.pcap`,
  sha256: sha.repeat(64),
  bytes: 1,
  imported_at: '2026-11-29T00:00:00Z',
  rows: parts.reduce((sum, entry) => sum + entry.rows, 0),
  bounds: { start_ms: parts[0].min_ts_ms, end_ms: parts[parts.length - 1].max_ts_ms },
  report: {},
  parts,
});
const manifest = {
  format: 'sextant-dataset/1',
  partitioning: ['capture_id', 'hour'],
  sources: [source('rx_1', 'a', [part('h0', 0, 3_599_999, 10), part('h1', 3_600_000, 7_199_999, 20)]), source('rx_2', 'b', [part('h0', 0, 3_599_999, 5)]), source('other', 'c', [part('h0', 0, 10, 1)])],
} as unknown as DatasetManifest;
const dataset = { name: 'ds', files: new Map<string, File>(), manifest };

describe('a stitched device’s packets from the picked dataset', () => {
  it('takes the dataset only when it holds every analysed capture, from the same file', () => {
    expect(datasetOfAnalysis(dataset, [{ capture_id: 'rx_1', rows: 1, file: null, sha256: 'a'.repeat(64) }])).toBe(dataset);
    expect(datasetOfAnalysis(dataset, [{ capture_id: 'rx_1', rows: 1, file: null, sha256: 'f'.repeat(64) }])).toBeNull();
    expect(datasetOfAnalysis(dataset, [{ capture_id: 'rx_9', rows: 1, file: null, sha256: null }])).toBeNull();
    expect(datasetOfAnalysis(null, [{ capture_id: 'rx_1', rows: 1, file: null, sha256: null }])).toBeNull();
  });

  it('opens the device’s span on the analysed captures whose parts hold it', () => {
    const plan = devicePacketsPlan(manifest, ['rx_1', 'rx_2'], new Date(3_000_000).toISOString(), new Date(3_700_000).toISOString());
    expect(plan).toEqual({ window: { fromMs: 3_000_000, toMs: 3_700_001 }, captures: [{ captureId: 'rx_1', partRows: 30 }, { captureId: 'rx_2', partRows: 5 }], partRows: 35 });
    expect(devicePacketsPlan(manifest, ['rx_1', 'rx_2'], new Date(3_650_000).toISOString(), new Date(3_700_000).toISOString())?.captures).toEqual([{ captureId: 'rx_1', partRows: 20 }]);
    expect(devicePacketsPlan(manifest, ['rx_1'], null, null)).toBeNull();
  });
});
