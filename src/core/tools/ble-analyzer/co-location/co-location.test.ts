import { describe, expect, it } from 'vitest';
import { generateBleScenario } from '../../../demo/ble-scenario/generate-ble-scenario.ts';
import { classifyChange } from '../../../manifests/classify-change.ts';
import type { SelectedData } from '../../../data/selection-types.ts';
import { analyzeBle } from '../analyze.ts';
import { bleAnalysisOptions } from '../shared/test-support.ts';
import { bleAddressAnalyzerManifest, bleAnalyzerOutputSchema } from '../tool/manifest.ts';

const OPTIONS = bleAnalysisOptions({ includeCandidates: true });

function scenario(name: string, seed: number) {
  const generated = generateBleScenario({ seed, scenario: name });
  if (!generated.ok) throw new Error(generated.error.message);
  const { captures, truth } = generated.value;
  const batches = captures.flatMap((capture) => capture.table.batches.map((batch) => ({ captureId: capture.info.id, batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows })));
  const selection: SelectedData = { batches, rowCount: batches.reduce((sum, batch) => sum + batch.selectedCount, 0) };
  return { selection, truth };
}

describe('co-location linkage of concurrent advertising sets', () => {
  it('joins the parallel chains of multi-set phones into one cluster, without joining different devices', () => {
    const { selection, truth } = scenario('android_multi_set', 1);
    const analysis = analyzeBle(selection, OPTIONS);
    const multi = analysis.clusters.filter((cluster) => (cluster.chains?.length ?? 0) > 1);
    expect(multi.length).toBeGreaterThan(3);
    let correct = 0;
    for (const cluster of multi) {
      const devices = new Set(cluster.addresses.map((address) => truth.address_to_device[address]));
      if (devices.size === 1) correct++;
      // §7.2 stays: square, symmetric, diagonal 1, probabilities in [0, 1].
      cluster.matrix.forEach((row, i) => {
        expect(row).toHaveLength(cluster.addresses.length);
        expect(row[i]).toBe(1);
        row.forEach((cell, j) => {
          expect(cell).toBe(cluster.matrix[j][i]);
          expect(cell).toBeGreaterThan(0);
          expect(cell).toBeLessThanOrEqual(1);
        });
      });
      expect(cluster.rationale.some((line) => line.startsWith('co_location: '))).toBe(true);
      expect(cluster.rationale.some((line) => line.startsWith('parallel chains: '))).toBe(true);
    }
    expect(correct / multi.length).toBeGreaterThan(0.9);
    // Concurrent-set pairs are reported as candidates with their named terms.
    const coLocated = analysis.candidates.filter((candidate) => candidate.relation === 'co_location' && candidate.probability > 0.5);
    expect(coLocated.length).toBeGreaterThan(0);
    expect(coLocated[0].factors.some((factor) => factor.startsWith('prior: '))).toBe(true);
    // The generator's sniffers stamp to the microsecond and every set of a phone shares its
    // controller's slot grid: the clock term speaks for the joined pairs; static phones' pairs
    // also carry their spot's channel pattern.
    const withClock = coLocated.filter((candidate) => candidate.factors.some((factor) => factor.startsWith('advertising_clock: ')));
    expect(withClock.length / coLocated.length).toBeGreaterThan(0.8);
    expect(coLocated.some((candidate) => candidate.factors.some((factor) => factor.startsWith('channel_signature: ')))).toBe(true);
    for (const candidate of withClock) {
      const clock = candidate.factors.find((factor) => factor.startsWith('advertising_clock: '))!;
      expect(clock).toMatch(/line up modulo 625 µs with resultant 0\.[6-9]\d|resultant 1\.00/);
    }
  });

  it('reports companions as travelled together rather than as one device', () => {
    const { selection, truth } = scenario('companions', 1);
    const analysis = analyzeBle(selection, OPTIONS);
    const together = new Set(truth.travelled_together.map((pair) => [pair.device_a, pair.device_b].sort().join('|')));
    expect(analysis.travelledTogether.length).toBeGreaterThan(0);
    let right = 0;
    for (const relation of analysis.travelledTogether) {
      const a = truth.address_to_device[relation.a[0]];
      const b = truth.address_to_device[relation.b[0]];
      if (together.has([a, b].sort().join('|'))) right++;
      expect(relation.probability).toBeGreaterThan(0.5);
      expect(relation.toMs).toBeGreaterThan(relation.fromMs);
      expect(relation.rationale[0]).toMatch(/^moved with each other for \d+ minutes?/);
    }
    expect(right / analysis.travelledTogether.length).toBeGreaterThan(0.8);
  });

  it('is deterministic', () => {
    const { selection } = scenario('android_multi_set', 2);
    const first = analyzeBle(selection, OPTIONS);
    const second = analyzeBle(selection, OPTIONS);
    expect(second.clusters).toEqual(first.clusters);
    expect(second.travelledTogether).toEqual(first.travelledTogether);
  });

  it('gives the same analysis without the candidate list (what the tool runs), only without the list', () => {
    const { selection } = scenario('companions', 1);
    const listed = analyzeBle(selection, OPTIONS);
    const lean = analyzeBle(selection, { ...OPTIONS, includeCandidates: false });
    expect(listed.candidates.length).toBe(listed.candidatePairs);
    expect(listed.clusters.some((cluster) => cluster.rationale.length > 0)).toBe(true);
    expect(listed.travelledTogether.length).toBeGreaterThan(0);
    expect(lean.candidates).toEqual([]);
    expect({ ...lean, candidates: listed.candidates }).toEqual(listed);
  });

  it('makes 1.1.0 a minor change from 1.0.0 under the compatibility policy', () => {
    const properties = { ...(bleAnalyzerOutputSchema.properties as Record<string, unknown>) };
    delete properties.travelled_together;
    const links = structuredClone(properties.probabilistic_links) as { items: { properties: Record<string, unknown> } };
    delete links.items.properties.parallel_chains;
    properties.probabilistic_links = links;
    const old = { ...bleAddressAnalyzerManifest, version: '1.0.0', output_schema: { ...bleAnalyzerOutputSchema, properties } };
    const change = classifyChange(old as typeof bleAddressAnalyzerManifest, bleAddressAnalyzerManifest);
    expect(change.kind).toBe('minor');
    expect(change.actualBump).toBe('minor');
  });
});
