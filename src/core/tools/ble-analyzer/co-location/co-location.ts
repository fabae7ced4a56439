import { calibrated } from '../calibration/calibration.ts';
import { timeLocalCrowd, type ActiveChains } from './active-chains.ts';
import { NO_CLOCK_RATES, type BleClockRates } from './clock-rate.ts';
import { advertisingClockEvidence } from './advertising-clock.ts';
import { channelSignatureEvidence, ChannelSignatureBuilder } from './channel-signature.ts';
import { screenChainPairs, type BleMaskedBins } from './co-location-candidates.ts';
import { channelAlikeness, CO_LOCATION_SCREEN_MODEL, FIXED_PERIOD_MS, ONE_RADIO_MIN_LLR } from './co-location-model.ts';
import { coRotationLogOddsOf, type BleHandoffChain, type BleHandoffCrowd } from './co-rotation.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import type { BleTrackerKind } from '../shared/tracker-kind.ts';
import type { BleChain, BleChainPair, BleCoLocationTerm } from './co-location-types.ts';
import { buildSeries, maskedBinsFor, seriesScratch, type ChainSeries } from './co-location-series.ts';
import { activeAt, mostOverlapping } from './co-location-members.ts';
import { fitPriorRates, posteriorsOf } from './co-location-priors.ts';

/**
 * Co-location linkage: joins hand-off chains that run at the same time into one device (the
 * advertising sets of one phone), and tells them apart from distinct devices that travel
 * together (a phone and its watch, earbuds or tag).
 *
 * Each chain (an advertising set followed through its hand-offs) gets an RSSI series per
 * receiver in BIN_MS bins. For every pair of chains active together for at least
 * MIN_OVERLAP_MS that the candidate screen keeps (co-location-candidates.ts: pairs with some
 * evidence for either relation), three hypotheses are weighed with naive-Bayes log-likelihoods:
 *   S  one device (two sets of one radio),
 *   T  two devices that travel together (same path, separate radios),
 *   U  unrelated devices.
 * The terms (each reported by name with its S-vs-U and T-vs-U log-odds):
 *   - `co_rotation`: hand-offs of both chains that fall within a couple of seconds of each
 *     other. One coincidence is weak in a crowd; a repeat is strong. Sets of a phone either
 *     rotate together or each on its own timer, so S is a mixture of "synchronized" and "chance".
 *   - `tx_offset_consistency`: the RSSI difference between the two chains, receiver by
 *     receiver. One radio with a fixed per-set TX-power offset gives the same difference on
 *     every receiver (what separates sets of one device from companions: a companion's antenna
 *     sits elsewhere on the body, so its shadowing per receiver is its own). Needs two receivers.
 *   - `tx_offset_level`: the size of that difference (per-set offsets are a few dB).
 *   - `rssi_covariation`: correlation of the two time-aligned series per receiver after each
 *     chain's own mean (its TX-power offset) is removed: co-moving chains (S or T) rise and fall
 *     together; one moving and the other not is evidence against both, the stronger the more the
 *     moving one swings beyond the still one's spread (a phone's sets move together).
 *   - `blind_spot`: a receiver that hears one chain well and never the other though the other's
 *     level there would be comfortably above sensitivity (against S; common for T and U).
 *   - `channel_signature`: the RSSI pattern across the three advertising channels per receiver
 *     (frequency-selective multipath, a property of the antenna's spot: shared by the sets of
 *     one device, not by a companion or a stranger; channel-signature.ts).
 *   - `advertising_clock`: one link layer schedules all of a device's sets on one 625 µs slot
 *     grid, so their packets' time differences line up modulo 625 µs; a companion's or a
 *     stranger's do not (advertising-clock.ts; needs sub-millisecond timestamps, which each chain
 *     must show it has).
 *   - `clock_rate`: each address's clock rate from its own packets, one per controller
 *     (clock-rate.ts; the more precise of it and `advertising_clock` counts, as both read it).
 * One pair is scored and described in co-location-pair.ts.
 * Every term's constants and formula are in co-location-model.ts, shared with the screen, and
 * so is the rule between them: the first four are co-movement, which a companion shows as well
 * and which never lifts "one device" above "travelled together"; the other four are one-radio
 * evidence, each bounded by how alike this capture's unrelated pairs come out (a background the
 * screen samples), and without enough of it a pair's same-device mass is travelled together's.
 * A tracker tag's chain is never one device with a chain of another kind or of none.
 * Priors: a chain has at most a couple of sibling sets among the chains active with it (the
 * rates are fitted to the capture: co-location-priors.ts).
 */
