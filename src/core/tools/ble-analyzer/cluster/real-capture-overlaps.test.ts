/**
 * Contradictions never shown as links (issue 22), on a real capture: in mabip_btsnoop_hci (an
 * Android HCI log, ../shared/captures/ble) a chain runs from an Apple payload to a Microsoft one
 * through addresses that overlap by 0.6–0.7 s, and its rationale once said that no two members
 * were active at once. Every cluster's co_occurrence line must agree with its members' times.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importBleCapture } from '../../../data/ble/ble-importer.ts';
import { analyzeBle } from '../analyze.ts';
import { bleAnalysisOptions, selectAllRows } from '../shared/test-support.ts';
import { OVERLAP_TOLERANCE_S } from '../handoff/handoff-model.ts';

const CAPTURES = fileURLToPath(new URL('../../../../../../shared/captures/ble/', import.meta.url));

describe('the co_occurrence rationale on the real mabip capture', () => {
  it('states the overlaps of a chain\'s hand-offs and their tolerance, never "no two members active at the same time" over an overlap', () => {
    const name = 'mabip_btsnoop_hci.log';
    const imported = importBleCapture(readFileSync(CAPTURES + name), { captureId: 'real', fileName: name });
    if (!imported.ok) throw new Error(imported.error.message);
    // The window under which the Apple → Microsoft chain forms (a 15-minute linkage window).
    const analysis = analyzeBle(selectAllRows('real', imported.value.table), bleAnalysisOptions({ minObservationCount: 1, linkageWindowS: 900 }));
    const seen = new Map(analysis.classification.map((item) => [item.address, item]));
    let overlapping = 0;
    for (const cluster of analysis.clusters) {
      const line = cluster.rationale.find((text) => text.startsWith('co_occurrence: '));
      let largest = 0;
      for (const chain of cluster.chains ?? [cluster.addresses]) {
        for (let index = 1; index < chain.length; index++) largest = Math.max(largest, (seen.get(chain[index - 1])!.lastSeenMs - seen.get(chain[index])!.firstSeenMs) / 1000);
      }
      if (largest <= 0 || !line) continue;
      overlapping++;
      expect(line).not.toContain('no two members active at the same time');
      expect(line).toContain(`${OVERLAP_TOLERANCE_S.toFixed(1)} s tolerance`);
      expect(line).toContain(largest > OVERLAP_TOLERANCE_S ? 'beyond the' : 'within the');
    }
    expect(overlapping).toBeGreaterThan(0);
    // The chain of the report, 5C:48:9B:B3:05:74 (Apple) → 5E:F8:03:21:2C:FA (Microsoft) with
    // 0.7 s of overlap, no longer forms: since the capture's tags (two Find My-style, one
    // SmartTag-style) are linked by the trackers stage and left out of the general hand-off
    // candidates, 5E:F8's predecessor is 53:F6:45:C0:D7:E2, whose payload has its template.
    const apple = analysis.clusters.find((cluster) => cluster.addresses.includes('5C:48:9B:B3:05:74'));
    expect(apple?.addresses ?? []).not.toContain('5E:F8:03:21:2C:FA');
    const microsoft = analysis.clusters.find((cluster) => cluster.addresses.includes('5E:F8:03:21:2C:FA'));
    expect(microsoft?.chains?.some((chain) => chain.indexOf('53:F6:45:C0:D7:E2') === chain.indexOf('5E:F8:03:21:2C:FA') - 1)).toBe(true);
  });
});
