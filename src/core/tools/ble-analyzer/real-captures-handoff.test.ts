/**
 * Hand-off linkage on the real captures in ../shared/captures/ble/: the contradictions issue 22
 * found there stay gone. Two addresses alive together for 5 s on one receiver were linked at
 * 0.56 (horizon74); hand-offs with 13–42 dB RSSI jumps were linked at 0.55–0.96 (mabip_amuza,
 * an Android log of intermittent scanning whose hand-offs mostly fell where nobody listened).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importBleCapture } from '../../data/ble/ble-importer.ts';
import { analyzeBle } from './analyze.ts';
import { OVERLAP_TOLERANCE_S } from './handoff/handoff-model.ts';
import { bleAnalysisOptions, selectAllRows } from './shared/test-support.ts';

const CAPTURES = fileURLToPath(new URL('../../../../../shared/captures/ble/', import.meta.url));
const options = bleAnalysisOptions({ minObservationCount: 1, includeCandidates: true });

function analyze(name: string) {
  const result = importBleCapture(readFileSync(CAPTURES + name), { captureId: 'real', fileName: name });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return analyzeBle(selectAllRows('real', result.value.table), options);
}

/** The RSSI jumps (dB) an rssi_continuity factor text quotes. */
function rssiJumps(factors: string[]): number[] {
  const rssi = factors.find((factor) => factor.startsWith('rssi_continuity'));
  return rssi ? [...rssi.matchAll(/Δ(\d+(?:\.\d+)?) dB/g)].map((match) => Number(match[1])) : [];
}

describe('hand-off linkage on the real captures', () => {
  for (const name of readdirSync(CAPTURES).filter((file) => !file.endsWith('.md')).sort()) {
    it(`${name}: no two members of a hand-off chain overlap beyond the ${OVERLAP_TOLERANCE_S} s tolerance`, () => {
      const analysis = analyze(name);
      const seen = new Map(analysis.classification.map((item) => [item.address, item]));
      for (const cluster of analysis.clusters) {
        for (const chain of cluster.chains ?? [cluster.addresses]) {
          for (let index = 1; index < chain.length; index++) {
            const earlier = seen.get(chain[index - 1])!;
            const later = seen.get(chain[index])!;
            expect(later.firstSeenMs - earlier.lastSeenMs, `${chain[index - 1]} → ${chain[index]}`).toBeGreaterThanOrEqual(-OVERLAP_TOLERANCE_S * 1000);
          }
        }
      }
      for (const candidate of analysis.candidates) {
        if (candidate.relation === 'co_location' || candidate.probability <= 0.5) continue;
        // A linked hand-off whose RSSI jumped says why the jump did not stop it: the floored term's
        // reason, or a tag's own rotation evidence (trackers/), which the rationale names.
        if (rssiJumps(candidate.factors).some((jump) => jump >= 13)) {
          expect(candidate.factors.join(' | ')).toMatch(/floored: one emitter moved past a receiver, pocketed or body-shadowed|tracker_rotation: .+-style tag on both/);
        }
      }
    });
  }

  it('horizon74: the two addresses alive together for 5 s on hci0 are ruled out, not linked at 0.56', () => {
    const analysis = analyze('horizon74_btsnoop_hci.log');
    const pair = analysis.candidates.find((candidate) => candidate.earlier === '01:C7:FB:78:62:3A' && candidate.later === '3E:68:05:90:31:7D');
    expect(pair?.probability).toBe(0);
    expect(analysis.clusters.some((cluster) => cluster.addresses.includes('01:C7:FB:78:62:3A') && cluster.addresses.includes('3E:68:05:90:31:7D'))).toBe(false);
  });

  it('mabip_amuza: hand-offs with 13 dB or larger jumps no longer link on the timing of scan bursts', () => {
    const analysis = analyze('mabip_amuza_t1_btsnoop_hci.log');
    const jumping = analysis.candidates.filter((candidate) => candidate.relation !== 'co_location' && candidate.probability > 0.5 && rssiJumps(candidate.factors).some((jump) => jump >= 13));
    // Ten such links before (0.54–0.96). The last one, its hand-off seen 1 s apart on hci0, went
    // too once the gap was weighed against how rarely both addresses are heard (handoffGapLlr).
    expect(jumping.map((candidate) => `${candidate.earlier}→${candidate.later}`)).toEqual([]);
    const last = analysis.candidates.find((candidate) => candidate.earlier === '06:77:B0:42:01:E6' && candidate.later === '33:05:48:8C:4D:33');
    expect(last?.probability).toBeLessThan(0.5);
    // Those hand-offs fell where the phone was not scanning: the gap says so, and nothing for the link.
    const unseen = analysis.candidates.filter((candidate) => candidate.factors.some((factor) => factor.startsWith('handoff_gap: hand-off not seen')));
    expect(unseen.length).toBeGreaterThan(10);
    for (const candidate of unseen) expect(candidate.factors.find((factor) => factor.startsWith('handoff_gap'))).toMatch(/so the gap says nothing \(\+0\.0\)$/);
  });
});
