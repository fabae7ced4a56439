/**
 * The named scenarios: each is a set of knobs over one generator (docs/ble-scenarios.md
 * describes them and why each exists). `default` is the base; every other scenario changes
 * the knobs its name says and nothing else.
 */
import type { BleGroupWalkKnobs } from './ble-group-walk.ts';
import type { BleHandoverKnobs } from './ble-handover.ts';
import type { BleScanDutyKnobs } from './ble-sparse-scan.ts';
import type { BleTrackerKnobs } from './ble-tracker-tags.ts';
import type { BlePopulationProfile } from './ble-plan-types.ts';

export const BLE_SCENARIO_NAMES = [
  'default',
  'same_template_crowd',
  'fast_rotation',
  'slow_rotation',
  'dense',
  'gaps',
  'drift',
  'android_multi_set',
  'crc_noise',
  'companions',
  'irk',
  'multi_set_crowd',
  'group_walk',
  'handover',
  'trackers',
  'sparse_scan',
] as const;

export type BleScenarioName = (typeof BLE_SCENARIO_NAMES)[number];

/** How the rotating profiles draw their address lifetimes. */
export type BleRotationRegime = 'profile' | 'fast' | 'slow';

export interface BleScenarioConfig {
  name: string;
  description: string;
  durationS: number;
  receivers: number;
  /** Devices per profile. */
  population: Record<BlePopulationProfile, number>;
  /** k extra devices with one identical payload template that rotate within 1 s of each other. */
  crowd: { size: number; profile: 'tracker' } | null;
  rotation: BleRotationRegime;
  /** Advertising sets of Android-like phones, inclusive range. */
  androidSets: [number, number];
  /**
   * Android-like phones use the stack's per-set timers (7–15 min; newer builds 7–9 min awake,
   * 13–15 min dozing), every set with its own payload and TX-power offset, rotating together or
   * each on its own timer. Off: the 1.0 model (extra sets restart every 45–100 s).
   */
  androidTimers: boolean;
  /** Phones (iOS-like first, then Android-like) that carry 1–2 companions: a watch, earbuds or a tag moving with them. */
  companions: number;
  /** People walking together with their phones and companions (the `group_walk` family); null = none. */
  groupWalk: BleGroupWalkKnobs | null;
  /** Receivers with disjoint coverage along a corridor, devices walking zone to zone (the `handover` family); null = the open floor. */
  handover: BleHandoverKnobs | null;
  /** Find My-, FMDN- and SmartTag-style tags, carried by phones or alone (the `trackers` family); null = none. */
  trackers: BleTrackerKnobs | null;
  /** Receivers that only scan now and then (the `sparse_scan` family); null = they listen all the time. */
  scanDuty: BleScanDutyKnobs | null;
  /** Phones (half iOS-like, half Android-like) that get a real IRK: their RPAs are ah(IRK, prand). */
  irkDevices: number;
  /** Observations per second per advertising set and receiver before losses (the thinning target). */
  observationRatePerS: number;
  /** Gaps of each receiver alone, and gaps all receivers share (a shared outage). */
  gapsPerReceiver: number;
  sharedGaps: number;
  gapS: [number, number];
  maxDriftPpm: number;
  maxClockOffsetMs: number;
  crcBadRate: number;
  crcAddressShare: number;
  /** Per-channel loss is drawn from U(0, maxChannelLoss). */
  maxChannelLoss: number;
  /** Share of devices that walk around (random waypoint); the rest stay put. */
  mobileShare: number;
  /** Share of devices that arrive or leave in the middle of the capture. */
  transientShare: number;
  shadowingDb: number;
  fadingDb: number;
  /** Frequency-selective multipath per (receiver, advertising channel, 6 cm spot), σ in dB (ble-multipath.ts). */
  multipathDb: number;
  /** Distinct models (payload templates) per profile: fewer models, more devices sharing one. */
  modelsPerProfile: number;
  /**
   * Each device's sets on its controller's 625 µs slot grid, receivers stamping to the µs
   * (ble-advertising-clock.ts). Off: events at any time, receivers stamp to the millisecond, as
   * HCI logs and most sniffer exports do.
   */
  advertisingClock: boolean;
  /**
   * Shadowing of a carried device (watch, earbuds, tag) per receiver: `own` draws its own, as if
   * it were on another body; `carrier` shares its carrier's (plus a 1.5 dB difference): one body
   * shadows both.
   */
  carriedShadowing: 'own' | 'carrier';
  /** The analyzer's `rpa_rotation_model` that matches the scenario (what the evaluation passes). */
  rotationModel: 'spec_default' | 'fast_rotation' | 'slow_rotation';
}

