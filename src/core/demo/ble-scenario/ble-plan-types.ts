/**
 * What a scenario is made of before any packet exists: devices with their advertising sets,
 * the addresses each set used and when, the payloads it sent, how it moves, and the receivers
 * that listen. Scenarios (random, seeded) and the demo captures (hand-written) both build one
 * of these; `renderBleObservations` turns it into packets.
 */
import type { BleGeneratedAddress } from './ble-address.ts';

/** The profiles a scenario's `population` counts (docs/ble-scenarios.md, "Profiles"). */
export type BlePopulationProfile = 'ios' | 'android' | 'windows' | 'tracker' | 'wearable' | 'public_beacon' | 'static_beacon' | 'nrpa_broadcaster';

/** OS-like behaviour of a device: a population profile, or one of the tracker tags of the `trackers` family. */
export type BleDeviceProfile = BlePopulationProfile | 'find_my_tag' | 'fmdn_tag' | 'smarttag';

/** What the device is, for people reading the truth. */
export type BleDeviceClass = 'phone' | 'laptop' | 'tag' | 'beacon' | 'sensor' | 'broadcaster' | 'watch' | 'earbuds';

/** One address an advertising set used, over `[startMs, endMs]` (true time, epoch ms). */
export interface BleAddressEpoch {
  address: BleGeneratedAddress;
  startMs: number;
  endMs: number;
}

/** A payload a set starts sending at `fromMs` (index into `BleScenarioPlan.payloads`). */
export interface BlePayloadChange {
  fromMs: number;
  payload: number;
}

/** One advertising set: its own address sequence, payload sequence and timing. */
export interface BleAdvertisingSet {
  /** In time order, not overlapping. */
  epochs: BleAddressEpoch[];
  /** In time order; the first applies from the start. */
  payloads: BlePayloadChange[];
  /** The advertising interval the device is configured with, ms (20 ms – 2 s, ×0.625 ms). */
  advIntervalMs: number;
  /** Time between emitted observations after thinning (≥ advIntervalMs), ms. */
  emitIntervalMs: number;
  /** `adv_type` code (ADV_TYPE). */
  advType: number;
  /** Transmit power of this set relative to the device's, dB (fixed per set; absent = 0). */
  txOffsetDb?: number;
}

/** Piecewise-linear path: at `t[i]` the device is at (`x[i]`, `y[i]`) metres; one point = static. */
export interface BleMotion {
  t: number[];
  x: number[];
  y: number[];
}

export interface BleDevicePlan {
  deviceId: string;
  profile: BleDeviceProfile;
  deviceClass: BleDeviceClass;
  /** Devices with the same template id send the same static payload bytes (same vendor and model). */
  templateId: string;
  /** Received power at 1 m, dBm (TX power minus the 1 m loss). */
  powerAt1mDbm: number;
  /** The value of the TX Power AD field when the payload carries one. */
  txPowerDbm: number;
  sets: BleAdvertisingSet[];
  motion: BleMotion;
  /** When the device is in range at all (arrivals and departures mid-capture). */
  presentFromMs: number;
  presentToMs: number;
  /** The sets rotate together (multi-set Android-like phones only). */
  synchronizedSets?: boolean;
  /** Identity resolving key, 16 bytes MSB first, when the device's RPAs are real ah() RPAs. */
  irk?: Uint8Array;
  /**
   * Index of the device whose body shadows this one (a watch, earbuds or tag carried by a person
   * shares the shadowing of the carrier's phone per receiver, plus `BLE_CARRIED_SHADOWING_DELTA_DB`);
   * absent = its own shadowing per receiver.
   */
  shadowingOf?: number;
}

/**
 * Devices that move together. `carried`: one person's devices (a phone and the watch, earbuds
 * or tag it carries; the first is the carrier). `group`: the devices of people walking together.
 */
export interface BleTravelGroup {
  /** Device indices; the first is the carrier. */
  devices: number[];
  fromMs: number;
  toMs: number;
  /** Absent = `carried`. */
  kind?: 'carried' | 'group';
}

export interface BleReceiverPlan {
  name: string;
  x: number;
  y: number;
  /** Constant clock offset added to every timestamp, ms. */
  clockOffsetMs: number;
  /** Clock rate error: local time runs (1 + ppm·1e-6) times as fast, from the span start. */
  driftPpm: number;
  /** Windows (true time) when the receiver records nothing. */
  gaps: Array<{ startMs: number; endMs: number }>;
  /** Probability of missing a packet, per advertising channel 37, 38, 39. */
  channelLoss: [number, number, number];
  /** Packets weaker than this are not received, dBm. */
  sensitivityDbm: number;
}

/** The radio and noise knobs the renderer applies. */
export interface BleRadioPlan {
  /** Log-distance path-loss exponent. */
  pathLossExponent: number;
  /** Per (device, receiver) shadowing, standard deviation in dB. */
  shadowingDb: number;
  /** Per packet fading, standard deviation in dB. */
  fadingDb: number;
  /**
   * Frequency-selective multipath per (receiver, advertising channel, 6 cm spot), standard
   * deviation in dB (ble-multipath.ts); absent = 0.
   */
  multipathDb?: number;
  /**
   * Each device's sets advertise on its controller's 625 µs slot grid, with its own clock error,
   * and receivers time-stamp to the microsecond (ble-advertising-clock.ts); absent = events at
   * any time, timestamps unrounded.
   */
  advertisingClock?: boolean;
  /**
   * Receivers stamp to this resolution, ms (1: a sniffer's or HCI log's millisecond timestamps);
   * absent = µs with the advertising clock, unrounded without it.
   */
  timestampResolutionMs?: number;
  /** Share of packets that fail their CRC. */
  crcBadRate: number;
  /** Of the CRC-bad packets, the share whose bit errors hit the address (the rest hit the payload). */
  crcAddressShare: number;
}

export interface BleScenarioPlan {
  startMs: number;
  endMs: number;
  devices: BleDevicePlan[];
  receivers: BleReceiverPlan[];
  radio: BleRadioPlan;
  /** AD bytes, indexed by `BlePayloadChange.payload`. */
  payloads: Uint8Array[];
  /** Devices that travel together (empty unless the scenario has companions). */
  travelGroups: BleTravelGroup[];
}
