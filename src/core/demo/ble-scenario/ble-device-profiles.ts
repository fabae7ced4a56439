/**
 * The OS-like device profiles: how each kind of device rotates its addresses and what its
 * payload carries (notes/ble-linkage.md §B, notes/ble-spec.md §3). Every builder returns the
 * device's advertising sets over the whole span; presence and motion are added by the planner.
 */
import { ADV_TYPE } from '../../data/ble/adv-types.ts';
import type { SeededRandom } from '../seeded-random.ts';
import type { BleAddressPool, BleGeneratedAddress, BleTruthAddressType } from './ble-address.ts';
import { BLE_COMPANY, BLE_SERVICE, bleAdBytes } from './ble-payloads.ts';
import type { BleAdvertisingSet, BleAddressEpoch, BleDeviceClass, BlePayloadChange, BlePopulationProfile } from './ble-plan-types.ts';
import type { BleRotationRegime } from './ble-scenarios.ts';

/** What a profile builder needs from the planner. */
export interface BleProfileContext {
  random: SeededRandom;
  pool: BleAddressPool;
  /** Registers AD bytes; returns their payload index. */
  payload(bytes: Uint8Array): number;
  /** Static bytes of a template (the same for every device of that model). */
  templateBytes(templateId: string, length: number): Uint8Array;
  /** The span the sets must cover (true time, ms). */
  fromMs: number;
  toMs: number;
  rotation: BleRotationRegime;
  /** Observations per second per set and receiver, before losses. */
  ratePerS: number;
  androidSets: [number, number];
  /** Android-like phones use the realistic per-set timers (BleScenarioConfig.androidTimers). */
  androidTimers: boolean;
  /**
   * While set, RPAs drawn for the device being built are ah(IRK, prand) under its key (the
   * planner sets it around one device's builder and clears it afterwards).
   */
  hashOf?: (prand: Uint8Array) => Uint8Array;
}

export interface BleProfileDevice {
  deviceClass: BleDeviceClass;
  /** The advertising sets rotate together (within 1 s) rather than each on its own timer. */
  synchronizedSets?: boolean;
  powerAt1mDbm: number;
  txPowerDbm: number;
  sets: BleAdvertisingSet[];
}

const SECOND = 1000;

export function uniformBetween(random: SeededRandom, low: number, high: number): number {
  return low + (high - low) * random.uniform();
}

function pick<T>(random: SeededRandom, values: readonly T[]): T {
  return values[Math.min(values.length - 1, Math.floor(random.uniform() * values.length))];
}

function randomBytes(random: SeededRandom, count: number): number[] {
  return Array.from({ length: count }, () => Math.floor(random.uniform() * 256));
}

/** Every k-th advertising event, so that a set yields about `ratePerS` observations per second. */
export function emitInterval(advIntervalMs: number, ratePerS: number): number {
  return advIntervalMs * Math.max(1, Math.round(SECOND / (ratePerS * advIntervalMs)));
}

/**
 * Lifetime of one RPA of a rotating profile, ms. `profile` regime: iOS- and Windows-like
 * 900 s ± 30 s around a per-device base, Android-like U(300, 900) s (CDD 7.4.3), tracker tags
 * a fixed 15-minute key period; `fast` U(60, 300) s and `slow` U(1800, 3600) s for all.
 */
function lifetimeDrawer(context: BleProfileContext, profile: 'ios' | 'android' | 'windows' | 'tracker' | 'wearable'): () => number {
  const random = context.random;
  if (context.rotation === 'fast') return () => uniformBetween(random, 60, 300) * SECOND;
  if (context.rotation === 'slow') return () => uniformBetween(random, 1800, 3600) * SECOND;
  switch (profile) {
    case 'android':
      return () => uniformBetween(random, 300, 900) * SECOND;
    case 'tracker':
      return () => uniformBetween(random, 899.5, 900.5) * SECOND;
    default: {
      const base = uniformBetween(random, 890, 910);
      return () => (base + uniformBetween(random, -30, 30)) * SECOND;
    }
  }
}

/**
 * Back-to-back address epochs covering [fromMs, toMs]; the first address was taken a random
 * part of its lifetime before the span starts (a capture rarely begins at a rotation).
 */
export function rotatingEpochs(context: BleProfileContext, type: BleTruthAddressType, lifetime: () => number, shift?: () => number): BleAddressEpoch[] {
  const epochs: BleAddressEpoch[] = [];
  const first = lifetime();
  let start = context.fromMs - context.random.uniform() * first;
  let duration = first;
  while (start <= context.toMs) {
    const end = start + duration + (shift ? shift() : 0);
    epochs.push({ address: context.pool.next(type, type === 'rpa' ? context.hashOf : undefined), startMs: start, endMs: end });
    start = end;
    duration = lifetime();
  }
  return epochs;
}

