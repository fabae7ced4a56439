/**
 * The built-in BLE demo captures `lab_floor_2026_04_03_a` (receiver rx-north-2) and
 * `lab_floor_2026_04_03_b` (rx-south-1): the 30 minutes from 2024-04-03T08:00:00Z that the
 * specification's §7.4 invocation selects. A hand-written plan (docs/ble-scenarios.md lists
 * every address): one wearable rotating through three RPAs with hand-offs at about 08:01:13
 * and 08:16:04, and 40 standalone addresses of every type whose arrivals and departures are
 * spaced so that no other pair of addresses hands off within the example's 180 s window.
 * Rendered by the scenario generator's own renderer and table writer, from a fixed seed.
 */
import type { Capture } from '../../data/capture.ts';
import { describeCapture } from '../../data/capture.ts';
import { ADV_TYPE } from '../../data/ble/adv-types.ts';
import { seededRandom } from '../seeded-random.ts';
import { BleAddressPool, bleAddressFromText, type BleGeneratedAddress, type BleTruthAddressType } from './ble-address.ts';
import { emitInterval } from './ble-device-profiles.ts';
import { BLE_COMPANY, BLE_SERVICE, bleAdBytes } from './ble-payloads.ts';
import type { BleDeviceClass, BleDevicePlan, BleDeviceProfile, BlePayloadChange, BleScenarioPlan } from './ble-plan-types.ts';
import { renderBleObservations } from './ble-render.ts';
import { writeBleCaptureTable } from './ble-table-writer.ts';
import { buildBleTruth, type BleScenarioTruth } from './ble-truth.ts';

export const BLE_DEMO_CAPTURE_IDS = ['lab_floor_2026_04_03_a', 'lab_floor_2026_04_03_b'] as const;
export const BLE_DEMO_RECEIVERS = ['rx-north-2', 'rx-south-1'] as const;
/** The declared span of both captures: 2024-04-03T08:00:00Z to 08:30:00Z. */
export const BLE_DEMO_SPAN = { start_ms: 1712131200000, end_ms: 1712133000000 } as const;
/** The rotating wearable's RPAs in order (the §7.4 example's addresses) and its hand-off times. */
export const BLE_DEMO_ROTATION = {
  addresses: ['5F:09:2A:7E:CD:44', '7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19'],
  handoffsMs: [BLE_DEMO_SPAN.start_ms + 73_000, BLE_DEMO_SPAN.start_ms + 964_000],
} as const;

const SEED = 20240403;
const MINUTE = 60_000;
const START = BLE_DEMO_SPAN.start_ms;
const END = BLE_DEMO_SPAN.end_ms;

/** A standalone emitter: one address over a presence window given in minutes from 08:00. */
interface Standalone {
  profile: BleDeviceProfile;
  deviceClass: BleDeviceClass;
  type: BleTruthAddressType;
  /** Presence, minutes after 08:00. */
  from: number;
  to: number;
  /** Observations per second per receiver, before losses. */
  rate: number;
  advIntervalMs: number;
  advType: number;
  fixed?: string;
}

const PHONE = { profile: 'ios', deviceClass: 'phone', type: 'rpa', advIntervalMs: 211.25, advType: ADV_TYPE.ADV_IND } as const;
const TAG = { profile: 'tracker', deviceClass: 'tag', type: 'rpa', advIntervalMs: 1000, advType: ADV_TYPE.ADV_NONCONN_IND } as const;
const BEACON = { profile: 'public_beacon', deviceClass: 'beacon', type: 'public', advIntervalMs: 1022.5, advType: ADV_TYPE.ADV_NONCONN_IND } as const;
const SENSOR = { profile: 'static_beacon', deviceClass: 'sensor', type: 'random_static', advIntervalMs: 1000, advType: ADV_TYPE.ADV_NONCONN_IND } as const;

