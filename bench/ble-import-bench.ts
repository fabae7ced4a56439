import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.ts';
import { writeBleBenchmarkPcap } from './ble-capture-generator.ts';

const PACKETS = 1_000_000;
const TIMED_RUNS = 3;
const REAL_RUNS = 5;
const REPO = fileURLToPath(new URL('..', import.meta.url));
const CHILD = join(REPO, 'bench', 'ble-import-child.ts');
const CAPTURES = join(REPO, '..', 'shared', 'captures', 'ble');

/** The fields tshark extracts: what the importer's record table holds for a link-layer capture. */
const LL_FIELDS = [
  'frame.time_epoch',
  'btle.advertising_header.pdu_type',
  'btle.advertising_header.randomized_tx',
  'btle.advertising_header.randomized_rx',
  'btle.advertising_address',
  'btle.scanning_address',
  'btle.initiator_address',
  'btle.target_address',
  'btle_rf.channel',
  'btle_rf.signal_dbm',
  'nordic_ble.channel',
  'nordic_ble.rssi',
  'nordic_ble.crcok',
  'btle.crc.incorrect',
  'btcommon.eir_ad.entry.type',
  'btcommon.eir_ad.entry.device_name',
  'btcommon.eir_ad.entry.power_level',
  'btcommon.eir_ad.entry.appearance',
  'btcommon.eir_ad.entry.company_id',
  'btcommon.eir_ad.entry.data',
  'btcommon.eir_ad.entry.uuid_16',
  'btcommon.eir_ad.entry.service_data',
];
/** …and for an HCI log. */
const HCI_FIELDS = [
  'frame.time_epoch',
  'bthci_evt.le_meta_subevent',
  'bthci_evt.le_advts_event_type',
  'bthci_evt.le_ext_advts_event_type',
  'bthci_evt.le_peer_address_type',
  'bthci_evt.bd_addr',
  'bthci_evt.rssi',
  'btcommon.eir_ad.entry.type',
  'btcommon.eir_ad.entry.device_name',
  'btcommon.eir_ad.entry.power_level',
  'btcommon.eir_ad.entry.appearance',
  'btcommon.eir_ad.entry.company_id',
  'btcommon.eir_ad.entry.data',
  'btcommon.eir_ad.entry.uuid_16',
  'btcommon.eir_ad.entry.service_data',
];
const USER_DLT_OPTION = ['-o', 'uat:user_dlts:"User 0 (DLT=147)","btle","0","","0",""'];

