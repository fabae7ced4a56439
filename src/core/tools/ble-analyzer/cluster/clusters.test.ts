import { describe, expect, it } from 'vitest';
import type { BleAddressProfile } from '../profile/address-profiles.ts';
import { analyzeBle } from '../analyze.ts';
import { buildChains, buildClusters, coOccurrenceLine } from './clusters.ts';
import type { BleChainPair } from '../co-location/co-location-types.ts';
import { MAX_CONCURRENT_SETS } from '../co-location/co-location-model.ts';
import type { BleHandoffFactors } from '../handoff/handoff-description.ts';
import type { BleLinkableAddress, BleScoredPairs } from '../handoff/handoff-types.ts';
import { bleAnalysisOptions, bleTestStream, bleTestTable, selectAllRows, type BleTestRow } from '../shared/test-support.ts';

const T0 = 1_712_131_200_000;
const S = 1000;
const options = bleAnalysisOptions({ includeCandidates: true });

function linkable(address: string, firstMs: number, lastMs: number): BleLinkableAddress {
  const profile: BleAddressProfile = {
    id: 0,
    count: 100,
    firstMs,
    lastMs,
    advIntervalS: 1,
    dominantPayload: -1,
    headPayload: -1,
    tailPayload: -1,
    dominantShare: 1,
    distinctPayloads: 0,
  };
  return { profile, address, type: 'rpa', irk: -1 };
}

/** Scored pairs from [earlier, later, probability] triples. */
function scored(...edges: Array<[number, number, number]>): BleScoredPairs {
  return {
    earlier: Int32Array.from(edges, ([earlier]) => earlier),
    later: Int32Array.from(edges, ([, later]) => later),
    probability: Float64Array.from(edges, ([, , probability]) => probability),
  };
}

/** Hand-offs without described factors. */
const noFactors: BleHandoffFactors = { described: () => false, appendClusterTexts: () => undefined };

