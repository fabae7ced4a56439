/**
 * Draws a scenario's devices, receivers and noise from its knobs and a seed. Everything random
 * comes from one seeded stream, so a (scenario, seed) pair always gives the same plan.
 */
import { seededRandom, type SeededRandom } from '../seeded-random.ts';
import { BleAddressPool } from './ble-address.ts';
import { planGroupWalk } from './ble-group-walk.ts';
import { planHandover } from './ble-handover.ts';
import { planSparseScan } from './ble-sparse-scan.ts';
import { planTrackers } from './ble-tracker-tags.ts';
import { bleAhFor } from '../../tools/ble-analyzer/shared/ah.ts';
import { buildProfileDevice, earbudsDevice, rotatingEpochs, trackerDevice, trackerLifetime, uniformBetween, watchDevice, type BleProfileContext, type BleProfileDevice } from './ble-device-profiles.ts';
import type { BleDevicePlan, BleDeviceProfile, BleMotion, BlePopulationProfile, BleReceiverPlan, BleScenarioPlan, BleTravelGroup } from './ble-plan-types.ts';
import type { BleScenarioConfig } from './ble-scenarios.ts';

/** The floor the devices and receivers are on, metres. */
export const BLE_FLOOR = { width: 40, depth: 20 } as const;

const PROFILE_ORDER: readonly BlePopulationProfile[] = ['ios', 'android', 'windows', 'tracker', 'wearable', 'public_beacon', 'static_beacon', 'nrpa_broadcaster'];

/** Receivers spread over the floor: the first four at fixed spots, more at random ones. */
const RECEIVER_SPOTS: ReadonlyArray<[number, number]> = [
  [8, 10],
  [32, 10],
  [20, 2],
  [20, 18],
];

function receivers(config: BleScenarioConfig, random: SeededRandom, startMs: number, endMs: number): BleReceiverPlan[] {
  const sharedGaps = drawGaps(config.sharedGaps, config, random, startMs, endMs);
  return Array.from({ length: config.receivers }, (_, index) => {
    const [x, y] = RECEIVER_SPOTS[index] ?? [random.uniform() * BLE_FLOOR.width, random.uniform() * BLE_FLOOR.depth];
    const loss = (): number => random.uniform() * config.maxChannelLoss;
    return {
      name: `rx-${index + 1}`,
      x,
      y,
      clockOffsetMs: uniformBetween(random, -1, 1) * config.maxClockOffsetMs,
      driftPpm: uniformBetween(random, -1, 1) * config.maxDriftPpm,
      gaps: [...sharedGaps, ...drawGaps(config.gapsPerReceiver, config, random, startMs, endMs)].sort((a, b) => a.startMs - b.startMs),
      channelLoss: [loss(), loss(), loss()],
      sensitivityDbm: -98,
    };
  });
}

function drawGaps(count: number, config: BleScenarioConfig, random: SeededRandom, startMs: number, endMs: number): Array<{ startMs: number; endMs: number }> {
  return Array.from({ length: count }, () => {
    const length = uniformBetween(random, config.gapS[0], config.gapS[1]) * 1000;
    const start = startMs + random.uniform() * (endMs - startMs - length);
    return { startMs: start, endMs: start + length };
  });
}

/** Random waypoint: walk at 0.5–1.5 m/s to a random point, pause 0–60 s, repeat. */
function walk(random: SeededRandom, fromMs: number, toMs: number): BleMotion {
  const motion: BleMotion = { t: [fromMs], x: [random.uniform() * BLE_FLOOR.width], y: [random.uniform() * BLE_FLOOR.depth] };
  let t = fromMs;
  while (t < toMs) {
    const last = motion.t.length - 1;
    const x = random.uniform() * BLE_FLOOR.width;
    const y = random.uniform() * BLE_FLOOR.depth;
    t += (Math.hypot(x - motion.x[last], y - motion.y[last]) / uniformBetween(random, 0.5, 1.5)) * 1000;
    motion.t.push(t);
    motion.x.push(x);
    motion.y.push(y);
    t += random.uniform() * 60_000;
    motion.t.push(t);
    motion.x.push(x);
    motion.y.push(y);
  }
  return motion;
}