interface ChildResult {
  baseline_rss_mb: number;
  peak_rss_mb: number;
  results: Record<string, { runs_ms: number[]; rows: number; packets: number; advertisers: number }>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;
const mib = (bytes: number): number => bytes / 1024 / 1024;

function runChild(runs: number, files: string[]): ChildResult {
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, String(runs), ...files], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (result.status !== 0) throw new Error(`importer child failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as ChildResult;
}

function tsharkVersion(): string | null {
  const probe = spawnSync('tshark', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.split('\n')[0] : null;
}

/** One `tshark -T fields` run over `file`, output discarded; wall time and peak RSS (via GNU time when present). */
function runTshark(file: string, fields: string[], extra: string[] = []): { ms: number; peakRssMb: number | null } {
  const args = [...extra, '-r', file, '-T', 'fields', ...fields.flatMap((field) => ['-e', field])];
  const timed = existsSync('/usr/bin/time');
  const started = performance.now();
  const result = timed
    ? spawnSync('/usr/bin/time', ['-f', '%M', 'tshark', ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 })
    : spawnSync('tshark', args, { stdio: ['ignore', 'ignore', 'ignore'] });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`tshark failed on ${file}`);
  const kilobytes = timed ? Number(String(result.stderr).trim().split('\n').pop()) : Number.NaN;
  return { ms, peakRssMb: Number.isFinite(kilobytes) ? kilobytes / 1024 : null };
}

function isHciLog(name: string): boolean {
  return /btsnoop|\.snoop$|hci/i.test(name);
}

/**
 * Capture import. A generated 1,000,000-packet LINKTYPE 256 pcap (busy-site ADV_IND /
 * ADV_NONCONN_IND / SCAN_RSP / SCAN_REQ traffic with AD data, 10% CRC-bad) and every real capture
 * in ../shared/captures/ble/. Ours: `createBleImporter` fed the file in 64 KiB chunks from a
 * read stream, in a fresh child process (median of timed runs after a warm-up; peak RSS from a
 * separate single-import child). Peer: `tshark -r FILE -T fields` extracting the same fields
 * (skipped with a message when tshark is absent).
 */
export async function runBleImportBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const tshark = tsharkVersion();
  if (!tshark) console.log('tshark not found: capture-import rows have no peer (apt-get install tshark)');
  const directory = mkdtempSync(join(tmpdir(), 'sextant-ble-bench-'));
  try {
    const path = join(directory, 'ble-1e6.pcap');
    const generateStart = performance.now();
    const fileBytes = await writeBleBenchmarkPcap(path, PACKETS);
    const generateMs = performance.now() - generateStart;

    const timing = runChild(TIMED_RUNS, [path]);
    const memory = runChild(0, [path]);
    const ours = timing.results[path];
    const oursMs = median(ours.runs_ms);
    const peer = tshark ? runTshark(path, LL_FIELDS) : null;
    const fileMb = mib(fileBytes);
    rows.push({
      name: 'ble_import_pcap_1e6',
      ours_ms: round(oursMs),
      peer: tshark ? `${tshark} -T fields` : 'tshark (absent)',
      peer_ms: peer ? round(peer.ms) : null,
      ratio: peer ? round(peer.ms / oursMs, 2) : null,
      peak_rss_mb: round(memory.peak_rss_mb),
      params: {
        packets: PACKETS,
        rows: ours.rows,
        advertisers: ours.advertisers,
        file_mb: round(fileMb),
        link_type: 256,
        generate_ms: round(generateMs),
        chunk_bytes: 65_536,
        ours_runs_ms: ours.runs_ms.map((value) => round(value)),
        packets_per_s: Math.round(PACKETS / (oursMs / 1000)),
        peer_packets_per_s: peer ? Math.round(PACKETS / (peer.ms / 1000)) : null,
        process_baseline_rss_mb: round(memory.baseline_rss_mb),
        import_rss_mb: round(memory.peak_rss_mb - memory.baseline_rss_mb),
        import_rss_over_file_size: round((memory.peak_rss_mb - memory.baseline_rss_mb) / fileMb, 2),
        peak_rss_over_file_size: round(memory.peak_rss_mb / fileMb, 2),
        peer_peak_rss_mb: peer?.peakRssMb !== undefined && peer.peakRssMb !== null ? round(peer.peakRssMb) : null,
        peer_fields: LL_FIELDS,
        peer_runs: 1,
        node: process.version,
      },
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }

  if (!existsSync(CAPTURES)) {
    console.log(`no real captures at ${CAPTURES}: skipping their rows`);
    return rows;
  }
  const files = readdirSync(CAPTURES)
    .filter((name) => name !== 'SOURCES.md')
    .sort();
  const timing = runChild(REAL_RUNS, files.map((name) => join(CAPTURES, name)));
  for (const name of files) {
    const file = join(CAPTURES, name);
    const ours = timing.results[file];
    const oursMs = median(ours.runs_ms);
    const extra = name.startsWith('crackle_pairing') ? USER_DLT_OPTION : [];
    const peer = tshark ? runTshark(file, isHciLog(name) ? HCI_FIELDS : LL_FIELDS, extra) : null;
    rows.push({
      name: `ble_import_${name}`,
      ours_ms: round(oursMs, 2),
      peer: tshark ? `${tshark} -T fields` : 'tshark (absent)',
      peer_ms: peer ? round(peer.ms) : null,
      ratio: peer ? round(peer.ms / oursMs, 2) : null,
      peak_rss_mb: round(timing.peak_rss_mb),
      params: {
        file_bytes: statSync(file).size,
        packets: ours.packets,
        rows: ours.rows,
        advertisers: ours.advertisers,
        ours_runs_ms: ours.runs_ms.map((value) => round(value, 2)),
        packets_per_s: Math.round(ours.packets / (oursMs / 1000)),
        peer_peak_rss_mb: peer?.peakRssMb !== undefined && peer.peakRssMb !== null ? round(peer.peakRssMb) : null,
        note: 'tshark time includes its start-up (about 0.2–0.3 s), which dominates on small files',
      },
    });
  }
  return rows;
}
