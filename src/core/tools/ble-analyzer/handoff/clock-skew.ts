import type { ToolWarning } from '../../../contract/tool-error.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import type { BleAddressProfile, BleProfileReceivers } from '../profile/address-profiles.ts';
import { toFixedOne } from '../shared/fixed-one.ts';
import { OVERLAP_TOLERANCE_S } from './handoff-model.ts';

/**
 * The clock skew between receivers, measured from the addresses several of them heard: for
 * each such address and pair of receivers (r, s), the mean of (s's first packet − r's first)
 * and (s's last − r's last) is s's clock offset from r, give or take a few advertising intervals
 * (kept when the two agree within CONSISTENT_ENDS_MS: an address heard through its whole life by
 * both). The median over addresses, in each half of the capture (the
 * clocks drift), is the pair's offset; the largest |offset| over pairs with enough addresses is
 * the skew the hand-off linkage adds to its overlap tolerance (handoff-model.ts
 * overlapToleranceS): a hand-off heard by two receivers whose clocks disagree by 3 s looks like
 * 3 s of overlap.
 */

/** Packets an address needs on each of two receivers to say something about their clocks. */
const MIN_PACKETS = 5;
/** Addresses a pair of receivers (in one half of the capture) needs for its median to count. */
const MIN_ADDRESSES = 5;
/** How far the start and end offsets of one address may disagree and still measure the clocks. */
const CONSISTENT_ENDS_MS = 2_000;
/** The sweep reaches this far back (OVERLAP_LIMIT_S); a larger measured skew is not believed. */
const MAX_SKEW_MS = 30_000;

export function measureClockSkewMs(events: BleEventGroups, profiles: ReadonlyArray<BleAddressProfile | undefined>, receivers: BleProfileReceivers, receiverCount: number): number {
  if (receiverCount < 2) return 0;
  const first = new Float64Array(receiverCount);
  const last = new Float64Array(receiverCount);
  const count = new Int32Array(receiverCount);
  // Samples per (receiver pair, half): offset of the higher id from the lower.
  const samples: number[][] = Array.from({ length: receiverCount * receiverCount * 2 }, () => []);
  let start = Infinity;
  let end = -Infinity;
  for (const profile of profiles) {
    if (!profile) continue;
    start = Math.min(start, profile.firstMs);
    end = Math.max(end, profile.lastMs);
  }
  const middle = (start + end) / 2;
  for (let id = 0; id < profiles.length; id++) {
    const profile = profiles[id];
    if (!profile || receivers.from[profile.id + 1] - receivers.from[profile.id] < 2) continue;
    first.fill(Infinity);
    last.fill(-Infinity);
    count.fill(0);
    for (let event = events.start[id]; event < events.start[id + 1]; event++) {
      const receiver = events.receiver[event];
      const time = events.time[event];
      if (time < first[receiver]) first[receiver] = time;
      if (time > last[receiver]) last[receiver] = time;
      count[receiver]++;
    }
    const half = (profile.firstMs + profile.lastMs) / 2 < middle ? 0 : 1;
    for (let r = 0; r < receiverCount; r++) {
      if (count[r] < MIN_PACKETS) continue;
      for (let s = r + 1; s < receiverCount; s++) {
        if (count[s] < MIN_PACKETS) continue;
        // A clock offset moves both ends alike; a device walking from one receiver's coverage to
        // the other's moves them apart, and says nothing about the clocks.
        const startOffset = first[s] - first[r];
        const endOffset = last[s] - last[r];
        if (Math.abs(startOffset - endOffset) > CONSISTENT_ENDS_MS) continue;
        samples[(r * receiverCount + s) * 2 + half].push((startOffset + endOffset) / 2);
      }
    }
  }
  let skew = 0;
  for (const list of samples) {
    if (list.length < MIN_ADDRESSES) continue;
    list.sort((x, y) => x - y);
    const median = list.length % 2 === 1 ? list[(list.length - 1) / 2] : (list[list.length / 2 - 1] + list[list.length / 2]) / 2;
    skew = Math.max(skew, Math.abs(median));
  }
  return Math.min(skew, MAX_SKEW_MS);
}

/** The skew in words, when it widens the tolerance by more than the tolerance itself. */
export function clockSkewWarnings(skewMs: number): ToolWarning[] {
  if (skewMs <= OVERLAP_TOLERANCE_S * 1000) return [];
  return [
    {
      code: 'RECEIVER_CLOCK_SKEW',
      message: `receiver clocks disagree by up to ${toFixedOne(skewMs / 1000)} s (measured from addresses several receivers heard): hand-offs tolerate ${toFixedOne(OVERLAP_TOLERANCE_S + skewMs / 1000)} s of overlap instead of ${OVERLAP_TOLERANCE_S} s`,
    },
  ];
}
