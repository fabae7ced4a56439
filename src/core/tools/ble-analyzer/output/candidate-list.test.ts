import { describe, expect, it } from 'vitest';
import { generateBleScenario } from '../../../demo/ble-scenario/index.ts';
import { analyzeBle } from '../analyze.ts';
import { bleAnalysisOptions, selectAllRows } from '../shared/test-support.ts';

describe('the candidate list', () => {
  it("gives a pair in one cluster its cluster's probability, and a pair two hand-offs apart says why", () => {
    const generated = generateBleScenario({ seed: 1, scenario: 'android_multi_set' });
    if (!generated.ok) throw new Error(generated.error.message);
    const capture = generated.value.captures[0];
    const analysis = analyzeBle(selectAllRows(capture.info.id, capture.table), bleAnalysisOptions({ includeCandidates: true }));
    const placeOf = new Map<string, { cluster: number; index: number }>();
    analysis.clusters.forEach((cluster, at) => cluster.addresses.forEach((address, index) => placeOf.set(address, { cluster: at, index })));
    let viaCluster = 0;
    let ownLinks = 0;
    for (const candidate of analysis.candidates) {
      const a = placeOf.get(candidate.earlier);
      const b = placeOf.get(candidate.later);
      const clusterFactor = candidate.factors.find((factor) => factor.startsWith('cluster: '));
      if (a === undefined || b === undefined || a.cluster !== b.cluster) {
        expect(clusterFactor).toBeUndefined();
        continue;
      }
      const cell = analysis.clusters[a.cluster].matrix[a.index][b.index];
      if (clusterFactor) {
        // Read at its cluster's matrix: not the calibration of its own raw probability.
        expect(candidate.probability).toBe(cell);
        expect(candidate.rawProbability).toBeUndefined();
        expect(clusterFactor).toContain(analysis.clusters[a.cluster].clusterId);
        viaCluster++;
      } else {
        // The link that joins them: the cell is its own probability as cells are printed (1 only where an IRK proves it).
        if (cell !== 1) expect(cell).toBe(Math.min(0.999, Math.round(candidate.probability * 1000) / 1000));
        expect(candidate.rawProbability).toBeDefined();
        ownLinks++;
      }
    }
    expect(viaCluster).toBeGreaterThan(0);
    expect(ownLinks).toBeGreaterThan(0);
  });
});
