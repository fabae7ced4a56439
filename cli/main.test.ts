import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { invalidPlanExample, invalidPlanExpectedResult, regressionExampleInvocation } from '../src/core/index.ts';
import { defaultCaptureId } from './capture-files.ts';
import { main, type Io } from './main.ts';

async function run(argv: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => stdin };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function tempFile(name: string, content: string | Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sextant-cli-'));
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

// A minute: the deadline includes starting the tool thread, which a starved CPU stretches (issue 27).
const echo = (args: Record<string, unknown>, timeout_ms = 60_000) => ({
  tool_name: 'test_echo',
  tool_version: '1.0.0',
  capture_selection: { capture_id: 'cap_2026_03_14_a' },
  arguments: args,
  request_id: `req-${Math.random()}`,
  timeout_ms,
});

describe('sextant invoke', () => {
  it('runs the regression example from stdin and exits 0', async () => {
    const { code, stdout, stderr } = await run(['invoke', '-'], JSON.stringify(regressionExampleInvocation));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.status).toBe('ok');
    expect(result.structured_output.coefficients).toHaveProperty('packet_loss');
  });

  it('prints the specified validation response for the invalid plan and exits 5', async () => {
    const path = await tempFile('plan.json', JSON.stringify(invalidPlanExample));
    const { code, stdout } = await run(['invoke', path]);
    expect(code).toBe(5);
    expect(JSON.parse(stdout)).toEqual([invalidPlanExpectedResult]);
  });

  it('stops a tool that overruns its timeout and keeps working after it', async () => {
    const plan = [echo({ sleep_ms: 60_000 }, 1000), echo({ text: 'still here' })];
    const started = Date.now();
    const { code, stdout } = await run(['invoke', '-', '--enable-test-tools'], JSON.stringify(plan));
    // Not waited out: the busy-wait alone takes 60 s on any machine (a fixed bound below a few
    // seconds failed on a busy one, where the CLI's start-up alone stretched that far; issue 27).
    expect(Date.now() - started).toBeLessThan(60_000);
    const [stopped, next] = JSON.parse(stdout);
    expect(stopped.errors).toEqual([expect.objectContaining({ code: 'TIMEOUT', field: 'timeout_ms' })]);
    expect(next).toMatchObject({ status: 'ok', summary: 'still here' });
    expect(code).toBe(1);
  });

  it('answers text that is not JSON with INVALID_INVOCATION and exit 5', async () => {
    const { code, stdout } = await run(['invoke', '-'], '{"tool_name": ');
    expect(code).toBe(5);
    expect(JSON.parse(stdout).errors[0].code).toBe('INVALID_INVOCATION');
  });

  it('exits 4 on an unreadable file or bad arguments, with a message on stderr only', async () => {
    const missing = await run(['invoke', '/nonexistent/plan.json']);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('ENOENT');
    expect((await run(['frobnicate'])).code).toBe(4);
    expect((await run(['invoke', '-', '--capture', 'no-equals-sign'])).code).toBe(4);
  });

  /** A CSV capture of 50 rows 10 ms apart on channels a and b (time column `t`), and a regression invocation of y on x with `captureSelection`. */
  async function labCsv(name: string, captureSelection: Record<string, unknown>, requestId: string) {
    const rows = ['t,channel,y,x'];
    for (let index = 0; index < 50; index++) rows.push(`${index * 10},${index % 2 ? 'a' : 'b'},${3 + 2 * index + (index % 3)},${index}`);
    const path = await tempFile(name, rows.join('\n'));
    const invocation = {
      tool_name: 'statistical_regression_tool',
      tool_version: '1.2.0',
      capture_selection: captureSelection,
      arguments: { operation: 'linear_regression', target: 'y', features: ['x'] },
      request_id: requestId,
      timeout_ms: 60_000,
    };
    return { path, invocation };
  }

  it('reads a CSV capture given with --capture', async () => {
    const { path, invocation } = await labCsv('lab.csv', { capture_id: 'lab', selectors: { channels: ['a'] } }, 'req-csv');
    const { code, stdout } = await run(['invoke', '-', '--capture', `lab=${path}`, '--time-column', 't'], JSON.stringify(invocation));
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.structured_output.sample_count).toBe(25);
    const listed = JSON.parse((await run(['captures', '--capture', `lab=${path}`, '--time-column', 't'])).stdout);
    expect(listed.find((capture: { id: string }) => capture.id === 'lab')).toMatchObject({ rows: 50, bounds: { start_ms: 0, end_ms: 490 }, channels: ['a', 'b'] });
  });

  it('says so on stderr when a --capture file takes a built-in capture id', async () => {
    const { path, invocation } = await labCsv('mine.csv', { capture_id: 'cap_2026_03_14_a' }, 'req-shadow');
    const { code, stdout, stderr } = await run(['invoke', '-', '--capture', `cap_2026_03_14_a=${path}`, '--time-column', 't'], JSON.stringify(invocation));
    expect(code).toBe(0);
    expect(stderr).toBe(`sextant: invoke: capture cap_2026_03_14_a (${path}) replaces the built-in capture of that id\n`);
    // The file's rows were analysed, not the built-in capture's.
    expect(JSON.parse(stdout).structured_output.sample_count).toBe(50);
  });
});