/** One address for the whole span (public and random-static devices). */
function fixedEpoch(context: BleProfileContext, address: BleGeneratedAddress): BleAddressEpoch[] {
  return [{ address, startMs: context.fromMs - 3_600_000, endMs: context.toMs + 3_600_000 }];
}

/**
 * Payload changes for a token that changes near each address change: `lag` ms after it (a
 * negative lag changes the token first). With a lag, the token survives the address change (or
 * the address survives the token change): the carry-over Becker et al. exploit.
 */
function tokenPayloads(epochs: BleAddressEpoch[], lag: (gapMs: number) => number, make: () => number): BlePayloadChange[] {
  const changes: BlePayloadChange[] = [{ fromMs: Number.NEGATIVE_INFINITY, payload: make() }];
  for (let index = 1; index < epochs.length; index++) {
    const boundary = epochs[index].startMs;
    const shortest = Math.min(epochs[index].endMs - boundary, boundary - epochs[index - 1].startMs);
    changes.push({ fromMs: boundary + lag(shortest), payload: make() });
  }
  return changes.sort((a, b) => a.fromMs - b.fromMs);
}

function set(epochs: BleAddressEpoch[], payloads: BlePayloadChange[], advIntervalMs: number, ratePerS: number, advType: number, txOffsetDb?: number): BleAdvertisingSet {
  const built: BleAdvertisingSet = { epochs, payloads, advIntervalMs, emitIntervalMs: emitInterval(advIntervalMs, ratePerS), advType };
  if (txOffsetDb !== undefined) built.txOffsetDb = txOffsetDb;
  return built;
}

/** Asynchronous token lag: up to ±60 s, never more than 40% of the neighbouring lifetimes. */
function asyncLag(random: SeededRandom): (shortestMs: number) => number {
  return (shortestMs) => uniformBetween(random, -1, 1) * Math.min(60 * SECOND, 0.4 * shortestMs);
}

/** iOS-like: one RPA, ~15 min; a Continuity Nearby-Info-like token rotating asynchronously. */
function iosDevice(context: BleProfileContext, templateId: string): BleProfileDevice {
  const { random } = context;
  const model = context.templateBytes(templateId, 2);
  const epochs = rotatingEpochs(context, 'rpa', lifetimeDrawer(context, 'ios'));
  const payloads = tokenPayloads(epochs, asyncLag(random), () =>
    context.payload(bleAdBytes({ flags: 0x1a, manufacturer: { companyId: BLE_COMPANY.apple, data: [0x10, 0x05, model[0], model[1], ...randomBytes(random, 3)] } })),
  );
  const advInterval = pick(random, [152.5, 211.25, 318.75]);
  return { deviceClass: 'phone', powerAt1mDbm: uniformBetween(random, -62, -56), txPowerDbm: 12, sets: [set(epochs, payloads, advInterval, context.ratePerS, ADV_TYPE.ADV_IND)] };
}

/**
 * Android-like: the main set rotates with the OS timer, its Fast-Pair-like service data
 * rotating with the address (sometimes a few hundred ms out of sync); 0–2 extra sets restart
 * every 45–100 s with a fresh RPA each and a static vendor payload (one model, one payload).
 */
function androidDevice(context: BleProfileContext, templateId: string): BleProfileDevice {
  if (context.androidTimers) return androidStackDevice(context, templateId);
  const { random } = context;
  const model = context.templateBytes(templateId, 6);
  const mainEpochs = rotatingEpochs(context, 'rpa', lifetimeDrawer(context, 'android'));
  const outOfSync = (): number => (random.uniform() < 0.3 ? uniformBetween(random, 50, 500) : 0);
  const mainPayloads = tokenPayloads(mainEpochs, outOfSync, () =>
    context.payload(bleAdBytes({ flags: 0x1a, serviceUuids16: [BLE_SERVICE.googleFastPair], serviceData: { uuid16: BLE_SERVICE.googleFastPair, data: randomBytes(random, 8) } })),
  );
  const sets = [set(mainEpochs, mainPayloads, pick(random, [100, 250]), context.ratePerS, ADV_TYPE.ADV_IND)];
  const [low, high] = context.androidSets;
  const count = low + Math.floor(random.uniform() * (high - low + 1));
  for (let extra = 1; extra < count; extra++) {
    const epochs = rotatingEpochs(context, 'rpa', () => uniformBetween(random, 45, 100) * SECOND);
    const vendor = extra === 1 ? BLE_COMPANY.samsung : BLE_COMPANY.google;
    const payload = context.payload(bleAdBytes({ flags: 0x06, manufacturer: { companyId: vendor, data: [extra, ...model] } }));
    sets.push(set(epochs, [{ fromMs: Number.NEGATIVE_INFINITY, payload }], pick(random, [100, 250, 1000]), context.ratePerS, ADV_TYPE.ADV_NONCONN_IND));
  }
  return { deviceClass: 'phone', powerAt1mDbm: uniformBetween(random, -64, -56), txPowerDbm: 9, sets };
}

