/**
 * Travelled together across hand-offs (companion-evidence.ts): a companion's co-movement with the
 * chains a side hands off to and from counts for the pair, each weighed by the chance the hand-off
 * continues the device; chains beyond the companion's time say nothing.
 */
import { describe, expect, it } from 'vitest';
import type { BleChain, BleChainPair } from '../co-location/co-location-types.ts';
import type { BleScoredPairs } from '../handoff/handoff-types.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import type { BleAddressProfile } from '../profile/address-profiles.ts';
import type { AddressCluster } from '../shared/analysis-types.ts';
import { companionEvidence as evidenceWithActive } from './companion-evidence.ts';
import { ActiveChains } from '../co-location/active-chains.ts';
import { travelRelations } from './travelled-together.ts';

const MINUTE = 60_000;

/** The companion step as the analysis calls it, with the chains' activity made here. */
function companionEvidence(chains: BleChain[], chainOf: Int32Array, handoffs: BleScoredPairs, pairs: BleChainPair[], rates: { lambda: number; mu: number }) {
  return evidenceWithActive(chains, chainOf, handoffs, pairs, rates, new ActiveChains(chains));
}
const RATES = { lambda: 0.05, mu: 0.05 };
/** Companions so rare that another device's co-movement is no explanation (B = 1): the mixtures' plain form. */
const RARE = { lambda: 0.05, mu: 1e-12 };

/** Chain 0: a tag heard for `tagMinutes`; chains 1…n: one address each, 15 minutes one after another. */
function setting(phoneChains: number, tagMinutes = 15 * phoneChains) {
  const chains: BleChain[] = [{ members: [0], firstMs: 0, lastMs: tagMinutes * MINUTE }];
  for (let index = 0; index < phoneChains; index++) chains.push({ members: [index + 1], firstMs: index * 15 * MINUTE, lastMs: (index + 1) * 15 * MINUTE - 1000 });
  const chainOf = Int32Array.from(chains, (_, index) => index);
  return { chains, chainOf };
}

/** The tag with phone chain `chain`: co-movement evidence `evidenceT`, a crowd of 2 (the prior's floor: only the two are active). */
function tagPair(chains: BleChain[], chain: number, evidenceT: number): BleChainPair {
  const from = Math.max(chains[0].firstMs, chains[chain].firstMs);
  const to = Math.min(chains[0].lastMs, chains[chain].lastMs);
  return { a: 0, b: chain, same: 0, rawSame: 0, travel: 0.002, evidenceS: evidenceT, evidenceT, crowd: 2, mayBeOne: false, overlapFromMs: from, overlapToMs: to, memberA: 0, memberB: chain, terms: [] };
}

/** Hand-offs from each phone chain to the next at probability p. */
function successive(phoneChains: number, p: number): BleScoredPairs {
  const earlier = Int32Array.from({ length: phoneChains - 1 }, (_, index) => index + 1);
  const later = Int32Array.from({ length: phoneChains - 1 }, (_, index) => index + 2);
  return { earlier, later, probability: new Float64Array(phoneChains - 1).fill(p) };
}

