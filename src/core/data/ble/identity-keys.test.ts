/**
 * Identity resolving keys found while importing: every real capture (HCI logs and sniffer captures) against what Wireshark decodes
 * (tshark output recorded in __fixtures__/tshark-identity-keys.json by
 * bench/tshark-identity-keys.ts), and hand-built packets for fragmentation, direction pairing
 * and corrupted key packets.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import expected from './__fixtures__/tshark-identity-keys.json';
import { address, btsnoopFile, hciAcl, hciCommand, pcapFile, withPhdr } from './__fixtures__/capture-builders.ts';
import { BLE_METADATA, createBleImporter, importBleCapture } from './ble-importer.ts';
import type { IdentityKey } from './identity-keys.ts';
import type { ImportReport } from './import-report.ts';
import { parseIrk, resolvesUnder } from '../../tools/ble-analyzer/shared/ah.ts';

const CAPTURES = fileURLToPath(new URL('../../../../../shared/captures/ble/', import.meta.url));

/** What the importer should report for tshark's lines: IRKs reversed to MSB first, zero keys dropped. */
function keysFromTshark(lines: ReadonlyArray<string>): IdentityKey[] {
  const keys: IdentityKey[] = [];
  let pending: IdentityKey | null = null;
  const msbFirst = (wire: string) => (wire.match(/../g) ?? []).reverse().join('');
  const isZero = (hex: string) => /^0+$/.test(hex);
  for (const line of lines) {
    const [frame, smpOpcode, smpIrk, smpAddressType, smpAddress, command, peerType, peerAddress, peerIrk, localIrk] = line.split(';');
    const frame_number = Number(frame);
    if (smpOpcode === '0x08') {
      pending = isZero(smpIrk) ? null : { irk: msbFirst(smpIrk), source: 'smp_identity_information', frame_number };
      if (pending) keys.push(pending);
    } else if (smpOpcode === '0x09') {
      if (pending && Number(smpAddressType) <= 1) {
        pending.identity_address = smpAddress.toUpperCase();
        pending.identity_address_type = Number(smpAddressType) === 0 ? 'public' : 'random';
      }
      pending = null;
    } else if (command === '0x2027') {
      if (!isZero(peerIrk)) {
        keys.push({
          irk: msbFirst(peerIrk),
          source: 'resolving_list_peer',
          frame_number,
          identity_address: peerAddress.toUpperCase(),
          identity_address_type: Number(peerType) === 0 ? 'public' : 'random',
        });
      }
      if (!isZero(localIrk)) keys.push({ irk: msbFirst(localIrk), source: 'resolving_list_local', frame_number });
    }
  }
  return keys;
}

function importFile(bytes: Uint8Array, name = 'btsnoop_hci.log'): ImportReport {
  const result = importBleCapture(bytes, { captureId: 'cap', fileName: name });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value.report;
}