/**
 * The Android stack's RPA timer for one phone: older builds U(7, 15) min per address; newer
 * builds about 7–9 min while the phone is awake and 13–15 min while it dozes (60% awake).
 */
function androidStackTimer(context: BleProfileContext): () => number {
  const random = context.random;
  if (context.rotation === 'fast') return () => uniformBetween(random, 60, 300) * SECOND;
  if (context.rotation === 'slow') return () => uniformBetween(random, 1800, 3600) * SECOND;
  if (random.uniform() < 0.5) return () => uniformBetween(random, 420, 900) * SECOND;
  return () => (random.uniform() < 0.6 ? uniformBetween(random, 420, 540) : uniformBetween(random, 780, 900)) * SECOND;
}

/**
 * Android-like phone with concurrent advertising sets as the stack runs them: each set has its
 * own RPA, its own payload and a TX-power offset that stays fixed per set (the app asks for a
 * power level per set). Half the phones rotate all sets together (each within 1 s of the
 * phone's schedule), half give each set its own timer. Set 0 is Fast Pair-like (its service
 * data changes with its address, so nothing carries across its rotations), set 1 a vendor set
 * whose rotating bytes change with the address, set 2 a find-my-device-like set whose
 * ephemeral identifier changes with the address.
 */
function androidStackDevice(context: BleProfileContext, templateId: string): BleProfileDevice {
  const { random } = context;
  const model = context.templateBytes(templateId, 6);
  const [low, high] = context.androidSets;
  const count = low + Math.floor(random.uniform() * (high - low + 1));
  const synchronized = count > 1 && random.uniform() < 0.5;
  const timer = androidStackTimer(context);
  const shared = synchronized ? rotatingEpochs(context, 'rpa', timer) : [];
  const sets: BleAdvertisingSet[] = [];
  for (let index = 0; index < count; index++) {
    let epochs: BleAddressEpoch[];
    if (synchronized) {
      // The same boundaries, each moved by up to 1 s per set (the stack restarts sets one by one).
      let previousEnd = shared[0].startMs + random.uniform() * SECOND;
      epochs = shared.map((epoch) => {
        const end = epoch.endMs + random.uniform() * SECOND;
        const made = { address: context.pool.next('rpa', context.hashOf), startMs: previousEnd, endMs: end };
        previousEnd = end;
        return made;
      });
    } else {
      epochs = rotatingEpochs(context, 'rpa', timer);
    }
    const outOfSync = (): number => (random.uniform() < 0.3 ? uniformBetween(random, 50, 500) : 0);
    let payloads: BlePayloadChange[];
    let advType: number = ADV_TYPE.ADV_NONCONN_IND;
    let txOffsetDb = 0;
    if (index === 0) {
      payloads = tokenPayloads(epochs, outOfSync, () =>
        context.payload(bleAdBytes({ flags: 0x1a, serviceUuids16: [BLE_SERVICE.googleFastPair], serviceData: { uuid16: BLE_SERVICE.googleFastPair, data: randomBytes(random, 8) } })),
      );
      advType = ADV_TYPE.ADV_IND;
    } else if (index === 1) {
      payloads = tokenPayloads(epochs, () => 0, () =>
        context.payload(bleAdBytes({ flags: 0x06, manufacturer: { companyId: BLE_COMPANY.samsung, data: [0x42, ...model.subarray(0, 3), ...randomBytes(random, 6)] } })),
      );
      txOffsetDb = -uniformBetween(random, 3, 8);
    } else {
      payloads = tokenPayloads(epochs, () => 0, () =>
        context.payload(bleAdBytes({ flags: 0x06, serviceUuids16: [BLE_SERVICE.eddystone], serviceData: { uuid16: BLE_SERVICE.eddystone, data: [0x41, ...randomBytes(random, 16)] } })),
      );
      txOffsetDb = -uniformBetween(random, 6, 12);
    }
    sets.push(set(epochs, payloads, pick(random, [100, 250, 1000]), context.ratePerS, advType, txOffsetDb));
  }
  return { deviceClass: 'phone', powerAt1mDbm: uniformBetween(random, -64, -56), txPowerDbm: 9, sets, synchronizedSets: synchronized };
}