const BASE: BleScenarioConfig = {
  name: 'default',
  description: '',
  durationS: 1800,
  receivers: 2,
  population: { ios: 6, android: 4, windows: 2, tracker: 3, wearable: 2, public_beacon: 3, static_beacon: 3, nrpa_broadcaster: 2 },
  crowd: null,
  rotation: 'profile',
  androidSets: [1, 1],
  androidTimers: false,
  companions: 0,
  groupWalk: null,
  handover: null,
  trackers: null,
  scanDuty: null,
  irkDevices: 0,
  observationRatePerS: 0.5,
  gapsPerReceiver: 0,
  sharedGaps: 0,
  gapS: [5, 120],
  maxDriftPpm: 10,
  maxClockOffsetMs: 20,
  crcBadRate: 0.1,
  crcAddressShare: 0.6,
  maxChannelLoss: 0.2,
  mobileShare: 0.3,
  transientShare: 0.2,
  shadowingDb: 5,
  fadingDb: 3,
  multipathDb: 3,
  advertisingClock: true,
  carriedShadowing: 'own',
  modelsPerProfile: 3,
  rotationModel: 'spec_default',
};

/**
 * The generator's separating radio features switched off (docs/ble-scenarios.md, "Radio
 * features"): no per-spot multipath, no shared advertising clock (millisecond timestamps), and a
 * carried device shadowed by its carrier's body. eval:ble runs every family with and without them.
 */
export const BLE_RADIO_FEATURES_OFF: Readonly<Partial<BleScenarioConfig>> = { multipathDb: 0, advertisingClock: false, carriedShadowing: 'carrier' };

