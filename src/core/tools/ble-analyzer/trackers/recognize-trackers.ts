import type { ToolWarning } from '../../../contract/tool-error.ts';
import type { BleAddressProfile } from '../profile/address-profiles.ts';
import type { BleTrackerKind } from '../shared/tracker-kind.ts';
import { formatBleCount } from '../shared/count-format.ts';
import { readTrackerPayload, type BleTrackerPayloadFields, type BleTrackerReading } from './tracker-payloads.ts';

/** Where the AD features of a payload id come from (the observation store). */
export interface BleTrackerPayloadSource {
  payloadFeatures(payload: number): BleTrackerPayloadFields;
}

/**
 * The trackers of a capture: which addresses advertise a tracker format, and the reading of
 * each payload asked about. Recognition works per payload id, never per packet: each address
 * is judged by its most frequent, first and last payloads (the ones the profile keeps), and each
 * distinct payload is read once.
 */
export class BleTrackerRecognition {
  /** Per address id: the tracker kind, or undefined. */
  readonly kindOf: Array<BleTrackerKind | undefined>;
  /** Distinct payloads read that claim a tracker format but do not hold it. */
  malformed = 0;
  /** Addresses recognized, per kind. */
  readonly counts: Record<BleTrackerKind, number> = { find_my: 0, fmdn: 0, smarttag: 0 };
  private readonly readings = new Map<number, BleTrackerReading>();

  constructor(
    addressCount: number,
    private readonly payloads: BleTrackerPayloadSource,
  ) {
    this.kindOf = new Array<BleTrackerKind | undefined>(addressCount);
  }

  /** The reading of payload id `payload` (−1: no AD data), read once. */
  reading(payload: number): BleTrackerReading {
    if (payload < 0) return { kind: 'none' };
    let reading = this.readings.get(payload);
    if (!reading) {
      reading = readTrackerPayload(this.payloads.payloadFeatures(payload));
      this.readings.set(payload, reading);
      if (reading.kind === 'malformed') this.malformed++;
    }
    return reading;
  }

  /** The tracker kind an address's payloads show: its most frequent payload's, else its last or first payload's. */
  recognize(id: number, profile: BleAddressProfile): BleTrackerKind | undefined {
    let kind: BleTrackerKind | undefined;
    for (const payload of [profile.dominantPayload, profile.tailPayload, profile.headPayload]) {
      const reading = this.reading(payload);
      if (!kind && reading.kind !== 'none' && reading.kind !== 'malformed') kind = reading.kind;
    }
    this.kindOf[id] = kind;
    if (kind) this.counts[kind]++;
    return kind;
  }
}

/**
 * Recognizes the trackers among the profiled addresses that are not folded copies, and warns
 * (TRACKER_PAYLOAD_MALFORMED, with the count) about payloads that claim a tracker format but do
 * not hold it; those are read as unknown payloads.
 */
export function recognizeTrackers(
  profiles: ReadonlyArray<BleAddressProfile | undefined>,
  isFolded: Uint8Array,
  payloads: BleTrackerPayloadSource,
  warnings: ToolWarning[],
): BleTrackerRecognition {
  const recognition = new BleTrackerRecognition(profiles.length, payloads);
  for (let id = 0; id < profiles.length; id++) {
    const profile = profiles[id];
    if (profile && !isFolded[id]) recognition.recognize(id, profile);
  }
  if (recognition.malformed > 0) {
    warnings.push({
      code: 'TRACKER_PAYLOAD_MALFORMED',
      message: `${formatBleCount(recognition.malformed)} distinct payload${recognition.malformed === 1 ? '' : 's'} claim a tracker format (Find My, FMDN or SmartTag) but are truncated or malformed: read as unknown payloads`,
    });
  }
  return recognition;
}