describe('sextant captures and manifests', () => {
  it('lists the built-in captures with their bounds and channels', async () => {
    const { code, stdout } = await run(['captures']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ id: 'cap_2026_03_14_a', rows: 120_001, bounds: { start_ms: 0, end_ms: 120_000 }, channels: ['ch1', 'ch2', 'ch3', 'ch4'] }),
      expect.objectContaining({ id: 'lab_floor_2026_04_03_a', bounds: { start_ms: 1_712_131_200_000, end_ms: expect.any(Number) as number } }),
      expect.objectContaining({ id: 'lab_floor_2026_04_03_b', bounds: { start_ms: 1_712_131_200_000, end_ms: expect.any(Number) as number } }),
    ]);
  });

  it('lists installed manifests', async () => {
    const { stdout } = await run(['manifests']);
    expect(JSON.parse(stdout)).toEqual([
      { name: 'bluetooth_address_analyzer', version: '1.2.0', capabilities: ['classification', 'linkage', 'both'] },
      { name: 'statistical_regression_tool', version: '1.2.0', capabilities: ['linear_regression', 'summary_stats', 'anova', 'correlation'] },
    ]);
  });
});

/** A classic pcap (LINKTYPE_NORDIC_BLE) holding one real nRF Sniffer frame: ADV_NONCONN_IND from 1E:BF:2D:60:14:65, channel 39. */
function nordicPcap(linkType = 272): Uint8Array {
  const frame = [
    '00 38 00 03 ff 3b 02 0a 01 27 16 00 00 62 80 fe',
    '0b d6 be 89 8e 42 25 65 14 60 2d bf 1e 1e ff 06',
    '00 01 09 20 22 fb 1b 6c 29 d3 bd 59 07 07 3e cc',
    '19 2e c4 ac d2 a6 71 5b fa c4 e1 76 91 c5 d8',
  ]
    .join(' ')
    .replace(/ /g, '');
  const bytes = Uint8Array.from(frame.match(/../g)!.map((pair) => parseInt(pair, 16)));
  const header = new DataView(new ArrayBuffer(24 + 16));
  header.setUint32(0, 0xa1b2c3d4, true);
  header.setUint16(4, 2, true);
  header.setUint16(6, 4, true);
  header.setUint32(16, 65535, true);
  header.setUint32(20, linkType, true);
  header.setUint32(24, 1_755_939_535, true);
  header.setUint32(28, 722_407, true);
  header.setUint32(32, bytes.length, true);
  header.setUint32(36, bytes.length, true);
  const file = new Uint8Array(40 + bytes.length);
  file.set(new Uint8Array(header.buffer));
  file.set(bytes, 40);
  return file;
}

const REAL_CAPTURES = fileURLToPath(new URL('../../shared/captures/ble/', import.meta.url));

