/**
 * The `group_walk` family: people walking together 1–3 m apart, each with a phone (iOS-like, or
 * an Android-like phone with 2–3 concurrent sets) and 0–2 carried companions (a watch, earbuds,
 * a tag). Everyone in the group shares one path; what separates them is their own place in the
 * group (which shifts a little at every stop), their own radios and, for the carried devices,
 * only what the radio features give (docs/ble-scenarios.md, "Families").
 */
import type { SeededRandom } from '../seeded-random.ts';
import { buildProfileDevice, earbudsDevice, trackerDevice, uniformBetween, watchDevice, type BleProfileContext, type BleProfileDevice } from './ble-device-profiles.ts';
import type { BleDevicePlan, BleMotion, BleTravelGroup } from './ble-plan-types.ts';
import type { BleScenarioConfig } from './ble-scenarios.ts';

export interface BleGroupWalkKnobs {
  people: number;
  /** People per row of the formation; neighbours stand `spacingM` apart (±0.5 m). */
  perRow: number;
  spacingM: number;
  /** Companions per person, inclusive range. */
  companions: [number, number];
}

const SECOND = 1000;

/** The group's centre: random waypoints that keep the whole formation on the floor, walking 0.5–1.2 m/s, pausing 0–120 s. */
function groupPath(random: SeededRandom, fromMs: number, toMs: number, floor: { width: number; depth: number }, margin: { x: number; y: number }): BleMotion {
  const point = (): [number, number] => [uniformBetween(random, margin.x, floor.width - margin.x), uniformBetween(random, margin.y, floor.depth - margin.y)];
  const [x0, y0] = point();
  const motion: BleMotion = { t: [fromMs], x: [x0], y: [y0] };
  let t = fromMs;
  while (t < toMs) {
    const last = motion.t.length - 1;
    const [x, y] = point();
    t += (Math.hypot(x - motion.x[last], y - motion.y[last]) / uniformBetween(random, 0.5, 1.2)) * SECOND;
    motion.t.push(t);
    motion.x.push(x);
    motion.y.push(y);
    t += random.uniform() * 120 * SECOND;
    motion.t.push(t);
    motion.x.push(x);
    motion.y.push(y);
  }
  return motion;
}

/**
 * Adds the group's people and their devices to `devices`, and their travel groups: one `carried`
 * group per person with companions, one `group` group with every device of the walk.
 */
export function planGroupWalk(
  knobs: BleGroupWalkKnobs,
  config: BleScenarioConfig,
  context: BleProfileContext,
  devices: BleDevicePlan[],
  travelGroups: BleTravelGroup[],
  floor: { width: number; depth: number },
): void {
  const { random } = context;
  const rows = Math.ceil(knobs.people / knobs.perRow);
  const margin = { x: ((knobs.perRow - 1) * knobs.spacingM) / 2 + 1.5, y: ((rows - 1) * knobs.spacingM) / 2 + 1.5 };
  const centre = groupPath(random, context.fromMs, context.toMs, floor, margin);
  const walkers: number[] = [];
  const add = (built: BleProfileDevice, profile: BleDevicePlan['profile'], templateId: string, motion: BleMotion, shadowingOf?: number): number => {
    devices.push({
      ...(shadowingOf !== undefined ? { shadowingOf } : {}),
      ...(built.synchronizedSets !== undefined ? { synchronizedSets: built.synchronizedSets } : {}),
      deviceId: `dev-${String(devices.length + 1).padStart(3, '0')}`,
      profile,
      deviceClass: built.deviceClass,
      templateId,
      powerAt1mDbm: built.powerAt1mDbm,
      txPowerDbm: built.txPowerDbm,
      sets: built.sets,
      motion,
      presentFromMs: context.fromMs,
      presentToMs: context.toMs,
    });
    walkers.push(devices.length - 1);
    return devices.length - 1;
  };
  const model = (kind: string) => `${kind}-model-${1 + Math.floor(random.uniform() * config.modelsPerProfile)}`;
  for (let person = 0; person < knobs.people; person++) {
    // A place in the formation; at every waypoint the person drifts up to 0.4 m from it.
    const column = person % knobs.perRow;
    const row = Math.floor(person / knobs.perRow);
    const slotX = (column - (knobs.perRow - 1) / 2) * knobs.spacingM + uniformBetween(random, -0.5, 0.5);
    const slotY = (row - (rows - 1) / 2) * knobs.spacingM + uniformBetween(random, -0.5, 0.5);
    const jitter = centre.t.map(() => [uniformBetween(random, -0.4, 0.4), uniformBetween(random, -0.4, 0.4)] as const);
    const path: BleMotion = { t: centre.t.slice(), x: centre.x.map((x, i) => x + slotX + jitter[i][0]), y: centre.y.map((y, i) => y + slotY + jitter[i][1]) };
    const profile = random.uniform() < 0.5 ? 'ios' : 'android';
    const phoneModel = model(profile);
    const phone = add(buildProfileDevice(context, profile, phoneModel, person), profile, phoneModel, path);
    const carried = [phone];
    const count = knobs.companions[0] + Math.floor(random.uniform() * (knobs.companions[1] - knobs.companions[0] + 1));
    for (let companion = 0; companion < count; companion++) {
      const kind = (['watch', 'earbuds', 'tag'] as const)[Math.min(2, Math.floor(random.uniform() * 3))];
      const templateId = model(kind);
      const built = kind === 'watch' ? watchDevice(context, templateId) : kind === 'earbuds' ? earbudsDevice(context, templateId) : trackerDevice(context, templateId);
      const dx = uniformBetween(random, -0.5, 0.5);
      const dy = uniformBetween(random, -0.5, 0.5);
      const motion: BleMotion = { t: path.t.slice(), x: path.x.map((x) => x + dx), y: path.y.map((y) => y + dy) };
      carried.push(add(built, kind === 'tag' ? 'tracker' : 'wearable', templateId, motion, config.carriedShadowing === 'carrier' ? phone : undefined));
    }
    if (carried.length > 1) travelGroups.push({ devices: carried, fromMs: context.fromMs, toMs: context.toMs, kind: 'carried' });
  }
  travelGroups.push({ devices: walkers, fromMs: context.fromMs, toMs: context.toMs, kind: 'group' });
}
