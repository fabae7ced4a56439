/**
 * The `handover` family: receivers along a corridor whose coverages do not overlap, and devices
 * that walk from one receiver's coverage to the next (staying a while in each), or stay in one.
 * Receiver clocks are offset by up to seconds and drift (the scenario's clock knobs), so a
 * device leaving one receiver and reaching the next is seen on two clocks that disagree.
 */
import type { SeededRandom } from '../seeded-random.ts';
import { uniformBetween } from './ble-device-profiles.ts';
import type { BleDevicePlan, BleMotion, BleReceiverPlan } from './ble-plan-types.ts';

export interface BleHandoverKnobs {
  /** Distance between neighbouring receivers along the corridor, m. */
  spacingM: number;
  /** Corridor depth, m. */
  depthM: number;
  /** Receivers hear nothing weaker, dBm (sets each coverage's radius: 8–20 m at −80 dBm, by the device's power and shadowing). */
  sensitivityDbm: number;
  /** Share of devices that walk between zones; the rest stay in one. */
  walkerShare: number;
  /** Stay in a zone, s (inclusive range). */
  stayS: [number, number];
}

const SECOND = 1000;

function spotIn(random: SeededRandom, knobs: BleHandoverKnobs, zone: number): [number, number] {
  return [(zone + 0.5) * knobs.spacingM + uniformBetween(random, -0.15, 0.15) * knobs.spacingM, uniformBetween(random, 1, knobs.depthM - 1)];
}

/** Zone to zone: stay, walk 0.8–1.4 m/s to a spot in a neighbouring zone, stay, and so on. */
function zoneWalk(random: SeededRandom, knobs: BleHandoverKnobs, zones: number, fromMs: number, toMs: number): BleMotion {
  let zone = Math.min(zones - 1, Math.floor(random.uniform() * zones));
  const [x0, y0] = spotIn(random, knobs, zone);
  const motion: BleMotion = { t: [fromMs], x: [x0], y: [y0] };
  let t = fromMs + uniformBetween(random, 0, knobs.stayS[1]) * SECOND;
  motion.t.push(t);
  motion.x.push(x0);
  motion.y.push(y0);
  while (t < toMs) {
    zone = zone === 0 ? 1 : zone === zones - 1 ? zones - 2 : zone + (random.uniform() < 0.5 ? -1 : 1);
    const [x, y] = spotIn(random, knobs, zone);
    const last = motion.t.length - 1;
    t += (Math.hypot(x - motion.x[last], y - motion.y[last]) / uniformBetween(random, 0.8, 1.4)) * SECOND;
    motion.t.push(t);
    motion.x.push(x);
    motion.y.push(y);
    t += uniformBetween(random, knobs.stayS[0], knobs.stayS[1]) * SECOND;
    motion.t.push(t);
    motion.x.push(x);
    motion.y.push(y);
  }
  return motion;
}

/**
 * Moves the receivers onto a corridor `receivers × spacingM` long (receiver i mid-depth in the
 * middle of zone i) and gives every device a zone walk or a spot in one zone. */
export function planHandover(knobs: BleHandoverKnobs, random: SeededRandom, devices: BleDevicePlan[], receivers: BleReceiverPlan[], fromMs: number, toMs: number): void {
  if (receivers.length < 2) throw new Error('handover needs at least 2 receivers');
  receivers.forEach((receiver, index) => {
    receiver.x = (index + 0.5) * knobs.spacingM;
    receiver.y = knobs.depthM / 2;
    receiver.sensitivityDbm = knobs.sensitivityDbm;
  });
  for (const device of devices) {
    if (random.uniform() < knobs.walkerShare) {
      device.motion = zoneWalk(random, knobs, receivers.length, fromMs, toMs);
    } else {
      const [x, y] = spotIn(random, knobs, Math.min(receivers.length - 1, Math.floor(random.uniform() * receivers.length)));
      device.motion = { t: [fromMs], x: [x], y: [y] };
    }
  }
}