import { describePair, DESCRIBE_ABOVE, pairWork, scorePair, signed, type OneRadioBackground, type PairEvidence, type PairWork } from './co-location-pair.ts';

export interface BleCoLocationResult {
  pairs: BleChainPair[];
  /** The capture's fitted prior rates (co-location-priors.ts): sibling sets and companions per chain. */
  rates: BleCoLocationRates;
  /** Chains active at once over time (the pairs' crowds were read from it; active-chains.ts). */
  active: ActiveChains;
}

export interface BleCoLocationRates {
  lambda: number;
  mu: number;
}

/**
 * Scores the pairs of chains active together for at least MIN_OVERLAP_MS that the candidate
 * screen keeps. `floors` is each receiver's weakest RSSI over all events (`BleAddressProfiles.receiverFloors`). Work: one pass over the chains' events to build the series, constant work per
 * concurrent pair in the screen, then per screened pair the bins of its overlap.
 */
export function scoreChainPairs(
  chains: ReadonlyArray<BleChain>,
  addresses: ReadonlyArray<BleLinkableAddress>,
  events: BleEventGroups,
  receiverNames: ReadonlyArray<string>,
  dataStartMs: number,
  dataEndMs: number,
  floors: Float64Array,
  uncalibrated = false,
  clockRates: BleClockRates = NO_CLOCK_RATES,
): BleCoLocationResult {
  const receivers = receiverNames.length;
  const channelBuilder = new ChannelSignatureBuilder(receivers);
  const masked = maskedBinsFor(chains, receivers);
  const seriesWork = seriesScratch();
  const series = chains.map((_, index) => buildSeries(chains, index, addresses, events, receivers, dataStartMs, dataEndMs, channelBuilder, masked, seriesWork));
  // The pairs worth scoring (co-location-candidates.ts): the others are not candidates.
  // (Its count of the chains handing off around each hand-off is the co-rotation term's here too.)
  const { a: screenedA, b: screenedB, active, inverseCrowd, handoffCrowd, backgroundA, backgroundB } = screenChainPairs(chains, series, masked, receivers, floors, CO_LOCATION_SCREEN_MODEL);
  // Evidence of every pair first; the priors' scale is then fitted to the capture (below).
  // Kept in typed arrays (a screened pair's index, its crowd and its two log-odds), not an object per pair.
  const scoring: PairScoring = {
    chains,
    addresses,
    events,
    receiverNames,
    uncalibrated,
    series,
    floors,
    active,
    handoffCrowd,
    masked,
    screenedA,
    screenedB,
    scoredPair: new Int32Array(screenedA.length),
    scoredCrowd: new Float64Array(screenedA.length),
    scoredLogS: new Float64Array(screenedA.length),
    scoredLogT: new Float64Array(screenedA.length),
    scoredOneRadio: new Uint8Array(screenedA.length),
    scoredCount: 0,
    rates: new Float64Array(2),
    work: { ...pairWork(receivers), rates: clockRates },
    posterior: new Float64Array(2),
    trackerOf: chains.map((chain) => chainTracker(chain, addresses)),
  };
  // How alike unrelated chains are in this capture, term by term (the background bound's values).
  scoring.work.background = oneRadioBackground(scoring, backgroundA, backgroundB);
  // (The loops here only call a function per pair: this function runs once per analysis, and the
  // work of a loop in a function called once is compiled anew in every analysis, or not at all.)
  for (let pair = 0; pair < screenedA.length; pair++) scoreScreenedPair(scoring, pair);
  fitPriorRates(scoring.scoredLogS, scoring.scoredLogT, scoring.scoredCrowd, scoring.scoredCount, inverseCrowd, scoring.rates, scoring.scoredOneRadio);
  const pairs: BleChainPair[] = [];
  for (let entry = 0; entry < scoring.scoredCount; entry++) pairs.push(reportedPair(scoring, entry));
  return { pairs, rates: { lambda: scoring.rates[0], mu: scoring.rates[1] }, active };
}