/**
 * Starts and ends are chosen so that, apart from the wearable's two hand-offs, no address with
 * 25 or more observations starts within 180 s after another one ends: RPAs present from the
 * start leave by 08:12:54, the mid-window ones arrive at 08:04:30–08:04:42 (3 min 17 s after
 * the first hand-off) and leave by 08:13, and late arrivals come after 08:19:30 (3 min 26 s after the second hand-off).
 */
const STANDALONES: Standalone[] = [
  { ...BEACON, from: 0, to: 30, rate: 0.05, fixed: '4E:91:B2:6A:77:03' },
  { ...BEACON, from: 0, to: 30, rate: 0.05 },
  { ...BEACON, from: 0, to: 30, rate: 0.05 },
  { ...BEACON, from: 0, to: 30, rate: 0.04 },
  { ...BEACON, deviceClass: 'laptop', from: 0, to: 30, rate: 0.04 },
  { ...BEACON, from: 0, to: 30, rate: 0.04 },
  { ...BEACON, deviceClass: 'laptop', from: 10, to: 11.5, rate: 0.08 },
  { ...SENSOR, from: 0, to: 30, rate: 0.035 },
  { ...SENSOR, from: 0, to: 30, rate: 0.035 },
  { ...SENSOR, from: 0, to: 30, rate: 0.035 },
  { ...SENSOR, from: 0, to: 30, rate: 0.035 },
  { ...SENSOR, from: 0, to: 30, rate: 0.035 },
  { ...SENSOR, from: 0, to: 30, rate: 0.035 },
  { ...SENSOR, from: 15, to: 16, rate: 0.08 },
  { ...SENSOR, from: 24, to: 25.5, rate: 0.08 },
  { ...PHONE, from: 0, to: 5, rate: 0.12 },
  { ...PHONE, from: 0, to: 8, rate: 0.1 },
  { ...PHONE, from: 0, to: 10.5, rate: 0.08 },
  { ...TAG, from: 0, to: 12.5, rate: 0.06 },
  { ...PHONE, from: 0, to: 12.8, rate: 0.06 },
  { ...PHONE, from: 4.5, to: 11, rate: 0.08 },
  { ...TAG, from: 4.7, to: 12.9, rate: 0.07 },
  { ...PHONE, from: 19.5, to: 30, rate: 0.07 },
  { ...PHONE, from: 19.8, to: 30, rate: 0.06 },
  { ...PHONE, from: 20.5, to: 30, rate: 0.07 },
  { ...TAG, from: 21, to: 30, rate: 0.06 },
  { ...PHONE, from: 23, to: 30, rate: 0.08 },
  { ...PHONE, from: 25.5, to: 30, rate: 0.12 },
  { ...PHONE, from: 27, to: 30, rate: 0.06 },
  { ...PHONE, from: 7, to: 8.2, rate: 0.08 },
  { ...PHONE, from: 20, to: 21, rate: 0.07 },
  { ...TAG, from: 28, to: 29, rate: 0.07 },
];

/** NRPA bursts of an Exposure-Notification-like broadcaster: start minute, seconds. */
const NRPA_BURSTS: ReadonlyArray<[number, number]> = [
  [2, 10],
  [5.5, 8],
  [9, 12],
  [13.2, 9],
  [17, 10],
  [21.4, 11],
  [24.8, 8],
  [28.3, 10],
];