describe('companion evidence across hand-offs', () => {
  it('adds, for each neighbour, the mixture of "the same device" (its evidence) and "someone else" (nothing)', () => {
    const { chains, chainOf } = setting(3);
    const pairs = [1, 2, 3].map((chain) => tagPair(chains, chain, 2));
    const { addedLogOdds, travel } = companionEvidence(chains, chainOf, successive(3, 0.6), pairs, RARE);
    const one = Math.log(0.4 + 0.6 * Math.exp(2));
    // The middle chain has a neighbour either side; the ends one each, and two steps on the other side.
    expect(addedLogOdds[1]).toBeCloseTo(2 * one, 8);
    expect(addedLogOdds[0]).toBeCloseTo(Math.log(0.4 + 0.6 * Math.exp(2) * Math.exp(one)), 8);
    expect(addedLogOdds[2]).toBeCloseTo(addedLogOdds[0], 8);
    // Never below the pair's own probability.
    for (let index = 0; index < 3; index++) expect(travel[index]).toBeGreaterThanOrEqual(pairs[index].travel);
  });

  it("finds a day-long tag's carrier from a run of its quarter-hour chains that no single one proves", () => {
    const { chains, chainOf } = setting(24);
    const pairs = chains.slice(1).map((_, index) => tagPair(chains, index + 1, 1.5));
    const alone = companionEvidence(chains, chainOf, { earlier: new Int32Array(0), later: new Int32Array(0), probability: new Float64Array(0) }, pairs, RATES);
    const linked = companionEvidence(chains, chainOf, successive(24, 0.6), pairs, RATES);
    // On its own every pair stays unlikely.
    expect(Math.max(...alone.travel)).toBeLessThan(0.5);
    expect(Math.min(...linked.travel)).toBeGreaterThan(0.75);
    expect(linked.travel[12]).toBeGreaterThan(0.95);
  });

  it('is lowered by neighbours that moved apart from the companion, and ignores chains beyond its time', () => {
    const { chains, chainOf } = setting(3);
    const against = companionEvidence(chains, chainOf, successive(3, 0.6), [tagPair(chains, 1, 2), tagPair(chains, 2, -3), tagPair(chains, 3, -3)], RARE);
    expect(against.addedLogOdds[0]).toBeLessThan(0);
    // The tag stops before the third chain starts: that chain's hand-off adds nothing to the second.
    const short = setting(3, 29);
    const ended = companionEvidence(short.chains, short.chainOf, successive(3, 0.6), [tagPair(short.chains, 1, 2), tagPair(short.chains, 2, 2)], RARE);
    expect(ended.addedLogOdds[1]).toBeCloseTo(Math.log(0.4 + 0.6 * Math.exp(2)), 8);
  });

  it('weighs alternative successors as exclusive, their probabilities scaled to sum to at most 1', () => {
    const { chains, chainOf } = setting(3);
    // Chain 1 hands off to chain 2 or chain 3 at 0.8 each (together 1.6: scaled to 0.5 each).
    const handoffs: BleScoredPairs = { earlier: Int32Array.from([1, 1]), later: Int32Array.from([2, 3]), probability: Float64Array.from([0.8, 0.8]) };
    chains[3] = { members: [3], firstMs: 15 * MINUTE, lastMs: 30 * MINUTE - 1000 };
    const result = companionEvidence(chains, chainOf, handoffs, [tagPair(chains, 1, 0), tagPair(chains, 2, 2), tagPair(chains, 3, 0)], RARE);
    expect(result.addedLogOdds[0]).toBeCloseTo(Math.log(0.5 * Math.exp(2) + 0.5), 8);
  });

  it("does not hand a stranger the companion's carrier through an unlikely hand-off into the carrier's chains", () => {
    // Chain 1: a stranger's quarter hour; chains 2–9: the carrier's, each +3 beside the tag, handed
    // on at 0.9; the stranger's last address might hand off to the carrier's first at 0.1.
    const { chains, chainOf } = setting(9);
    const handoffs: BleScoredPairs = { earlier: Int32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), later: Int32Array.from([2, 3, 4, 5, 6, 7, 8, 9]), probability: Float64Array.from([0.1, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]) };
    const pairs = [tagPair(chains, 1, 0), ...[2, 3, 4, 5, 6, 7, 8, 9].map((chain) => tagPair(chains, chain, 3))];
    const { travel, addedLogOdds } = companionEvidence(chains, chainOf, handoffs, pairs, RATES);
    for (let index = 1; index < pairs.length; index++) expect(travel[index]).toBeGreaterThan(0.9);
    // Some device carries the tag past the stranger's time; that it is the stranger's is the 0.1
    // hand-off's claim, not the +21 of the carrier's chains.
    // At most (p + (1 − p)π) / ((1 − p)π), π = μ / crowd = 0.05 / 2: the odds the hand-off gives against some other carrier.
    expect(addedLogOdds[0]).toBeLessThan(Math.log((0.1 + 0.9 * 0.025) / (0.9 * 0.025)) + 1e-9);
    expect(travel[0]).toBeLessThan(0.2);
  });

  it('in a walking group, where most neighbours travel with the companion anyway, a neighbour says little', () => {
    const { chains, chainOf } = setting(2);
    const pairs = [tagPair(chains, 1, 0), tagPair(chains, 2, 8)];
    const rare = companionEvidence(chains, chainOf, successive(2, 0.3), pairs, RARE);
    const group = companionEvidence(chains, chainOf, successive(2, 0.3), pairs, { lambda: 0.1, mu: 40 });
    expect(rare.addedLogOdds[0]).toBeCloseTo(Math.log(0.7 + 0.3 * Math.exp(8)), 8);
    // π capped at 1/2: (0.3·e^8/B + 0.7)/(0.3/B + 0.7), B = (e^8 + 1)/2.
    const b = (Math.exp(8) + 1) / 2;
    expect(group.addedLogOdds[0]).toBeCloseTo(Math.log((0.3 * Math.exp(8) / b + 0.7) / (0.3 / b + 0.7)), 8);
    expect(group.addedLogOdds[0]).toBeLessThan(0.7);
  });

  it('follows a path of 20,000 hand-offs without running out of stack', () => {
    const { chains, chainOf } = setting(20000);
    const pairs = [tagPair(chains, 1, 1), tagPair(chains, 20000, 1)];
    const { travel } = companionEvidence(chains, chainOf, successive(20000, 0.99), pairs, RATES);
    expect(Number.isFinite(travel[0]) && Number.isFinite(travel[1])).toBe(true);
  });

  it('reports a relation its neighbours raised, saying what they added and that a tag is a radio of its own', () => {
    const { chains, chainOf } = setting(6);
    const address = (index: number, chain: BleChain): BleLinkableAddress => ({
      address: `C0:00:00:00:00:${index.toString(16).padStart(2, '0').toUpperCase()}`,
      type: index === 0 ? 'random_static' : 'rpa',
      irk: -1,
      ...(index === 0 ? { tracker: 'find_my' as const } : {}),
      profile: { id: index, count: 60, firstMs: chain.firstMs, lastMs: chain.lastMs, advIntervalS: 1, dominantPayload: -1, headPayload: -1, tailPayload: -1, dominantShare: 1, distinctPayloads: 0 } as BleAddressProfile,
    });
    const addresses = chains.map((chain, index) => address(index, chain));
    // Terms undescribed (the pair alone stayed far below the describing threshold).
    const pairs = chains.slice(1).map((_, index) => ({ ...tagPair(chains, index + 1, 1.5), terms: undefined }));
    const companion = companionEvidence(chains, chainOf, successive(6, 0.9), pairs, RATES);
    const relations = travelRelations(addresses, chains, pairs, [], companion);
    expect(relations.length).toBeGreaterThan(0);
    for (const relation of relations) {
      expect(relation.probability).toBeGreaterThan(0.5);
      expect(relation.separatedBy).toMatch(/^tracker kinds differ \(find_my and no tracker\)/);
      expect(relation.rationale.at(-1)).toMatch(/^across_handoffs: \+\d+\.\d from the chains either side hands off to and from .*beside this pair's own \+1\.5; on its own P\(travelled together\) 0\.002$/);
    }
    // Without the companion step, none of them is a relation.
    expect(travelRelations(addresses, chains, pairs, [])).toEqual([]);

    // The phone's chains as one device: the relation quotes the one chain pair that has terms,
    // and says they are another pair's, not the likeliest's.
    const phone: AddressCluster = { clusterId: 'phone', addresses: addresses.slice(1).map((entry) => entry.address), matrix: [], rationale: [] };
    const term = { name: 'rssi_covariation' as const, llrSame: 1, llrTravel: 1.5, text: 'RSSI moved together on rx-1' };
    const described = pairs.map((pair, index) => (index === 0 ? { ...pair, terms: [term] } : pair));
    const [relation] = travelRelations(addresses, chains, described, [phone], companion);
    expect(relation.clusterB ?? relation.clusterA).toBe('phone');
    expect(relation.rationale).toContain('rssi_covariation: RSSI moved together on rx-1');
    expect(relation.rationale[1]).toMatch(/^terms of another chain pair of these two devices \(heard together 15 minutes, P\(travelled together\) 0\.\d{3}\): the likeliest pair was raised by its neighbours' evidence and has none of its own$/);
  });
});