describe.skipIf(!existsSync(CAPTURES))('identity keys in every real capture agree with Wireshark (HCI logs and sniffer captures)', () => {
  const captures = expected.captures as Record<string, { sha256: string; lines: string[] }>;

  it('the fixture covers the three logs with keys', () => {
    for (const name of ['ec521_btsnoop_hci.log', 'mabip_btsnoop_hci.log', 'btsnooper_btsnoop_hci.log']) expect(captures[name].lines.length).toBeGreaterThan(0);
  });

  for (const [name, wanted] of Object.entries(captures)) {
    it(name, () => {
      const bytes = readFileSync(CAPTURES + name);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(wanted.sha256);
      const importer = createBleImporter({ captureId: 'real', fileName: name });
      for (let at = 0; at < bytes.length; at += 65_536) importer.push(bytes.subarray(at, at + 65_536));
      const result = importer.finish();
      if (!result.ok) throw new Error(result.error.message);
      expect(result.value.report.identity_keys).toEqual(keysFromTshark(wanted.lines));
      expect(result.value.report.skipped).toEqual({});
    });
  }

  it('ec521: the phone IRK from SMP resolves its own RPA 74:3C:CF:60:32:BC (SOURCES.md)', () => {
    const report = importFile(readFileSync(CAPTURES + 'ec521_btsnoop_hci.log'));
    const smp = report.identity_keys.find((key) => key.source === 'smp_identity_information')!;
    expect(smp.irk).toBe('267483cba09b720412251bd6638d40b7');
    expect(resolvesUnder('74:3C:CF:60:32:BC', parseIrk(smp.irk)!)).toBe(true);
    // The same key reversed (Wireshark's printed order) does not.
    expect(resolvesUnder('74:3C:CF:60:32:BC', parseIrk('b7408d63d61b251204729ba0cb837426')!)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------
// Hand-built packets

const IRK = '0f0e0d0c0b0a09080706050403020100'; // MSB first
const IRK_WIRE = Array.from({ length: 16 }, (_, index) => index); // 00 01 … 0f, LSB first
const IRK2_WIRE = Array.from({ length: 16 }, (_, index) => 0xa0 + index);
const IRK2 = IRK2_WIRE.slice().reverse().map((value) => value.toString(16).padStart(2, '0')).join('');

/** H4 ACL packet: handle with packet-boundary flag, then the data. */
function acl(handle: number, boundary: number, data: ReadonlyArray<number>): number[] {
  const flags = handle | (boundary << 12);
  return [0x02, flags & 0xff, flags >> 8, data.length & 0xff, data.length >> 8, ...data];
}

/** An L2CAP basic frame on the SMP channel. */
function smpFrame(pdu: ReadonlyArray<number>, declaredLength = pdu.length): number[] {
  return [declaredLength & 0xff, declaredLength >> 8, 0x06, 0x00, ...pdu];
}

const identityInformation = (irk: ReadonlyArray<number>) => [0x08, ...irk];
const identityAddressInformation = (type: number, text: string) => [0x09, type, ...address(text)];

function resolvingListCommand(peerType: number, peer: string, peerIrk: ReadonlyArray<number>, localIrk: ReadonlyArray<number>): number[] {
  const parameters = [peerType, ...address(peer), ...peerIrk, ...localIrk];
  return [0x01, 0x27, 0x20, parameters.length, ...parameters];
}

/** btsnoop H4 records; `sent` sets flags bit 0 clear (host → controller). */
function snoop(packets: ReadonlyArray<{ bytes: number[]; received: boolean; command?: boolean }>): Uint8Array {
  return btsnoopFile({
    datalink: 1002,
    records: packets.map((packet, index) => ({
      epochUs: 1_700_000_000_000_000n + BigInt(index),
      flags: (packet.received ? 1 : 0) | (packet.command ? 2 : 0),
      bytes: packet.bytes,
    })),
  });
}

describe('identity keys from hand-built HCI traffic', () => {
  it('SMP Identity Information paired with the Identity Address Information that follows it, MSB first', () => {
    const report = importFile(
      snoop([
        { bytes: acl(0x0040, 0b10, smpFrame(identityInformation(IRK_WIRE))), received: true },
        { bytes: acl(0x0040, 0b10, smpFrame(identityAddressInformation(1, 'C4:11:22:33:44:55'))), received: true },
      ]),
    );
    expect(report.identity_keys).toEqual([
      { irk: IRK, source: 'smp_identity_information', frame_number: 1, identity_address: 'C4:11:22:33:44:55', identity_address_type: 'random' },
    ]);
    expect(report.skipped).toEqual({});
  });

  it('keeps the two sides of a key exchange apart by direction', () => {
    const report = importFile(
      snoop([
        { bytes: acl(0x0040, 0b10, smpFrame(identityInformation(IRK_WIRE))), received: true },
        { bytes: acl(0x0040, 0b00, smpFrame(identityInformation(IRK2_WIRE))), received: false },
        { bytes: acl(0x0040, 0b00, smpFrame(identityAddressInformation(0, '00:1B:DC:00:00:02'))), received: false },
        { bytes: acl(0x0040, 0b10, smpFrame(identityAddressInformation(0, '00:1B:DC:00:00:01'))), received: true },
      ]),
    );
    expect(report.identity_keys.map((key) => [key.irk, key.frame_number, key.identity_address])).toEqual([
      [IRK, 1, '00:1B:DC:00:00:01'],
      [IRK2, 2, '00:1B:DC:00:00:02'],
    ]);
  });

  it('reassembles an SMP PDU split over ACL fragments (frame of the last fragment)', () => {
    const whole = smpFrame(identityInformation(IRK_WIRE));
    const report = importFile(
      snoop([
        { bytes: acl(0x0041, 0b10, whole.slice(0, 10)), received: true },
        { bytes: acl(0x0041, 0b01, whole.slice(10)), received: true },
      ]),
    );
    expect(report.identity_keys).toEqual([{ irk: IRK, source: 'smp_identity_information', frame_number: 2 }]);
  });

  it('LE Add Device To Resolving List: peer and local IRKs; an all-zero IRK is no key', () => {
    const report = importFile(
      snoop([
        { bytes: resolvingListCommand(0, 'BC:B8:63:89:86:8B', IRK_WIRE, IRK2_WIRE), received: false, command: true },
        { bytes: resolvingListCommand(1, 'CE:5D:95:7B:30:53', new Array(16).fill(0), IRK2_WIRE), received: false, command: true },
        { bytes: resolvingListCommand(0, 'BC:B8:63:89:86:8C', IRK_WIRE, new Array(16).fill(0)), received: false, command: true },
      ]),
    );
    expect(report.identity_keys).toEqual([
      { irk: IRK, source: 'resolving_list_peer', frame_number: 1, identity_address: 'BC:B8:63:89:86:8B', identity_address_type: 'public' },
      { irk: IRK2, source: 'resolving_list_local', frame_number: 1 },
      { irk: IRK2, source: 'resolving_list_local', frame_number: 2 },
      { irk: IRK, source: 'resolving_list_peer', frame_number: 3, identity_address: 'BC:B8:63:89:86:8C', identity_address_type: 'public' },
    ]);
    expect(report.skipped).toEqual({});
  });

  it('the same keys through btsnoop H1 and pcap H4 (LINKTYPE 187, no direction)', () => {
    const h1 = btsnoopFile({
      datalink: 1001,
      records: [
        { epochUs: 1n, flags: 2, bytes: resolvingListCommand(0, 'BC:B8:63:89:86:8B', IRK_WIRE, IRK2_WIRE).slice(1) },
        { epochUs: 2n, flags: 1, bytes: acl(0x0040, 0b10, smpFrame(identityInformation(IRK_WIRE))).slice(1) },
      ],
    });
    expect(importFile(h1).identity_keys.map((key) => key.source)).toEqual(['resolving_list_peer', 'resolving_list_local', 'smp_identity_information']);
    const pcap = pcapFile({
      linkType: 187,
      packets: [
        { seconds: 1, fraction: 0, bytes: acl(0x0040, 0b10, smpFrame(identityInformation(IRK_WIRE))) },
        { seconds: 2, fraction: 0, bytes: acl(0x0040, 0b10, smpFrame(identityAddressInformation(0, '00:1B:DC:00:00:01'))) },
      ],
    });
    expect(importFile(pcap, 'h4.pcap').identity_keys).toEqual([
      { irk: IRK, source: 'smp_identity_information', frame_number: 1, identity_address: '00:1B:DC:00:00:01', identity_address_type: 'public' },
    ]);
  });

  it('corrupted or short key packets are skipped and counted, never a crash', () => {
    const report = importFile(
      snoop([
        // L2CAP length 17 but only 9 bytes of SMP before the next start fragment.
        { bytes: acl(0x0040, 0b10, smpFrame(identityInformation(IRK_WIRE.slice(0, 8)), 17)), received: true },
        // An SMP Identity Information whose L2CAP length cuts the key short.
        { bytes: acl(0x0040, 0b10, smpFrame(identityInformation(IRK_WIRE.slice(0, 4)))), received: true },
        // An Identity Address Information without its address.
        { bytes: acl(0x0040, 0b10, smpFrame([0x09, 0x00, 0x01])), received: true },
        // An impossible SMP length.
        { bytes: acl(0x0040, 0b10, smpFrame(identityInformation(IRK_WIRE), 300)), received: true },
        // A resolving-list command cut short.
        { bytes: resolvingListCommand(0, 'BC:B8:63:89:86:8B', IRK_WIRE, IRK2_WIRE).slice(0, 20), received: false, command: true },
        // Unrelated traffic still counts as before.
        { bytes: Array.from(hciCommand()), received: false, command: true },
        { bytes: Array.from(hciAcl()), received: true },
        // A good key after all that, and a fragment left open at the end of the file.
        { bytes: acl(0x0042, 0b10, smpFrame(identityInformation(IRK2_WIRE))), received: true },
        { bytes: acl(0x0043, 0b10, smpFrame(identityInformation(IRK_WIRE)).slice(0, 12)), received: true },
      ]),
    );
    expect(report.identity_keys).toEqual([{ irk: IRK2, source: 'smp_identity_information', frame_number: 8 }]);
    expect(report.skipped).toEqual({
      bad_smp_length: 1,
      short_smp_identity_address_information: 1,
      short_smp_identity_information: 1,
      truncated_resolving_list_command: 1,
      truncated_smp_key_packet: 2,
    });
    expect(report.partial).toBe(true);
    expect(report.non_advertising).toEqual({ hci_acl_data: 7, hci_command: 2 });
  });

  it('the table metadata copy of the report says where keys are, never what they are', () => {
    const file = snoop([{ bytes: resolvingListCommand(0, 'BC:B8:63:89:86:8B', IRK_WIRE, IRK2_WIRE), received: false, command: true }]);
    const result = importBleCapture(file, { captureId: 'cap', fileName: 'k.log' });
    if (!result.ok) throw new Error(result.error.message);
    const metadata = result.value.table.schema.metadata.get(BLE_METADATA.importReport)!;
    expect(metadata).not.toContain(IRK);
    expect(metadata).not.toContain(IRK2);
    expect((JSON.parse(metadata) as { identity_keys: unknown[] }).identity_keys).toEqual([
      { source: 'resolving_list_peer', frame_number: 1, identity_address: 'BC:B8:63:89:86:8B', identity_address_type: 'public' },
      { source: 'resolving_list_local', frame_number: 1 },
    ]);
  });

  it('link-layer data PDUs (a decrypted sniffer capture): plaintext SMP keys, once per retransmission; ciphertext and CRC-bad PDUs are not read', () => {
    const AA = [0x12, 0x34, 0x56, 0x78];
    const CRC = [0xaa, 0xbb, 0xcc];
    /** `[AA][header: LLID, length][payload][CRC]`, LINKTYPE 251. */
    const dataPdu = (llid: number, payload: ReadonlyArray<number>) => [...AA, llid, payload.length, ...payload, ...CRC];
    const keyPdu = smpFrame(identityInformation(IRK_WIRE));
    const packets = [
      dataPdu(0b10, keyPdu),
      dataPdu(0b10, keyPdu), // retransmitted
      dataPdu(0b10, smpFrame(identityAddressInformation(1, 'D0:01:02:03:04:05'))),
      // Encrypted: 4 MIC octets after the L2CAP packet.
      dataPdu(0b10, [...smpFrame(identityInformation(IRK2_WIRE)), 1, 2, 3, 4]),
      // Split over a start and a continuation PDU.
      [...[0x9a, 0xbc, 0xde, 0xf0], 0b10, 8, ...smpFrame(identityInformation(IRK2_WIRE)).slice(0, 8), ...CRC],
      [...[0x9a, 0xbc, 0xde, 0xf0], 0b01, 13, ...smpFrame(identityInformation(IRK2_WIRE)).slice(8), ...CRC],
    ];
    const report = importFile(pcapFile({ linkType: 251, packets: packets.map((bytes, index) => ({ seconds: 1000 + index, fraction: 0, bytes })) }), 'll.pcap');
    expect(report.identity_keys).toEqual([
      { irk: IRK, source: 'smp_identity_information', frame_number: 1, identity_address: 'D0:01:02:03:04:05', identity_address_type: 'random' },
      { irk: IRK2, source: 'smp_identity_information', frame_number: 6 },
    ]);
    expect(report.non_advertising).toEqual({ data_channel: 6 });
    expect(report.skipped).toEqual({});

    // LINKTYPE 256 with the sniffer's CRC verdict: a CRC-bad PDU is not read.
    const withVerdict = (bytes: number[], good: boolean) => withPhdr(Uint8Array.from(bytes), { rfChannel: 5, flags: 0x0001 | 0x0400 | (good ? 0x0800 : 0) });
    const checked = importFile(
      pcapFile({
        linkType: 256,
        packets: [
          { seconds: 1, fraction: 0, bytes: withVerdict(dataPdu(0b10, smpFrame(identityInformation(IRK2_WIRE))), false) },
          { seconds: 2, fraction: 0, bytes: withVerdict(dataPdu(0b10, keyPdu), true) },
        ],
      }),
      'll256.pcap',
    );
    expect(checked.identity_keys.map((key) => [key.irk, key.frame_number])).toEqual([[IRK, 2]]);
  });
});
