/**
 * The `trackers` family: tracker tags of three public kinds, carried by a phone or left alone,
 * over a capture longer than a day (docs/ble-scenarios.md, "Families", cites each format).
 *
 * - **Find My-style, separated mode** (OpenHaystack's offline-finding advertisement): the address
 *   is the first six bytes of the day's public key with the top two bits set (random-static
 *   looking), the manufacturer data is Apple's (0x004C) type 0x12, length 0x19: a status byte, key
 *   bytes 6–27, the key's top two bits, a hint byte. The key changes once a day (at 04:00 here);
 *   the tag is silent for about 2 s while it swaps; status byte and template stay the same.
 * - **FMDN-style** (Google's Find Hub / Find My Device Network accessory frame on the Eddystone
 *   UUID 0xFEAA): frame type 0x40 (0x41 in unwanted-tracking-protection mode), a 20-byte
 *   ephemeral identifier and a hashed flags byte; identifier and address rotate every 1024 s.
 * - **SmartTag-style** (Samsung offline finding, service data UUID 0xFD5A): a state byte, an aging
 *   counter (3 bytes, little-endian) that steps by one per rotation, an 8-byte privacy id, a flags
 *   byte and a 4-byte signature; privacy id, signature and address change about every 15 min.
 *
 * The payload bytes are random stand-ins for the keys and hashes (no cryptography): only their
 * layout, lengths and what stays or changes across a rotation matter to a linker.
 */
import { ADV_TYPE } from '../../data/ble/adv-types.ts';
import type { SeededRandom } from '../seeded-random.ts';
import { buildProfileDevice, emitInterval, uniformBetween, type BleProfileContext, type BleProfileDevice } from './ble-device-profiles.ts';
import { BLE_COMPANY, BLE_SERVICE, bleAdBytes } from './ble-payloads.ts';
import type { BleAddressEpoch, BleAdvertisingSet, BleDevicePlan, BleDeviceProfile, BleMotion, BlePayloadChange, BleTravelGroup } from './ble-plan-types.ts';
import type { BleScenarioConfig } from './ble-scenarios.ts';

export interface BleTrackerKnobs {
  /** Tags of each kind: carried by a phone, and left alone (static). */
  findMy: { carried: number; alone: number };
  fmdn: { carried: number; alone: number };
  smartTag: { carried: number; alone: number };
  /** Observations per second per tag and receiver (the phones use the scenario's rate). */
  tagRatePerS: number;
  /** Find My-style tags swap keys at this hour of the day (UTC here), plus up to `swapSpreadS` per tag. */
  swapHourUtc: number;
  swapSpreadS: number;
}

const SECOND = 1000;
const DAY = 86_400 * SECOND;
/** FMDN rotation: 2^10 s. */
export const BLE_FMDN_ROTATION_MS = 1024 * SECOND;
/** The Find My-style tag's silence while it swaps keys, ms (about 2 s). */
export const BLE_FIND_MY_SWAP_GAP_MS: readonly [number, number] = [1500, 2500];

function bytes(random: SeededRandom, count: number): number[] {
  return Array.from({ length: count }, () => Math.floor(random.uniform() * 256));
}

function tagSet(epochs: BleAddressEpoch[], payloads: BlePayloadChange[], advIntervalMs: number, ratePerS: number): BleAdvertisingSet {
  return { epochs, payloads, advIntervalMs, emitIntervalMs: emitInterval(advIntervalMs, ratePerS), advType: ADV_TYPE.ADV_NONCONN_IND };
}

/**
 * Find My-style tag in separated mode: one key per day, swapped at `swapAtMs` + k days; the new
 * address starts 1.5–2.5 s after the old one stops. The status byte is the tag's own and stays.
 */