function stay(random: SeededRandom, fromMs: number): BleMotion {
  return { t: [fromMs], x: [random.uniform() * BLE_FLOOR.width], y: [random.uniform() * BLE_FLOOR.depth] };
}

/** Arrives late, leaves early, or both (a third each), or is there all along. */
function presence(random: SeededRandom, transient: boolean, startMs: number, endMs: number): { from: number; to: number } {
  if (!transient) return { from: startMs, to: endMs };
  const span = endMs - startMs;
  const kind = Math.floor(random.uniform() * 3);
  const from = kind === 1 ? startMs : startMs + uniformBetween(random, 0.1, 0.5) * span;
  const to = kind === 0 ? endMs : Math.max(from + 0.25 * span, startMs + uniformBetween(random, 0.5, 0.9) * span);
  return { from, to: Math.min(endMs, to) };
}

/** The whole plan of a scenario. */
export function planBleScenario(config: BleScenarioConfig, seed: number, startMs: number): BleScenarioPlan {
  const random = seededRandom(seed);
  const endMs = startMs + config.durationS * 1000;
  const pool = new BleAddressPool(random);
  const payloads: Uint8Array[] = [];
  const templates = new Map<string, Uint8Array>();
  const context: BleProfileContext = {
    random,
    pool,
    payload(bytes) {
      payloads.push(bytes);
      return payloads.length - 1;
    },
    templateBytes(templateId, length) {
      let bytes = templates.get(templateId);
      if (!bytes || bytes.length < length) {
        bytes = Uint8Array.from({ length: Math.max(length, 16) }, () => Math.floor(random.uniform() * 256));
        templates.set(templateId, bytes);
      }
      return bytes.subarray(0, length);
    },
    fromMs: startMs,
    toMs: endMs,
    rotation: config.rotation,
    ratePerS: config.observationRatePerS,
    androidSets: config.androidSets,
    androidTimers: config.androidTimers,
  };

  const devices: BleDevicePlan[] = [];
  const addDevice = (profile: BleDeviceProfile, templateId: string, built: BleProfileDevice, transient: boolean, irk?: Uint8Array): void => {
    const present = presence(random, transient, startMs, endMs);
    const mobile = random.uniform() < config.mobileShare;
    const extra: Partial<BleDevicePlan> = {};
    if (built.synchronizedSets !== undefined) extra.synchronizedSets = built.synchronizedSets;
    if (irk) extra.irk = irk;
    devices.push({
      ...extra,
      deviceId: `dev-${String(devices.length + 1).padStart(3, '0')}`,
      profile,
      deviceClass: built.deviceClass,
      templateId,
      powerAt1mDbm: built.powerAt1mDbm,
      txPowerDbm: built.txPowerDbm,
      sets: built.sets,
      motion: mobile ? walk(random, startMs, endMs) : stay(random, startMs),
      presentFromMs: present.from,
      presentToMs: present.to,
    });
  };

  // Phones with a real IRK: the first ⌈n/2⌉ iOS-like and ⌊n/2⌋ Android-like ones.
  const keyed = (profile: BleDeviceProfile, index: number): boolean =>
    (profile === 'ios' && index < Math.ceil(config.irkDevices / 2)) || (profile === 'android' && index < Math.floor(config.irkDevices / 2));
  for (const profile of PROFILE_ORDER) {
    for (let index = 0; index < config.population[profile]; index++) {
      const templateId = `${profile}-model-${1 + Math.floor(random.uniform() * config.modelsPerProfile)}`;
      let irk: Uint8Array | undefined;
      if (config.irkDevices > 0 && keyed(profile, index)) {
        irk = Uint8Array.from({ length: 16 }, () => Math.floor(random.uniform() * 256));
        const ahOf = bleAhFor(irk);
        context.hashOf = (prand) => {
          const hash = ahOf((prand[0] << 16) | (prand[1] << 8) | prand[2]);
          return Uint8Array.of((hash >>> 16) & 0xff, (hash >>> 8) & 0xff, hash & 0xff);
        };
      }
      const built = buildProfileDevice(context, profile, templateId, index);
      context.hashOf = undefined;
      addDevice(profile, templateId, built, random.uniform() < config.transientShare, irk);
    }
  }

  const travelGroups: BleTravelGroup[] = [];
  if (config.companions > 0) {
    // Carriers: the first phones (iOS-like, then Android-like). Each walks, and 1–2 companions
    // follow its path within half a metre for its whole stay; each companion keeps its own
    // radio (its own shadowing per receiver, its own timer).
    const phones = devices.map((device, index) => ({ device, index })).filter(({ device }) => device.deviceClass === 'phone');
    const carriers = phones.slice(0, config.companions);
    const kinds = ['watch', 'earbuds', 'tag'] as const;
    carriers.forEach(({ device: carrier, index: carrierIndex }, carrierNumber) => {
      carrier.motion = walk(random, startMs, endMs);
      const group: number[] = [carrierIndex];
      const count = 1 + Math.floor(random.uniform() * 2);
      for (let companion = 0; companion < count; companion++) {
        const kind = kinds[(carrierNumber + companion) % kinds.length];
        const templateId = `${kind}-model-${1 + Math.floor(random.uniform() * config.modelsPerProfile)}`;
        const built = kind === 'watch' ? watchDevice(context, templateId) : kind === 'earbuds' ? earbudsDevice(context, templateId) : trackerDevice(context, templateId);
        const dx = uniformBetween(random, -0.5, 0.5);
        const dy = uniformBetween(random, -0.5, 0.5);
        group.push(devices.length);
        devices.push({
          ...(config.carriedShadowing === 'carrier' ? { shadowingOf: carrierIndex } : {}),
          deviceId: `dev-${String(devices.length + 1).padStart(3, '0')}`,
          profile: kind === 'tag' ? 'tracker' : 'wearable',
          deviceClass: built.deviceClass,
          templateId,
          powerAt1mDbm: built.powerAt1mDbm,
          txPowerDbm: built.txPowerDbm,
          sets: built.sets,
          motion: { t: carrier.motion.t.slice(), x: carrier.motion.x.map((x) => x + dx), y: carrier.motion.y.map((y) => y + dy) },
          presentFromMs: carrier.presentFromMs,
          presentToMs: carrier.presentToMs,
        });
      }
      travelGroups.push({ devices: group, fromMs: Math.max(startMs, carrier.presentFromMs), toMs: Math.min(endMs, carrier.presentToMs) });
    });
  }

  if (config.groupWalk) planGroupWalk(config.groupWalk, config, context, devices, travelGroups, BLE_FLOOR);

  if (config.trackers) planTrackers(config.trackers, config, context, devices, travelGroups, BLE_FLOOR);

  if (config.crowd) {
    // One rotation schedule for the whole crowd; each twin rotates within 1 s of it.
    const shared = rotatingEpochs(context, 'rpa', trackerLifetime(context));
    const templateId = `${config.crowd.profile}-crowd`;
    for (let twin = 0; twin < config.crowd.size; twin++) {
      const offset = random.uniform() * 1000;
      const epochs = shared.map((epoch) => ({ address: pool.next('rpa'), startMs: epoch.startMs + offset, endMs: epoch.endMs + offset }));
      addDevice('tracker', templateId, trackerDevice(context, templateId, epochs), false);
    }
  }

  const planned = receivers(config, random, startMs, endMs);
  if (config.handover) planHandover(config.handover, random, devices, planned, startMs, endMs);
  if (config.scanDuty) planSparseScan(config.scanDuty, random, planned, startMs, endMs);

  return {
    startMs,
    endMs,
    devices,
    receivers: planned,
    radio: {
      pathLossExponent: 2.2,
      shadowingDb: config.shadowingDb,
      fadingDb: config.fadingDb,
      multipathDb: config.multipathDb,
      advertisingClock: config.advertisingClock,
      ...(config.advertisingClock ? {} : { timestampResolutionMs: 1 }),
      crcBadRate: config.crcBadRate,
      crcAddressShare: config.crcAddressShare,
    },
    payloads,
    travelGroups,
  };
}