describe('buildChains and buildClusters', () => {
  it('breaks ties between equally likely hand-offs by the addresses’ collation, whatever order they are listed in', () => {
    // Two earlier addresses compete for one successor with the same probability: the one that
    // collates first (AA… before BB…) wins, listed first or not.
    for (const listed of [
      ['AA:00:00:00:00:01', 'BB:00:00:00:00:01', 'CC:00:00:00:00:01'],
      ['BB:00:00:00:00:01', 'AA:00:00:00:00:01', 'CC:00:00:00:00:01'],
    ]) {
      const addresses = [linkable(listed[0], 0, 1000), linkable(listed[1], 0, 1000), linkable(listed[2], 2000, 3000)];
      const chained = buildChains(addresses, scored([0, 2, 0.9], [1, 2, 0.9], [0, 1, 0.4]));
      expect([...chained.kept].map((kept) => addresses[chained.pairs.earlier[kept]].address)).toEqual(['AA:00:00:00:00:01']);
      const clusters = buildClusters(addresses, chained, [], [], noFactors);
      expect(clusters.map((cluster) => cluster.addresses)).toEqual([['AA:00:00:00:00:01', 'CC:00:00:00:00:01']]);
    }
  });

  it('says a payload signature was carried across all addresses exactly when every hand-off reports the same signature', () => {
    const rows: BleTestRow[] = [
      // One phone keeps its payload token through two rotations…
      ...bleTestStream('7A:4C:21:9D:10:EF', T0 + 10 * S, T0 + 910 * S, 1000, { rssi: -62, payload: 'phone-token-1' }),
      ...bleTestStream('61:D2:88:3C:A4:19', T0 + 911 * S, T0 + 1790 * S, 1000, { rssi: -62, payload: 'phone-token-1' }),
      ...bleTestStream('52:11:22:33:44:55', T0 + 1791 * S, T0 + 2700 * S, 1000, { rssi: -62, payload: 'phone-token-1' }),
      // … another changes it at the second one.
      ...bleTestStream('4B:4C:21:9D:10:EF', T0 + 20 * S, T0 + 920 * S, 1000, { rssi: -80, payload: 'watch-token-1', receiver: 'rx-2' }),
      ...bleTestStream('6C:D2:88:3C:A4:19', T0 + 921 * S, T0 + 1800 * S, 1000, { rssi: -80, payload: 'watch-token-1', receiver: 'rx-2' }),
      ...bleTestStream('5D:11:22:33:44:55', T0 + 1801 * S, T0 + 2710 * S, 1000, { rssi: -80, payload: 'watch-token-2', receiver: 'rx-2' }),
    ].sort((a, b) => a.ts - b.ts);
    const analysis = analyzeBle(selectAllRows('test', bleTestTable(rows)), options);
    expect(analysis.clusters).toHaveLength(2);
    const payloadFactor = (earlier: string, later: string) =>
      analysis.candidates.find((candidate) => candidate.earlier === earlier && candidate.later === later)?.factors.find((factor) => factor.startsWith('payload_signature_match: '));
    const outcomes = new Set<boolean>();
    for (const cluster of analysis.clusters) {
      const handOffs = (cluster.chains ?? []).flatMap((chain) => chain.slice(1).map((later, index) => payloadFactor(chain[index], later)));
      expect(handOffs.every((factor) => factor !== undefined)).toBe(true);
      const allSame = handOffs.every((factor) => factor!.startsWith('payload_signature_match: same payload signature'));
      outcomes.add(allSame);
      const line = cluster.rationale.find((text) => text.startsWith('payload_signature_match: '));
      expect(line).toBe(
        allSame
          ? `payload_signature_match: identical payload signature carried across all ${cluster.addresses.length} addresses`
          : `payload_signature_match: ${handOffs.map((factor) => factor!.slice('payload_signature_match: '.length)).join('; ')}`,
      );
    }
    // Both branches were exercised.
    expect([...outcomes].sort()).toEqual([false, true]);
  });

  it('never joins into one device more concurrent advertising sets than one device runs: the weakest joins are refused', () => {
    // 24 single-address chains alive together, every pair "one device" at 0.6–0.99 (a group walking together whose evidence fooled the score).
    const count = MAX_CONCURRENT_SETS + 7;
    const addresses = Array.from({ length: count }, (_, index) => linkable(`${(0x40 + index).toString(16).toUpperCase()}:00:00:00:00:01`, index * 1000, 3_600_000));
    const chained = buildChains(addresses, scored());
    const pairs: BleChainPair[] = [];
    for (let a = 0; a < count; a++) {
      for (let b = a + 1; b < count; b++) {
        // Joins that take in the later chains are the weaker ones.
        const same = 0.99 - 0.0005 * (a + b);
        pairs.push({ a, b, same, rawSame: same, travel: 0.01, evidenceS: 0, evidenceT: 0, crowd: 2, mayBeOne: true, overlapFromMs: b * 1000, overlapToMs: 3_600_000, memberA: a, memberB: b, terms: [] });
      }
    }
    const clusters = buildClusters(addresses, chained, pairs, [], noFactors);
    const sizes = clusters.map((cluster) => cluster.addresses.length).sort((x, y) => y - x);
    expect(sizes[0]).toBe(MAX_CONCURRENT_SETS);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(count);
    // The strongest joins made the device; a refused pair is two devices that travelled together, and says why.
    expect(clusters.find((cluster) => cluster.addresses.length === MAX_CONCURRENT_SETS)!.addresses).toContain(addresses[0].address);
    const refused = pairs.filter((pair) => pair.terms?.some((term) => term.name === 'one_radio'));
    expect(refused.length).toBeGreaterThan(0);
    for (const pair of refused) {
      expect(pair.same).toBe(0);
      expect(pair.travel).toBeGreaterThan(0.5);
      expect(pair.terms!.at(-1)!.text).toMatch(new RegExp(`more than the ${MAX_CONCURRENT_SETS} one device runs`));
    }
    // Chains that follow one another (never alive together) are no such bound: 24 one after another join.
    const sequential = Array.from({ length: count }, (_, index) => linkable(`${(0x40 + index).toString(16).toUpperCase()}:00:00:00:00:02`, index * 100_000, index * 100_000 + 90_000));
    const sequentialPairs: BleChainPair[] = [];
    for (let a = 0; a + 1 < count; a++) sequentialPairs.push({ a, b: a + 1, same: 0.9, rawSame: 0.9, travel: 0.05, evidenceS: 0, evidenceT: 0, crowd: 2, mayBeOne: true, overlapFromMs: 0, overlapToMs: 0, memberA: a, memberB: a + 1, terms: [] });
    expect(buildClusters(sequential, buildChains(sequential, scored()), sequentialPairs, [], noFactors).map((cluster) => cluster.addresses.length)).toEqual([count]);
  });

  it('states the overlap of hand-offs and the tolerance it was measured against, never "no overlap" where there is one', () => {
    expect(coOccurrenceLine([], [])).toBe('co_occurrence: no two members active at the same time (evidence against linkage absent)');
    const within = coOccurrenceLine([0.6, 0.7], []);
    expect(within).toBe('co_occurrence: 2 hand-offs overlap by 0.6–0.7 s, within the 1.0 s tolerance for receiver clock offsets and out-of-sync payload windows');
    const both = coOccurrenceLine([0.4], [5.2]);
    expect(both).toMatch(/^co_occurrence: 1 hand-off overlaps by 0\.4 s, within the 1\.0 s tolerance .*; 1 hand-off overlaps by 5\.2 s, beyond the 1\.0 s tolerance: those members were active at the same time/);
    for (const line of [within, both]) expect(line).not.toContain('no two members');
  });
});