function findMyTag(context: BleProfileContext, swapAtMs: number, ratePerS: number): BleProfileDevice {
  const { random } = context;
  const status = [0x10, 0x50, 0x90][Math.min(2, Math.floor(random.uniform() * 3))];
  const epochs: BleAddressEpoch[] = [];
  const payloads: BlePayloadChange[] = [];
  let first = swapAtMs;
  while (first > context.fromMs) first -= DAY;
  for (let start = first; start <= context.toMs; start += DAY) {
    const address = context.pool.next('random_static');
    const keyTopBits = Math.floor(random.uniform() * 4);
    // Key bytes 6–27 follow the six the address shows; the top two bits of key byte 0 go in their own byte.
    const payload = context.payload(
      bleAdBytes({ manufacturer: { companyId: BLE_COMPANY.apple, data: [0x12, 0x19, status, ...bytes(random, 22), keyTopBits, 0x00] } }),
    );
    const gap = epochs.length === 0 ? 0 : uniformBetween(random, BLE_FIND_MY_SWAP_GAP_MS[0], BLE_FIND_MY_SWAP_GAP_MS[1]);
    epochs.push({ address, startMs: start + gap, endMs: start + DAY });
    payloads.push({ fromMs: payloads.length === 0 ? Number.NEGATIVE_INFINITY : start + gap, payload });
  }
  return { deviceClass: 'tag', powerAt1mDbm: uniformBetween(random, -66, -60), txPowerDbm: 0, sets: [tagSet(epochs, payloads, 2000, ratePerS)] };
}

/** Back-to-back epochs of a fixed period with a random phase, and a payload made per epoch. */
function periodicEpochs(context: BleProfileContext, periodMs: () => number, make: (index: number) => number): { epochs: BleAddressEpoch[]; payloads: BlePayloadChange[] } {
  const epochs: BleAddressEpoch[] = [];
  const payloads: BlePayloadChange[] = [];
  const firstPeriod = periodMs();
  let start = context.fromMs - context.random.uniform() * firstPeriod;
  let period = firstPeriod;
  while (start <= context.toMs) {
    epochs.push({ address: context.pool.next('rpa'), startMs: start, endMs: start + period });
    payloads.push({ fromMs: payloads.length === 0 ? Number.NEGATIVE_INFINITY : start, payload: make(epochs.length - 1) });
    start += period;
    period = periodMs();
  }
  return { epochs, payloads };
}

/** FMDN-style tag: the ephemeral identifier, its hashed flags and the address rotate together every 1024 s. */
function fmdnTag(context: BleProfileContext, protectionMode: boolean, ratePerS: number): BleProfileDevice {
  const { random } = context;
  const frame = protectionMode ? 0x41 : 0x40;
  const { epochs, payloads } = periodicEpochs(
    context,
    () => BLE_FMDN_ROTATION_MS,
    () => context.payload(bleAdBytes({ flags: 0x06, serviceData: { uuid16: BLE_SERVICE.eddystone, data: [frame, ...bytes(random, 20), ...bytes(random, 1)] } })),
  );
  return { deviceClass: 'tag', powerAt1mDbm: uniformBetween(random, -66, -60), txPowerDbm: 0, sets: [tagSet(epochs, payloads, 2000, ratePerS)] };
}

/**
 * SmartTag-style tag: about every 15 min (900 s ± 2 s) a new address, privacy id and signature,
 * and the aging counter steps by one. The state and flags bytes are the tag's own.
 */
function smartTag(context: BleProfileContext, ratePerS: number): BleProfileDevice {
  const { random } = context;
  const state = [0x40, 0x60, 0x20][Math.min(2, Math.floor(random.uniform() * 3))];
  const flags = 0xc0 | Math.floor(random.uniform() * 0x10);
  const counterStart = 0x1000 + Math.floor(random.uniform() * 0x8000);
  const { epochs, payloads } = periodicEpochs(
    context,
    () => uniformBetween(random, 898, 902) * SECOND,
    (index) => {
      const counter = counterStart + index;
      return context.payload(
        bleAdBytes({
          flags: 0x06,
          serviceData: { uuid16: BLE_SERVICE.samsungOfflineFinding, data: [state, counter & 0xff, (counter >> 8) & 0xff, (counter >> 16) & 0xff, ...bytes(random, 8), flags, ...bytes(random, 4)] },
        }),
      );
    },
  );
  return { deviceClass: 'tag', powerAt1mDbm: uniformBetween(random, -66, -60), txPowerDbm: 0, sets: [tagSet(epochs, payloads, 1000, ratePerS)] };
}

