import type { AddressType } from '../shared/analysis-types.ts';
import type { BleAddressProfile, BleProfileReceivers } from '../profile/address-profiles.ts';
import type { BleRotationModel } from '../classify/rotation-model.ts';
import type { BlePayloadSource } from './payload-rarity.ts';
import type { BleTrackerKind } from '../shared/tracker-kind.ts';
import type { BleScanPauses } from '../scan/scan-pauses.ts';
import type { BleClockRates } from '../co-location/clock-rate.ts';

/** The shapes the hand-off stage shares with its model, its describer and the later stages (co-location, clusters). */

export interface BleLinkableAddress {
  profile: BleAddressProfile;
  address: string;
  type: AddressType;
  /** Index of the IRK that resolves it, or -1. */
  irk: number;
  /** The tracker kind its payloads show (the trackers/ stage), when they show one. */
  tracker?: BleTrackerKind;
}

export interface BleLinkContext {
  linkageWindowS: number;
  /** Each address's clock rate from its own packets (co-location/clock-rate.ts); absent: the clock_rate term is not read. */
  clockRates?: BleClockRates;
  model: BleRotationModel;
  /**
   * AD features of a payload id: the observation store itself. An object with a method, not a
   * closure made per analysis: optimized code that inlines a closure keeps a weak reference to
   * it and is thrown away when the previous analysis's closure is collected, so the hot loops
   * ran unoptimized for a while in every analysis (seen on the 2M bench input).
   */
  payloads: BlePayloadSource;
  receiverNames: ReadonlyArray<string>;
  /** Head and tail RSSI per receiver of every profiled address (by profile id). */
  receivers: BleProfileReceivers;
  /** Time span of the analysed data (ms): addresses active at its edges are censored. */
  dataStartMs: number;
  dataEndMs: number;
  /**
   * Scan pauses (scan-pauses.ts): the window and hand-off gaps count scanning time, and a
   * hand-off inside a pause is not timed. Absent: scanning never paused.
   */
  pauses?: BleScanPauses;
  /**
   * How much one emitter's RSSI level moves between two blocks of its packets, per address and in
   * this capture (rssi-level-drift.ts): rssi_continuity's level variance where it exceeds the model's. Absent: the model's.
   */
  rssiLevelDrift?: BleRssiLevelDrift;
  /** The clock skew measured between receivers (ms, clock-skew.ts), added to the overlap tolerance. Absent: 0. */
  clockSkewMs?: number;
  irkLabels: ReadonlyArray<string>;
  /** Skip the fitted calibration (calibration.ts). */
  uncalibrated?: boolean;
  /**
   * Describe every pair at or above DESCRIBE_ABOVE with all its factors (for the candidate list).
   * Clusters read only rssi_continuity, payload_signature_match and adv_interval_similarity
   * (clusterRationale in clusters.ts) of the hand-offs they are made of, and ask for them when
   * they are built (BleLinks.handoffs), described the same way, in either mode.
   */
  describeCandidates?: boolean;
}


export interface BleLinkFactor {
  name: 'irk_resolution' | 'rotation_interval_fit' | 'handoff_gap' | 'rssi_continuity' | 'payload_signature_match' | 'adv_interval_similarity' | 'clock_rate' | 'co_occurrence' | 'address_kind' | 'tracker_rotation';
  /** Natural-log likelihood ratio contribution. */
  llr: number;
  text: string;
}

/** Scored pairs as parallel arrays: pair e is earlier[e] → later[e] with probability[e]. */
export interface BleScoredPairs {
  earlier: Int32Array;
  later: Int32Array;
  probability: Float64Array;
}

/** How far one emitter's RSSI level moves between two blocks of its packets in this capture (measured by rssi-level-drift.ts). */
export interface BleRssiLevelDrift {
  /** The capture's variance of a block difference (dB², with the means' scatter of two full edges); NaN with too few blocks. */
  capture: number;
  /** Per profile id: the summed squared block differences over its receivers (each with a full edge pair's scatter), and how many. */
  sum: Float64Array;
  count: Uint8Array;
}