/**
 * Earbuds: one RPA on a 15-minute timer and a Fast Pair-like model payload with a rotating
 * battery/account part that changes with the address.
 */
export function earbudsDevice(context: BleProfileContext, templateId: string): BleProfileDevice {
  const { random } = context;
  const model = context.templateBytes(templateId, 3);
  const epochs = rotatingEpochs(context, 'rpa', lifetimeDrawer(context, 'wearable'));
  const payloads = tokenPayloads(epochs, () => 0, () =>
    context.payload(bleAdBytes({ flags: 0x06, serviceData: { uuid16: BLE_SERVICE.googleFastPair, data: [...model, ...randomBytes(random, 5)] } })),
  );
  return { deviceClass: 'earbuds', powerAt1mDbm: uniformBetween(random, -70, -64), txPowerDbm: 0, sets: [set(epochs, payloads, pick(random, [100, 211.25]), context.ratePerS, ADV_TYPE.ADV_IND)] };
}

/** A smartwatch: a wearable whose class says so. */
export function watchDevice(context: BleProfileContext, templateId: string): BleProfileDevice {
  return { ...wearableDevice(context, templateId), deviceClass: 'watch' };
}

/** Windows-like: an RPA with a Microsoft beacon whose salt and hash rotate asynchronously. */
function windowsDevice(context: BleProfileContext, templateId: string): BleProfileDevice {
  const { random } = context;
  const model = context.templateBytes(templateId, 1);
  const epochs = rotatingEpochs(context, 'rpa', lifetimeDrawer(context, 'windows'));
  const payloads = tokenPayloads(epochs, asyncLag(random), () =>
    context.payload(bleAdBytes({ manufacturer: { companyId: BLE_COMPANY.microsoft, data: [0x01, 0x09, 0x20, model[0], ...randomBytes(random, 12)] } })),
  );
  return { deviceClass: 'laptop', powerAt1mDbm: uniformBetween(random, -58, -52), txPowerDbm: 0, sets: [set(epochs, payloads, 1022.5, context.ratePerS, ADV_TYPE.ADV_NONCONN_IND)] };
}

/** Tracker tag: 15-minute key period; the key in the payload rotates exactly with the address. */
export function trackerDevice(context: BleProfileContext, templateId: string, epochs?: BleAddressEpoch[]): BleProfileDevice {
  const { random } = context;
  const model = context.templateBytes(templateId, 2);
  const tagEpochs = epochs ?? rotatingEpochs(context, 'rpa', lifetimeDrawer(context, 'tracker'));
  const payloads = tokenPayloads(tagEpochs, () => 0, () =>
    context.payload(bleAdBytes({ flags: 0x06, serviceUuids16: [BLE_SERVICE.tile], serviceData: { uuid16: BLE_SERVICE.tile, data: [...model, ...randomBytes(random, 6)] }, txPower: 4 })),
  );
  return { deviceClass: 'tag', powerAt1mDbm: uniformBetween(random, -68, -62), txPowerDbm: 4, sets: [set(tagEpochs, payloads, pick(random, [1000, 2000]), context.ratePerS, ADV_TYPE.ADV_NONCONN_IND)] };
}

/** The lifetime drawer tracker tags use (the crowd shares one schedule drawn with it). */
export function trackerLifetime(context: BleProfileContext): () => number {
  return lifetimeDrawer(context, 'tracker');
}

/**
 * Wearable: an RPA on the spec's 15-minute timer and a payload that never changes (vendor
 * manufacturer data and a GATT service UUID list): every address of one device, and every
 * device of one model, sends the same bytes.
 */
function wearableDevice(context: BleProfileContext, templateId: string): BleProfileDevice {
  const { random } = context;
  const model = context.templateBytes(templateId, 6);
  const epochs = rotatingEpochs(context, 'rpa', lifetimeDrawer(context, 'wearable'));
  const payload = context.payload(
    bleAdBytes({ flags: 0x06, serviceUuids16: [BLE_SERVICE.heartRate, BLE_SERVICE.battery], manufacturer: { companyId: BLE_COMPANY.nordic, data: model } }),
  );
  return { deviceClass: 'tag', powerAt1mDbm: uniformBetween(random, -64, -58), txPowerDbm: 0, sets: [set(epochs, [{ fromMs: Number.NEGATIVE_INFINITY, payload }], 211.25, context.ratePerS, ADV_TYPE.ADV_IND)] };
}

