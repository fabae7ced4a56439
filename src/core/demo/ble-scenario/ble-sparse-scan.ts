/**
 * The `sparse_scan` family's receiver: a phone-side observer that scans for 20–30 s about every
 * 15 minutes (an app's periodic background scan), hearing every advertisement while it scans and
 * nothing in between. Modelled as receiver gaps: everything outside the scan windows.
 */
import type { SeededRandom } from '../seeded-random.ts';
import { uniformBetween } from './ble-device-profiles.ts';
import type { BleReceiverPlan } from './ble-plan-types.ts';

export interface BleScanDutyKnobs {
  /** Time from one scan's start to the next, s, ± `periodJitterS`. */
  periodS: number;
  periodJitterS: number;
  /** Scan length, s (inclusive range). */
  windowS: [number, number];
}

/** The scan windows of one receiver over [fromMs, toMs] (true time). */
export function scanWindows(knobs: BleScanDutyKnobs, random: SeededRandom, fromMs: number, toMs: number): Array<{ startMs: number; endMs: number }> {
  const windows: Array<{ startMs: number; endMs: number }> = [];
  for (let start = fromMs + random.uniform() * knobs.periodS * 1000; start < toMs; start += (knobs.periodS + uniformBetween(random, -1, 1) * knobs.periodJitterS) * 1000) {
    windows.push({ startMs: start, endMs: Math.min(toMs, start + uniformBetween(random, knobs.windowS[0], knobs.windowS[1]) * 1000) });
  }
  return windows;
}

/** Makes every receiver duty-cycled: its gaps become everything outside its own scan windows. */
export function planSparseScan(knobs: BleScanDutyKnobs, random: SeededRandom, receivers: BleReceiverPlan[], fromMs: number, toMs: number): void {
  for (const receiver of receivers) {
    const windows = scanWindows(knobs, random, fromMs, toMs);
    const gaps: Array<{ startMs: number; endMs: number }> = [];
    let from = fromMs - 1;
    for (const window of windows) {
      if (window.startMs > from) gaps.push({ startMs: from, endMs: window.startMs });
      from = window.endMs;
    }
    gaps.push({ startMs: from, endMs: toMs + 1 });
    receiver.gaps = gaps;
  }
}