/** What the per-pair steps of `scoreChainPairs` read, and the scored pairs' evidence. */
interface PairScoring {
  chains: ReadonlyArray<BleChain>;
  addresses: ReadonlyArray<BleLinkableAddress>;
  events: BleEventGroups;
  receiverNames: ReadonlyArray<string>;
  uncalibrated: boolean;
  series: ChainSeries[];
  floors: Float64Array;
  /** Chains active at once over time: a pair's prior crowd is its time-local average (active-chains.ts). */
  active: ActiveChains;
  handoffCrowd: BleHandoffCrowd;
  masked: BleMaskedBins;
  screenedA: Int32Array;
  screenedB: Int32Array;
  /** Per scored pair: its place among the screened pairs, its crowd and its two log-odds. */
  scoredPair: Int32Array;
  scoredCrowd: Float64Array;
  scoredLogS: Float64Array;
  scoredLogT: Float64Array;
  /** 1 where the pair may be one device: evidence of one radio, and no tracker tag with another kind (co-location-model.ts). */
  scoredOneRadio: Uint8Array;
  scoredCount: number;
  /** The fitted prior rates λ and μ (co-location-priors.ts). */
  rates: Float64Array;
  /** `scorePair`'s working space and the evidence of the pair it read last. */
  work: PairWork;
  /** A reported pair's P(one device) and P(travelled together) (`posteriorsOf`). */
  posterior: Float64Array;
  /** Per chain, the tracker kind its addresses show (the trackers stage), if any. */
  trackerOf: ReadonlyArray<BleTrackerKind | undefined>;
}