/** Public-address iBeacon-like beacon: never rotates, static payload (UUID per model, minor per device). */
function publicBeacon(context: BleProfileContext, templateId: string): BleProfileDevice {
  const { random } = context;
  const uuid = context.templateBytes(templateId, 16);
  const payload = context.payload(
    bleAdBytes({ flags: 0x06, manufacturer: { companyId: BLE_COMPANY.apple, data: [0x02, 0x15, ...uuid, 0x00, 0x01, ...randomBytes(random, 2), 0xc5] } }),
  );
  const epochs = fixedEpoch(context, context.pool.next('public'));
  return { deviceClass: 'beacon', powerAt1mDbm: -59, txPowerDbm: -59, sets: [set(epochs, [{ fromMs: Number.NEGATIVE_INFINITY, payload }], pick(random, [100, 1022.5]), context.ratePerS, ADV_TYPE.ADV_NONCONN_IND)] };
}

/** Random-static sensor: a named environmental sensor whose service data counter changes every 10–60 s. */
function staticBeacon(context: BleProfileContext, templateId: string, index: number): BleProfileDevice {
  const { random } = context;
  const model = context.templateBytes(templateId, 1);
  const name = `ENV-${(0x1000 + index * 97 + model[0]).toString(16).toUpperCase()}`;
  const payloads: BlePayloadChange[] = [];
  let counter = Math.floor(random.uniform() * 65536);
  for (let t = context.fromMs - 60 * SECOND; t <= context.toMs; t += uniformBetween(random, 10, 60) * SECOND) {
    counter = (counter + 1) & 0xffff;
    const payload = context.payload(
      bleAdBytes({ flags: 0x06, name, serviceData: { uuid16: BLE_SERVICE.environmentalSensing, data: [model[0], counter & 0xff, counter >> 8, ...randomBytes(random, 2)] } }),
    );
    payloads.push({ fromMs: payloads.length === 0 ? Number.NEGATIVE_INFINITY : t, payload });
  }
  const epochs = fixedEpoch(context, context.pool.next('random_static'));
  return { deviceClass: 'sensor', powerAt1mDbm: uniformBetween(random, -66, -60), txPowerDbm: 0, sets: [set(epochs, payloads, pick(random, [1000, 2000]), context.ratePerS, ADV_TYPE.ADV_NONCONN_IND)] };
}

/**
 * Exposure-Notification-like broadcaster on NRPAs: a burst of 1–4 s every 20–60 s, each burst
 * with a fresh NRPA and identifier. Each NRPA is seen a handful of times: below the analyzer's
 * `min_observation_count`, as such addresses are in real captures.
 */
function nrpaBroadcaster(context: BleProfileContext): BleProfileDevice {
  const { random } = context;
  const epochs: BleAddressEpoch[] = [];
  const payloads: BlePayloadChange[] = [];
  for (let t = context.fromMs - random.uniform() * 40 * SECOND; t <= context.toMs; t += uniformBetween(random, 20, 60) * SECOND) {
    epochs.push({ address: context.pool.next('nrpa'), startMs: t, endMs: t + uniformBetween(random, 1, 4) * SECOND });
    const payload = context.payload(
      bleAdBytes({ flags: 0x1a, serviceUuids16: [BLE_SERVICE.exposureNotification], serviceData: { uuid16: BLE_SERVICE.exposureNotification, data: randomBytes(random, 20) } }),
    );
    payloads.push({ fromMs: payloads.length === 0 ? Number.NEGATIVE_INFINITY : t, payload });
  }
  // Bursts are denser than the other devices' traffic, yet short enough that even four
  // receivers hear each NRPA fewer than 25 times.
  return { deviceClass: 'broadcaster', powerAt1mDbm: uniformBetween(random, -62, -56), txPowerDbm: 0, sets: [set(epochs, payloads, 250, context.ratePerS * 2, ADV_TYPE.ADV_NONCONN_IND)] };
}

/** Builds one device of `profile`; `index` numbers devices within their profile. */
export function buildProfileDevice(context: BleProfileContext, profile: BlePopulationProfile, templateId: string, index: number): BleProfileDevice {
  switch (profile) {
    case 'ios':
      return iosDevice(context, templateId);
    case 'android':
      return androidDevice(context, templateId);
    case 'windows':
      return windowsDevice(context, templateId);
    case 'tracker':
      return trackerDevice(context, templateId);
    case 'wearable':
      return wearableDevice(context, templateId);
    case 'public_beacon':
      return publicBeacon(context, templateId);
    case 'static_beacon':
      return staticBeacon(context, templateId, index);
    case 'nrpa_broadcaster':
      return nrpaBroadcaster(context);
  }
}
