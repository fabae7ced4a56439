import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { createBleImporter, importBleCapture } from './ble-importer.ts';

const CAPTURES = fileURLToPath(new URL('../../../../../shared/captures/ble/', import.meta.url));

/** Every row as plain values (dictionaries decoded), to compare tables cut differently. */
function rowsOf(tables: Table[]): unknown[] {
  return tables.flatMap((table) => table.toArray().map((row) => JSON.stringify(row)));
}

describe('draining an import as it goes (the dataset import streams this way)', () => {
  const cases = [
    { file: 'tesi-ble_nrf_capture.pcapng', dictionaryEntryLimit: undefined },
    { file: 'mabip_btsnoop_hci.log', dictionaryEntryLimit: undefined },
    { file: 'boston-hackrf_take3_ble_all_adv_w_scan.pcap', dictionaryEntryLimit: undefined },
    // Dictionaries forgotten at most drains: nothing a table or the report says may change.
    { file: 'tesi-ble_nrf_capture.pcapng', dictionaryEntryLimit: 200 },
    { file: 'mabip_amuza_t1_btsnoop_hci.log', dictionaryEntryLimit: 100 },
  ];
  for (const { file, dictionaryEntryLimit } of cases) {
    it(`gives the same rows and report as one table: ${file}${dictionaryEntryLimit ? `, dictionaries forgotten beyond ${dictionaryEntryLimit} values` : ''}`, () => {
      const bytes = new Uint8Array(readFileSync(`${CAPTURES}${file}`));
      const whole = importBleCapture(bytes, { captureId: 'c', fileName: file });
      if (!whole.ok) throw new Error(whole.error.message);

      const importer = createBleImporter({ captureId: 'c', fileName: file, ...(dictionaryEntryLimit ? { dictionaryEntryLimit } : {}) });
      const drained: Table[] = [];
      for (let offset = 0; offset < bytes.length; offset += 1_931) {
        importer.push(bytes.subarray(offset, offset + 1_931));
        if (importer.pendingRows >= 300) drained.push(importer.drain()!);
      }
      const finished = importer.finish();
      if (!finished.ok) throw new Error(finished.error.message);
      drained.push(finished.value.table);

      expect(drained.length).toBeGreaterThan(3);
      if (dictionaryEntryLimit) expect(importer.dictionaryResets).toBeGreaterThan(2);
      else expect(importer.dictionaryResets).toBe(0);
      expect(rowsOf(drained)).toEqual(rowsOf([whole.value.table]));
      expect(finished.value.report).toEqual(whole.value.report);
      // Each drained table's dictionaries hold only the values its rows use.
      const first = drained[0].getChild('advertiser_addr')!;
      const used = new Set(first.toArray());
      expect(first.data[0].dictionary!.length).toBeLessThanOrEqual(used.size + 1);
    });
  }

  it('drains nothing before any record, and nothing after a whole-file failure', () => {
    const importer = createBleImporter({ captureId: 'c', fileName: 'x.bin' });
    expect(importer.drain()).toBeNull();
    importer.push(new TextEncoder().encode('not a capture at all'));
    expect(importer.drain()).toBeNull();
    expect(importer.finish().ok).toBe(false);
  });
});