/** The tracker kind of a chain: that of its first member that shows one (a chain is one advertiser's addresses). */
export function chainTracker(chain: { members: ReadonlyArray<number> }, addresses: ReadonlyArray<BleLinkableAddress>): BleTrackerKind | undefined {
  for (const member of chain.members) {
    const kind = addresses[member].tracker;
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** Whether a pair of chains may be one device: evidence of one radio, and a tracker tag only with a chain of its own kind. */
function mayBeOneDevice(evidence: PairEvidence, trackerA: BleTrackerKind | undefined, trackerB: BleTrackerKind | undefined): boolean {
  return trackerA === trackerB && evidence.oneRadio >= ONE_RADIO_MIN_LLR;
}

/**
 * Alikeness of the one-radio terms over the background pairs, each ascending (terms a pair could
 * not estimate are left out). Only those terms are read, each by the function the score calls
 * (co-rotation by co-rotation.ts's exact term, which the screen shares with the score), not the
 * co-movement terms: a background pair costs less than a scored one.
 */
function oneRadioBackground(scoring: PairScoring, backgroundA: Int32Array, backgroundB: Int32Array): OneRadioBackground {
  const { chains, series, work } = scoring;
  const receivers = scoring.receiverNames.length;
  const rotation: number[] = [];
  const signature: number[] = [];
  const clock: number[] = [];
  const clockLooks: number[] = [];
  const handoffs = (chain: number): BleHandoffChain => ({ index: chain, boundaries: series[chain].boundaries, toleranceMs: series[chain].toleranceMs, ascending: series[chain].ascending });
  for (let pair = 0; pair < backgroundA.length; pair++) {
    const a = backgroundA[pair];
    const b = backgroundB[pair];
    const sa = series[a];
    const sb = series[b];
    const fromMs = overlapFromOf(chains[a], chains[b]);
    const toMs = overlapToOf(chains[a], chains[b]);
    const rotated = coRotationLogOddsOf(handoffs(a), handoffs(b), fromMs, toMs, FIXED_PERIOD_MS, scoring.handoffCrowd);
    // (The exact term is 0 where neither chain hands off in the overlap: nothing to compare.)
    if (rotated !== 0) rotation.push(rotated);
    const channels = sa.channels && sb.channels ? channelSignatureEvidence(sa.channels, sb.channels, receivers, fromMs, toMs, work.channels) : undefined;
    if (channels) signature.push(channelAlikeness(channels.excessDb2, channels.spreadDb));
    const timing = sa.preciseTiming && sb.preciseTiming ? advertisingClockEvidence(sa.groups, sa.spans, sb.groups, sb.spans, scoring.events, fromMs, toMs, work.clock) : undefined;
    if (timing) {
      clock.push(timing.resultant);
      clockLooks.push(timing.looks);
    }
  }
  const ascending = (values: number[]) => Float64Array.from(values).sort();
  return { pairs: backgroundA.length, rotation: ascending(rotation), signature: ascending(signature), clock: Float64Array.from(clock), clockLooks: Float64Array.from(clockLooks) };
}

/** The one_radio verdict of a pair of a tag and a chain of another kind (or of none). */
export function trackerKindsDiffer(trackerA: BleTrackerKind | undefined, trackerB: BleTrackerKind | undefined): string {
  return `tracker kinds differ (${trackerA ?? 'no tracker'} and ${trackerB ?? 'no tracker'}): a tag is a radio of its own, near a phone it travels with it, never one of its sets`;
}

/** The rationale's verdict on one radio: what made the pair one device, or why it is travelled together at most. */
function oneRadioTerm(evidence: PairEvidence, trackerA: BleTrackerKind | undefined, trackerB: BleTrackerKind | undefined): BleCoLocationTerm {
  const gap = evidence.coMovementS - evidence.logT;
  const movement = gap > 0 ? `; co-movement alone favours one device by ${gap.toFixed(1)}, which counts only up to travelled together` : '';
  let text: string;
  if (trackerA !== trackerB) {
    text = trackerKindsDiffer(trackerA, trackerB);
  } else if (evidence.oneRadioTerms === 0) {
    text = `no evidence of one radio: co-movement alone gives travelled together (no advertising clock, channel pattern or hand-off timing to compare)${movement}`;
  } else if (evidence.oneRadio < ONE_RADIO_MIN_LLR) {
    text = `no evidence of one radio: co-movement alone gives travelled together (one-radio terms ${signed(evidence.oneRadio)}, below the ${signed(ONE_RADIO_MIN_LLR)} one device needs)${movement}`;
  } else {
    text = `one-radio evidence ${signed(evidence.oneRadio)} over ${evidence.oneRadioTerms} term${evidence.oneRadioTerms === 1 ? '' : 's'} (at least ${signed(ONE_RADIO_MIN_LLR)} needed)${movement}`;
  }
  return { name: 'one_radio', llrSame: evidence.logS - evidence.coMovementS, llrTravel: 0, text };
}

/** The evidence of screened pair `pair`, kept when a receiver heard both chains in the overlap. */
function scoreScreenedPair(scoring: PairScoring, pair: number): void {
  const { chains, series } = scoring;
  const a = scoring.screenedA[pair];
  const b = scoring.screenedB[pair];
  if (!scorePair(series[a], series[b], a, b, scoring.masked, scoring.events, scoring.receiverNames.length, overlapFromOf(chains[a], chains[b]), overlapToOf(chains[a], chains[b]), scoring.floors, scoring.handoffCrowd, scoring.work)) return;
  const entry = scoring.scoredCount;
  scoring.scoredPair[entry] = pair;
  scoring.scoredCrowd[entry] = timeLocalCrowd(scoring.active, overlapFromOf(chains[a], chains[b]), overlapToOf(chains[a], chains[b]));
  scoring.scoredLogS[entry] = scoring.work.evidence.logS;
  scoring.scoredLogT[entry] = scoring.work.evidence.logT;
  scoring.scoredOneRadio[entry] = mayBeOneDevice(scoring.work.evidence, scoring.trackerOf[a], scoring.trackerOf[b]) ? 1 : 0;
  scoring.scoredCount = entry + 1;
}

/** The output of scored pair `entry` under the fitted rates, with its named terms when it is reported. */
function reportedPair(scoring: PairScoring, entry: number): BleChainPair {
  const { chains, addresses, series } = scoring;
  const receivers = scoring.receiverNames.length;
  const lambda = scoring.rates[0];
  const mu = scoring.rates[1];
  const posterior = scoring.posterior;
  const pair = scoring.scoredPair[entry];
  const a = scoring.screenedA[pair];
  const b = scoring.screenedB[pair];
  const from = overlapFromOf(chains[a], chains[b]);
  const to = overlapToOf(chains[a], chains[b]);
  const crowd = scoring.scoredCrowd[entry];
  posteriorsOf(scoring.scoredLogS[entry], scoring.scoredLogT[entry], crowd, lambda, mu, posterior, scoring.scoredOneRadio[entry] === 1);
  const rawSame = posterior[0];
  const travel = posterior[1];
  const same = scoring.uncalibrated ? rawSame : calibrated('co_location', rawSame);
  let terms: BleCoLocationTerm[] | undefined;
  if (rawSame >= DESCRIBE_ABOVE || travel >= DESCRIBE_ABOVE) {
    // The pair's terms again (they were not kept: only the few reported pairs need them).
    scorePair(series[a], series[b], a, b, scoring.masked, scoring.events, receivers, from, to, scoring.floors, scoring.handoffCrowd, scoring.work);
    terms = describePair(receivers, scoring.receiverNames, scoring.work.evidence, scoring.work.perReceiver, scoring.work.background);
    terms.push(oneRadioTerm(scoring.work.evidence, scoring.trackerOf[a], scoring.trackerOf[b]));
    const priorS = Math.log(lambda / crowd);
    const priorT = Math.log(mu / crowd);
    terms.unshift({
      name: 'prior',
      llrSame: priorS,
      llrTravel: priorT,
      text: `${Math.round(crowd)} chains active alongside; this capture's fitted rates: ${lambda.toFixed(2)} sibling sets and ${mu.toFixed(2)} companions per chain (same device ${signed(priorS)}, travelled together ${signed(priorT)})`,
    });
  }
  const middle = (from + to) / 2;
  const [memberA, memberB] = terms || same > 0.5 || travel > 0.5 ? mostOverlapping(chains[a], chains[b], addresses) : [activeAt(chains[a], addresses, middle), activeAt(chains[b], addresses, middle)];
  const evidenceS = scoring.scoredLogS[entry];
  const evidenceT = scoring.scoredLogT[entry];
  const mayBeOne = scoring.scoredOneRadio[entry] === 1;
  return { a, b, same, rawSame, travel, evidenceS, evidenceT, crowd, mayBeOne, overlapFromMs: from, overlapToMs: to, memberA, memberB, terms };
}

function overlapFromOf(a: BleChain, b: BleChain): number {
  return Math.max(a.firstMs, b.firstMs);
}

function overlapToOf(a: BleChain, b: BleChain): number {
  return Math.min(a.lastMs, b.lastMs);
}