function payloadFor(item: Standalone, index: number, random: () => number): Uint8Array {
  const bytes = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 256));
  switch (item.profile) {
    case 'public_beacon':
      return item.deviceClass === 'laptop'
        ? bleAdBytes({ manufacturer: { companyId: BLE_COMPANY.microsoft, data: [0x01, 0x09, 0x20, 0x02, ...bytes(12)] } })
        : bleAdBytes({ flags: 0x06, manufacturer: { companyId: BLE_COMPANY.apple, data: [0x02, 0x15, ...bytes(16), 0x00, index, 0x00, 0x01, 0xc5] } });
    case 'static_beacon':
      return bleAdBytes({ flags: 0x06, name: `ENV-${(0x2a10 + index).toString(16).toUpperCase()}`, serviceData: { uuid16: BLE_SERVICE.environmentalSensing, data: bytes(5) } });
    case 'tracker':
      return bleAdBytes({ flags: 0x06, serviceUuids16: [BLE_SERVICE.tile], serviceData: { uuid16: BLE_SERVICE.tile, data: bytes(8) }, txPower: 4 });
    default:
      return index % 3 === 0
        ? bleAdBytes({ flags: 0x1a, serviceUuids16: [BLE_SERVICE.googleFastPair], serviceData: { uuid16: BLE_SERVICE.googleFastPair, data: bytes(8) } })
        : bleAdBytes({ flags: 0x1a, manufacturer: { companyId: BLE_COMPANY.apple, data: [0x10, 0x05, ...bytes(5)] } });
  }
}

/** The demo's plan: receivers, the rotating wearable, the standalones and the NRPA broadcaster. */
export function bleLabFloorPlan(): BleScenarioPlan {
  const random = seededRandom(SEED);
  const pool = new BleAddressPool(random);
  const payloads: Uint8Array[] = [];
  const addPayload = (bytes: Uint8Array) => payloads.push(bytes) - 1;
  // Devices stay in the middle of the floor, 4–19 m from both receivers: RSSI mostly above −92.
  const place = () => ({ t: [START], x: [8 + random.uniform() * 24], y: [4 + random.uniform() * 12] });
  const devices: BleDevicePlan[] = [];
  const deviceId = () => `dev-${String(devices.length + 1).padStart(3, '0')}`;

  const wearableAddresses = BLE_DEMO_ROTATION.addresses.map((text) => pool.reserve(bleAddressFromText(text, 'rpa')));
  const [firstHandoff, secondHandoff] = BLE_DEMO_ROTATION.handoffsMs;
  const wearablePayload = addPayload(
    bleAdBytes({
      flags: 0x06,
      serviceUuids16: [BLE_SERVICE.heartRate, BLE_SERVICE.battery, BLE_SERVICE.deviceInformation],
      manufacturer: { companyId: BLE_COMPANY.nordic, data: [0x03, 0x21, 0x7a, 0x10, 0x00, 0x42] },
    }),
  );
  devices.push({
    deviceId: deviceId(),
    profile: 'wearable',
    deviceClass: 'tag',
    templateId: 'wearable-hr-band',
    powerAt1mDbm: -60,
    txPowerDbm: 0,
    sets: [
      {
        epochs: [
          { address: wearableAddresses[0], startMs: firstHandoff - 13.9 * MINUTE, endMs: firstHandoff },
          { address: wearableAddresses[1], startMs: firstHandoff, endMs: secondHandoff },
          { address: wearableAddresses[2], startMs: secondHandoff, endMs: secondHandoff + 14.8 * MINUTE },
        ],
        payloads: [{ fromMs: Number.NEGATIVE_INFINITY, payload: wearablePayload }],
        advIntervalMs: 211.25,
        emitIntervalMs: emitInterval(211.25, 0.4),
        advType: ADV_TYPE.ADV_IND,
      },
    ],
    motion: { t: [START], x: [18], y: [15] },
    presentFromMs: START,
    presentToMs: END,
  });

  STANDALONES.forEach((item, index) => {
    const address: BleGeneratedAddress = item.fixed ? pool.reserve(bleAddressFromText(item.fixed, item.type)) : pool.next(item.type);
    const from = START + item.from * MINUTE;
    const to = START + item.to * MINUTE;
    const payloadList: BlePayloadChange[] = [{ fromMs: Number.NEGATIVE_INFINITY, payload: addPayload(payloadFor(item, index, random.uniform)) }];
    devices.push({
      deviceId: deviceId(),
      profile: item.profile,
      deviceClass: item.deviceClass,
      templateId: `${item.profile}-${index}`,
      powerAt1mDbm: -59 - random.uniform() * 4,
      txPowerDbm: 0,
      sets: [{ epochs: [{ address, startMs: from, endMs: to }], payloads: payloadList, advIntervalMs: item.advIntervalMs, emitIntervalMs: emitInterval(item.advIntervalMs, item.rate), advType: item.advType }],
      motion: place(),
      presentFromMs: from,
      presentToMs: to,
    });
  });

  const burstEpochs = NRPA_BURSTS.map(([minute, seconds]) => ({ address: pool.next('nrpa'), startMs: START + minute * MINUTE, endMs: START + minute * MINUTE + seconds * 1000 }));
  devices.push({
    deviceId: deviceId(),
    profile: 'nrpa_broadcaster',
    deviceClass: 'broadcaster',
    templateId: 'exposure-notification',
    powerAt1mDbm: -58,
    txPowerDbm: 0,
    sets: [
      {
        epochs: burstEpochs,
        payloads: burstEpochs.map((epoch, index) => ({
          fromMs: index === 0 ? Number.NEGATIVE_INFINITY : epoch.startMs,
          payload: addPayload(
            bleAdBytes({
              flags: 0x1a,
              serviceUuids16: [BLE_SERVICE.exposureNotification],
              serviceData: { uuid16: BLE_SERVICE.exposureNotification, data: Array.from({ length: 20 }, () => Math.floor(random.uniform() * 256)) },
            }),
          ),
        })),
        advIntervalMs: 250,
        emitIntervalMs: 1000,
        advType: ADV_TYPE.ADV_NONCONN_IND,
      },
    ],
    motion: place(),
    presentFromMs: START,
    presentToMs: END,
  });

  return {
    startMs: START,
    endMs: END,
    devices,
    receivers: [
      { name: BLE_DEMO_RECEIVERS[0], x: 20, y: 19, clockOffsetMs: 0, driftPpm: 0, gaps: [], channelLoss: [0.05, 0.08, 0.04], sensitivityDbm: -98 },
      { name: BLE_DEMO_RECEIVERS[1], x: 20, y: 1, clockOffsetMs: 35, driftPpm: 4, gaps: [], channelLoss: [0.06, 0.03, 0.07], sensitivityDbm: -98 },
    ],
    radio: { pathLossExponent: 2.2, shadowingDb: 3, fadingDb: 3, crcBadRate: 0.04, crcAddressShare: 0.6 },
    payloads,
    travelGroups: [],
  };
}

