/**
 * The analyzer on every real capture in ../shared/captures/ble/: address parsing and
 * classification agree with what Wireshark says about each advertiser's TxAdd / HCI type
 * (the fixture recorded by bench/tshark-expected.ts), and CRC-bad phantoms do not turn into
 * hundreds of devices.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import expected from '../../data/ble/__fixtures__/tshark-expected.json';
import { importBleCapture } from '../../data/ble/ble-importer.ts';
import type { AddressType } from './shared/analysis-types.ts';
import { classifyRandomBits } from './classify/address-bits.ts';
import { parseBleAddress } from './shared/ah.ts';
import { analyzeBle } from './analyze.ts';
import { bleAnalysisOptions, selectAllRows } from './shared/test-support.ts';

const CAPTURES = fileURLToPath(new URL('../../../../../shared/captures/ble/', import.meta.url));
const options = bleAnalysisOptions({ minObservationCount: 1 });

interface AddressList {
  list?: string[];
}
const fixtures = expected.captures as Record<string, { advertisers: AddressList; crc?: { advertisers_crc_ok_on_verified_frames: AddressList } }>;

function load(name: string) {
  const result = importBleCapture(readFileSync(CAPTURES + name), { captureId: 'real', fileName: name });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return selectAllRows('real', result.value.table);
}

/** The class an advertiser must get from its fixture type: 0 public, 1 random (bits), 2/3 identities. */
function expectedType(address: string, type: string): AddressType {
  if (type === '0' || type === '2') return 'public';
  if (type === '3') return 'random_static';
  return classifyRandomBits(parseBleAddress(address)!).type;
}

const names = readdirSync(CAPTURES).filter((name) => !name.endsWith('.md')).sort();

describe('the analyzer on the real captures', () => {
  it('finds every capture', () => {
    expect(names.length).toBeGreaterThanOrEqual(18);
  });

  for (const name of names) {
    it(name, () => {
      const selection = load(name);
      const analysis = analyzeBle(selection, options);
      const byAddress = new Map(analysis.classification.map((item) => [item.address, item]));
      for (const item of analysis.classification) {
        expect(item.address).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
        expect(item.confidence).toBeGreaterThanOrEqual(0);
        expect(item.confidence).toBeLessThanOrEqual(1);
        expect(item.evidence.length).toBeGreaterThan(0);
      }
      const fixture = fixtures[name];
      const list = fixture?.crc?.advertisers_crc_ok_on_verified_frames.list ?? fixture?.advertisers.list;
      if (!list) return;
      if (analysis.observations === 0) {
        // auracast: no CRC-good packet at all, and no CRC-good advertiser in the fixture either.
        expect(list).toEqual([]);
        return;
      }
      const types = new Map<string, Set<string>>();
      for (const entry of list) {
        const [address, type] = entry.split('/');
        types.set(address, (types.get(address) ?? new Set()).add(type));
      }
      let checked = 0;
      for (const [address, set] of types) {
        if (set.size !== 1) continue;
        const item = byAddress.get(address);
        // Folded bit-flip copies (CRC unverified frames) are the only advertisers allowed to be missing.
        if (!item) continue;
        expect([address, item.type]).toEqual([address, expectedType(address, [...set][0])]);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    });
  }

  it('tesi (955 AdvA, 38 CRC-good): CRC-bad phantoms are not reported as devices', () => {
    const selection = load('tesi-ble_nrf_capture.pcapng');
    const strict = analyzeBle(selection, { ...options, minObservationCount: 5 });
    expect(strict.warnings.find((warning) => warning.code === 'CRC_BAD_EXCLUDED')?.message).toMatch(/^[\d,]+ of [\d,]+ selected packets failed their CRC/);
    expect(strict.classification.length).toBeLessThan(60);
    const lenient = analyzeBle(selection, { ...options, minObservationCount: 5, includeCrcBad: true });
    expect(lenient.classification.length).toBeLessThan(80);
    expect(lenient.classification.filter((item) => item.type !== 'unknown').length).toBeLessThan(60);
    expect(lenient.foldedAddresses).toBeGreaterThan(500);
  });

  it('auracast (no CRC-good packet): nothing to analyse by default, no flood of devices when asked', () => {
    const selection = load('auracast-afit_trial1_filtered.pcapng');
    expect(analyzeBle(selection, options).observations).toBe(0);
    const lenient = analyzeBle(selection, { ...options, minObservationCount: 5, includeCrcBad: true });
    expect(lenient.classification.filter((item) => item.type !== 'unknown').length).toBeLessThan(100);
    expect(lenient.classification.length).toBeLessThan(100);
  });

  it('resolves nothing in a real capture under a key that belongs to none of its devices', () => {
    const analysis = analyzeBle(load('ec521_btsnoop_hci.log'), {
      ...options,
      irks: [{ label: 'spec-sample', irk: Uint8Array.from([0xec, 0x02, 0x34, 0xa3, 0x57, 0xc8, 0xad, 0x05, 0x34, 0x10, 0x10, 0xa6, 0x0a, 0x39, 0x7d, 0x9b]) }],
    });
    expect(analysis.classification.some((item) => item.evidence.some((line) => line.includes("IRK 'spec-sample'")))).toBe(false);
  });
});