/** Random waypoint walk over the whole span on the floor (0.5–1.5 m/s, pauses 0–10 min). */
function longWalk(random: SeededRandom, fromMs: number, toMs: number, floor: { width: number; depth: number }): BleMotion {
  const motion: BleMotion = { t: [fromMs], x: [random.uniform() * floor.width], y: [random.uniform() * floor.depth] };
  let t = fromMs;
  while (t < toMs) {
    const last = motion.t.length - 1;
    const x = random.uniform() * floor.width;
    const y = random.uniform() * floor.depth;
    t += (Math.hypot(x - motion.x[last], y - motion.y[last]) / uniformBetween(random, 0.5, 1.5)) * SECOND;
    motion.t.push(t, t + random.uniform() * 600 * SECOND);
    motion.x.push(x, x);
    motion.y.push(y, y);
    t = motion.t[motion.t.length - 1];
  }
  return motion;
}

/**
 * Adds the tags, and a phone (iOS-like and multi-set Android-like in turn) for every carried tag,
 * which the tag follows within half a metre for the whole span (a `carried` travel group).
 */
export function planTrackers(knobs: BleTrackerKnobs, config: BleScenarioConfig, context: BleProfileContext, devices: BleDevicePlan[], travelGroups: BleTravelGroup[], floor: { width: number; depth: number }): void {
  const { random } = context;
  const dayStart = Math.floor(context.fromMs / DAY) * DAY;
  const push = (built: BleProfileDevice, profile: BleDeviceProfile, templateId: string, motion: BleMotion, shadowingOf?: number): number => {
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
    return devices.length - 1;
  };
  let carriers = 0;
  const kinds: Array<{ profile: BleDeviceProfile; counts: { carried: number; alone: number }; make: (index: number) => BleProfileDevice }> = [
    { profile: 'find_my_tag', counts: knobs.findMy, make: () => findMyTag(context, dayStart + knobs.swapHourUtc * 3_600_000 + random.uniform() * knobs.swapSpreadS * SECOND, knobs.tagRatePerS) },
    { profile: 'fmdn_tag', counts: knobs.fmdn, make: (index) => fmdnTag(context, index === 0, knobs.tagRatePerS) },
    { profile: 'smarttag', counts: knobs.smartTag, make: () => smartTag(context, knobs.tagRatePerS) },
  ];
  for (const kind of kinds) {
    for (let index = 0; index < kind.counts.carried + kind.counts.alone; index++) {
      const tag = kind.make(index);
      if (index < kind.counts.carried) {
        const profile = carriers % 2 === 0 ? 'ios' : 'android';
        const phoneModel = `${profile}-model-${1 + Math.floor(random.uniform() * config.modelsPerProfile)}`;
        const path = longWalk(random, context.fromMs, context.toMs, floor);
        const phone = push(buildProfileDevice(context, profile, phoneModel, carriers), profile, phoneModel, path);
        carriers++;
        const dx = uniformBetween(random, -0.5, 0.5);
        const dy = uniformBetween(random, -0.5, 0.5);
        const follow: BleMotion = { t: path.t.slice(), x: path.x.map((x) => x + dx), y: path.y.map((y) => y + dy) };
        const carried = push(tag, kind.profile, kind.profile, follow, config.carriedShadowing === 'carrier' ? phone : undefined);
        travelGroups.push({ devices: [phone, carried], fromMs: context.fromMs, toMs: context.toMs, kind: 'carried' });
      } else {
        push(tag, kind.profile, kind.profile, { t: [context.fromMs], x: [random.uniform() * floor.width], y: [random.uniform() * floor.depth] });
      }
    }
  }
}