/** Both demo captures and their truth. */
export function bleLabFloorScenario(): { captures: Capture[]; truth: BleScenarioTruth } {
  const plan = bleLabFloorPlan();
  const observations = renderBleObservations(plan, SEED);
  const generator = JSON.stringify({ generator: 'sextant-ble-scenario/1', scenario: 'lab_floor', seed: SEED, layout: 'per_receiver' });
  const captures = BLE_DEMO_CAPTURE_IDS.map((captureId, index) => {
    const table = writeBleCaptureTable(plan, observations, {
      captureId,
      receivers: [index],
      description: `Lab floor, 2024-04-03 08:00–08:30 UTC, receiver ${BLE_DEMO_RECEIVERS[index]} (built-in synthetic BLE demo)`,
      source: 'built-in demo',
      generator,
    });
    const described = describeCapture(table);
    if (!described.ok) throw new Error(described.error.message);
    return { info: described.value, table };
  });
  const truth = buildBleTruth(plan, observations, { scenario: 'lab_floor', seed: SEED, captureIdOf: (index) => BLE_DEMO_CAPTURE_IDS[index] });
  return { captures, truth };
}

/** The two demo captures (what `builtinCaptures()` adds). */
export function bleLabFloorCaptures(): Capture[] {
  return bleLabFloorScenario().captures;
}