describe('sextant import', () => {
  it('prints the JSON import report on stdout and nothing else', async () => {
    const path = await tempFile('nrf.pcap', nordicPcap());
    const { code, stdout, stderr } = await run(['import', path]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      capture_id: 'nrf',
      rows: 1,
      bounds: { start_ms: 1_755_939_535_722, end_ms: 1_755_939_535_723 },
      link_types: [272],
      packets: 1,
      advertising_packets: 1,
      advertising_packets_crc_ok: 1,
      advertisers: 1,
      advertisers_crc_ok: 1,
      adv_type_counts: { ADV_NONCONN_IND: 1 },
      skipped: {},
    });
  });

  it('writes the normalized Arrow file with --out, which --capture then reads', async () => {
    const path = await tempFile('nrf.pcap', nordicPcap());
    const out = join(await mkdtemp(join(tmpdir(), 'sextant-cli-')), 'nrf.arrow');
    const { code } = await run(['import', path, '--id', 'site_a', '--out', out]);
    expect(code).toBe(0);
    const table = tableFromIPC(await readFile(out));
    expect(table.numRows).toBe(1);
    expect(table.getChild('advertiser_addr')!.get(0)).toBe('1E:BF:2D:60:14:65');
    expect(table.getChild('capture_id')!.get(0)).toBe('site_a');
    expect(table.getChild('channel')!.get(0)).toBe(39);
    expect(table.getChild('crc_ok')!.get(0)).toBe(true);
    const listed = JSON.parse((await run(['captures', '--capture', `site_a=${out}`])).stdout);
    expect(listed.find((capture: { id: string }) => capture.id === 'site_a')).toMatchObject({ rows: 1, channels: ['39'], time_column: 'ts_ms', time_origin: null });
  });

  it('derives the default id from the file name', () => {
    expect(defaultCaptureId('/data/btsnoop_hci.log')).toBe('btsnoop_hci');
    expect(defaultCaptureId('my capture (1).pcapng')).toBe('my_capture_1');
    expect(defaultCaptureId('.pcap')).toBe('capture');
  });

  it('exits 4 with a message on stderr for unreadable or invalid files', async () => {
    const missing = await run(['import', '/nonexistent/capture.pcap']);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    const garbage = await run(['import', await tempFile('garbage.bin', Uint8Array.from([0, 1, 2, 3, 0xff, 0xfe, 0, 7]))]);
    expect(garbage.code).toBe(4);
    expect(garbage.stdout).toBe('');
    expect(garbage.stderr).toContain('UNSUPPORTED_FORMAT');
    const ethernet = await run(['import', await tempFile('ethernet.pcap', nordicPcap(1))]);
    expect(ethernet.code).toBe(4);
    expect(ethernet.stderr).toContain('DLT 1');
    expect(ethernet.stderr).toContain('UNSUPPORTED_LINK_TYPE');
    const truncated = await run(['import', await tempFile('short.pcap', nordicPcap().subarray(0, 10))]);
    expect(truncated.code).toBe(4);
    expect(truncated.stderr).toContain('TRUNCATED_HEADER');
    const empty = await run(['import', await tempFile('empty.pcap', new Uint8Array(0))]);
    expect(empty.code).toBe(4);
    expect((await run(['import'])).code).toBe(4);
  });

  it('reports Arrow and CSV files too', async () => {
    const path = await tempFile('lab.csv', 't,channel,y\n0,a,1\n10,b,2\n');
    const { code, stdout } = await run(['import', path, '--time-column', 't']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ capture_id: 'lab', format: 'csv', rows: 2, bounds: { start_ms: 0, end_ms: 10 } });
  });

  it('--capture accepts BLE captures', async () => {
    const path = await tempFile('nrf.pcap', nordicPcap());
    const { code, stdout } = await run(['captures', '--capture', `nrf=${path}`]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).find((capture: { id: string }) => capture.id === 'nrf')).toMatchObject({ rows: 1, bounds_source: 'declared' });
  });

  it.skipIf(!existsSync(REAL_CAPTURES))('imports a real Sniffle capture and a real Android HCI log', async () => {
    const sniffle = JSON.parse((await run(['import', join(REAL_CAPTURES, 'whad-client_sniffle_capture.pcap')])).stdout);
    expect(sniffle).toMatchObject({ capture_id: 'whad-client_sniffle_capture', packets: 22, advertising_packets: 22, advertisers: 3, link_types: [256] });
    const android = JSON.parse((await run(['import', join(REAL_CAPTURES, 'horizon74_btsnoop_hci.log')])).stdout);
    expect(android).toMatchObject({ packets: 2572, advertising_packets: 412, advertisers: 36, link_types: [201], btsnoop_datalink: 1002 });
  });

  it.skipIf(!existsSync(REAL_CAPTURES))('lists the identity keys of the three HCI logs that carry them, MSB first', async () => {
    const keys = async (name: string) => JSON.parse((await run(['import', join(REAL_CAPTURES, name)])).stdout).identity_keys;
    expect(await keys('ec521_btsnoop_hci.log')).toEqual([
      { irk: '267483cba09b720412251bd6638d40b7', source: 'smp_identity_information', frame_number: 14174, identity_address: '8C:1A:BF:39:FB:FD', identity_address_type: 'public' },
      { irk: '267483cba09b720412251bd6638d40b7', source: 'resolving_list_local', frame_number: 14186 },
    ]);
    expect(await keys('mabip_btsnoop_hci.log')).toEqual([
      { irk: 'c7fceac1cd0799aef2aa020d6f2f8208', source: 'resolving_list_peer', frame_number: 95, identity_address: 'BC:B8:63:89:86:8B', identity_address_type: 'public' },
      { irk: '56f128ea744b2394f11daae178ea5e5e', source: 'resolving_list_local', frame_number: 95 },
    ]);
    expect(await keys('btsnooper_btsnoop_hci.log')).toEqual([
      { irk: '0123456789abcdef0123456789abcdef', source: 'resolving_list_peer', frame_number: 79, identity_address: 'CB:76:B8:B2:65:6E', identity_address_type: 'public' },
      { irk: 'a49ae4b68dbe0abb413aeb45e3f31637', source: 'resolving_list_local', frame_number: 79 },
    ]);
    expect(await keys('horizon74_btsnoop_hci.log')).toEqual([]);
  });
});