const SCENARIOS: Record<BleScenarioName, BleScenarioConfig> = {
  default: {
    ...BASE,
    description: '30 min, 2 receivers, 25 devices of every profile (iOS-, Android-, Windows-like phones and laptops, tracker tags, wearables, public and random-static beacons, NRPA broadcasters), OS-like rotation, 10% CRC-bad packets',
  },
  same_template_crowd: {
    ...BASE,
    name: 'same_template_crowd',
    crowd: { size: 10, profile: 'tracker' },
    description: 'default plus 10 tracker tags of one model: identical payload template, no carried-over token, all rotating within 1 s of each other (only timing and RSSI tell them apart)',
  },
  fast_rotation: {
    ...BASE,
    name: 'fast_rotation',
    rotation: 'fast',
    rotationModel: 'fast_rotation',
    description: 'default with every rotating address living U(60, 300) s',
  },
  slow_rotation: {
    ...BASE,
    name: 'slow_rotation',
    rotation: 'slow',
    rotationModel: 'slow_rotation',
    durationS: 7200,
    observationRatePerS: 0.2,
    description: '2 h at a lower rate, every rotating address living U(1800, 3600) s',
  },
  dense: {
    ...BASE,
    name: 'dense',
    receivers: 3,
    population: { ios: 30, android: 20, windows: 10, tracker: 15, wearable: 10, public_beacon: 15, static_beacon: 15, nrpa_broadcaster: 10 },
    observationRatePerS: 0.25,
    description: '125 devices (5× default) heard by 3 receivers, 3 models per profile: many concurrent hand-offs and shared templates',
  },
  gaps: {
    ...BASE,
    name: 'gaps',
    gapsPerReceiver: 6,
    sharedGaps: 3,
    description: 'default with 6 gaps of 5–120 s per receiver and 3 outages of all receivers at once',
  },
  drift: {
    ...BASE,
    name: 'drift',
    receivers: 3,
    maxDriftPpm: 50,
    maxClockOffsetMs: 200,
    description: 'default with 3 receivers whose clocks drift up to ±50 ppm and are offset by up to ±200 ms',
  },
  android_multi_set: {
    ...BASE,
    name: 'android_multi_set',
    population: { ...BASE.population, ios: 3, android: 10 },
    androidSets: [2, 3],
    androidTimers: true,
    description:
      '10 Android-like phones with 2–3 concurrent advertising sets each (Fast Pair-like, vendor, find-my-device-like), each set with its own RPA, payload and TX-power offset; half the phones rotate all sets together (within 1 s), half each set on its own 7–15 min timer (newer builds: 7–9 min awake, 13–15 min dozing)',
  },
  crc_noise: {
    ...BASE,
    name: 'crc_noise',
    crcBadRate: 0.17,
    crcAddressShare: 0.8,
    description: 'default with 17% CRC-bad packets (the nRF capture\'s rate), 80% of them with bit-flipped addresses',
  },
  companions: {
    ...BASE,
    name: 'companions',
    receivers: 3,
    population: { ...BASE.population, ios: 4, android: 6 },
    androidSets: [2, 3],
    androidTimers: true,
    companions: 6,
    description:
      'android_multi_set-like phones plus 6 walking phones that each carry 1–2 companions (a watch, earbuds, a tracker tag) along the same path for their whole stay; 3 receivers. Truth: same device, and travelled together',
  },
  irk: {
    ...BASE,
    name: 'irk',
    androidSets: [2, 3],
    androidTimers: true,
    irkDevices: 4,
    description: 'default with multi-set Android-like phones, and 4 phones (2 iOS-like, 2 Android-like) whose RPAs are real ah(IRK, prand) under keys the truth lists',
  },
  multi_set_crowd: {
    ...BASE,
    name: 'multi_set_crowd',
    receivers: 3,
    population: { ios: 0, android: 150, windows: 0, tracker: 0, wearable: 0, public_beacon: 3, static_beacon: 3, nrpa_broadcaster: 0 },
    androidSets: [2, 3],
    androidTimers: true,
    modelsPerProfile: 2,
    observationRatePerS: 0.15,
    carriedShadowing: 'carrier',
    description:
      'a dense crowd of 150 multi-set Android-like phones (2–3 concurrent sets each, on the stack timers) of 2 models, so 75 phones share each payload template; 3 receivers, 0.15 obs/s',
  },
  group_walk: {
    ...BASE,
    name: 'group_walk',
    receivers: 3,
    population: { ios: 3, android: 3, windows: 0, tracker: 1, wearable: 2, public_beacon: 2, static_beacon: 2, nrpa_broadcaster: 0 },
    androidSets: [2, 3],
    androidTimers: true,
    groupWalk: { people: 20, perRow: 5, spacingM: 2, companions: [0, 2] },
    observationRatePerS: 0.25,
    description:
      '20 people walking together 1–3 m apart, each with an iOS-like or multi-set Android-like phone and 0–2 carried companions (watch, earbuds, tag), among 13 other devices; 3 receivers, 0.25 obs/s. Truth: same device, travelled together (carried, and group)',
  },
  handover: {
    ...BASE,
    name: 'handover',
    durationS: 3600,
    receivers: 3,
    population: { ios: 8, android: 8, windows: 0, tracker: 3, wearable: 4, public_beacon: 2, static_beacon: 2, nrpa_broadcaster: 0 },
    androidSets: [2, 3],
    androidTimers: true,
    handover: { spacingM: 60, depthM: 10, sensitivityDbm: -80, walkerShare: 0.7, stayS: [60, 600] },
    maxClockOffsetMs: 3000,
    maxDriftPpm: 100,
    description:
      '1 h, 3 receivers 60 m apart along a corridor with disjoint coverage (about 8–20 m each at −80 dBm); 27 devices, 70% walking zone to zone (staying 1–10 min in each), the rest in one zone; receiver clocks offset by up to ±3 s and drifting up to ±100 ppm',
  },
  trackers: {
    ...BASE,
    name: 'trackers',
    durationS: 26 * 3600,
    receivers: 2,
    population: { ios: 0, android: 0, windows: 0, tracker: 0, wearable: 0, public_beacon: 1, static_beacon: 1, nrpa_broadcaster: 0 },
    androidSets: [2, 3],
    androidTimers: true,
    trackers: { findMy: { carried: 2, alone: 2 }, fmdn: { carried: 1, alone: 2 }, smartTag: { carried: 1, alone: 2 }, tagRatePerS: 0.08, swapHourUtc: 4, swapSpreadS: 300 },
    observationRatePerS: 0.04,
    transientShare: 0,
    description:
      '26 h (08:00 to 10:00 the next day), 2 receivers: 4 Find My-style tags in separated mode (random-static-looking addresses swapped once a day at 04:00 with a ~2 s silence, same template and status byte), 3 FMDN-style tags (frame 0x40, one 0x41, identifier and address every 1024 s), 3 SmartTag-style tags (aging counter +1 every ~15 min); 4 of them carried by a phone (iOS-like or multi-set Android-like), the rest left alone; 0.08 obs/s per tag, 0.04 per phone set',
  },
  sparse_scan: {
    ...BASE,
    name: 'sparse_scan',
    durationS: 4 * 3600,
    receivers: 1,
    population: { ios: 6, android: 5, windows: 0, tracker: 0, wearable: 3, public_beacon: 2, static_beacon: 2, nrpa_broadcaster: 0 },
    androidSets: [2, 3],
    androidTimers: true,
    trackers: { findMy: { carried: 0, alone: 0 }, fmdn: { carried: 0, alone: 1 }, smartTag: { carried: 1, alone: 2 }, tagRatePerS: 2, swapHourUtc: 4, swapSpreadS: 300 },
    scanDuty: { periodS: 900, periodJitterS: 30, windowS: [20, 30] },
    observationRatePerS: 2,
    description:
      '4 h heard by one phone-side observer that scans 20–30 s about every 15 min (everything it hears while scanning, 2 obs/s per set); 7 iOS-like and 5 multi-set Android-like phones, wearables, beacons, 3 SmartTag-style tags (aging counter; one carried by a phone) and an FMDN-style tag: every gap between scans is longer than the default 180 s window',
  },
};

/** The knobs of a named scenario (a copy: callers may change it). */
export function bleScenarioConfig(name: BleScenarioName): BleScenarioConfig {
  const config = SCENARIOS[name];
  return {
    ...config,
    population: { ...config.population },
    crowd: config.crowd ? { ...config.crowd } : null,
    groupWalk: config.groupWalk ? { ...config.groupWalk, companions: [...config.groupWalk.companions] } : null,
    handover: config.handover ? { ...config.handover, stayS: [...config.handover.stayS] } : null,
    scanDuty: config.scanDuty ? { ...config.scanDuty, windowS: [...config.scanDuty.windowS] } : null,
    trackers: config.trackers ? { ...config.trackers, findMy: { ...config.trackers.findMy }, fmdn: { ...config.trackers.fmdn }, smartTag: { ...config.trackers.smartTag } } : null,
  };
}

export function isBleScenarioName(name: string): name is BleScenarioName {
  return (BLE_SCENARIO_NAMES as readonly string[]).includes(name);
}
