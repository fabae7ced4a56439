import type { ToolWarning } from '../../../contract/tool-error.ts';
import type { BleAddressProfile } from '../profile/address-profiles.ts';
import type { AddressType } from '../shared/analysis-types.ts';
import type { BleTrackerKind } from '../shared/tracker-kind.ts';
import { formatBleCount } from '../shared/count-format.ts';
import { readTrackerPayload, type BleTrackerPayloadFields, type BleTrackerReading } from './tracker-payloads.ts';

/** Where the AD features of a payload id come from (the observation store). */
export interface BleTrackerPayloadSource {
  payloadFeatures(payload: number): BleTrackerPayloadFields;
}

/**
 * The trackers of a capture: which addresses advertise a tracker format, and the reading of
 * each payload asked about. Recognition works per payload id, never per packet: each random
 * address is judged by its most frequent, first and last payloads (the ones the profile keeps;
 * classification and the hand-off rarity read the same AD features, which the store caches), and
 * each distinct payload is read once.
 */
export class BleTrackerRecognition {
  /** Per address id: the tracker kind, or undefined. */
  readonly kindOf: Array<BleTrackerKind | undefined>;
  /** Distinct payloads read that claim a tracker format but do not hold it. */
  malformed = 0;
  /** Addresses recognized, per kind. */
  readonly counts: Record<BleTrackerKind, number> = { find_my: 0, fmdn: 0, smarttag: 0 };
  /** By payload id: its reading once read. */
  private readonly readings: Array<BleTrackerReading | undefined>;

  constructor(
    addressCount: number,
    payloadCount: number,
    private readonly payloads: BleTrackerPayloadSource,
  ) {
    this.kindOf = new Array<BleTrackerKind | undefined>(addressCount);
    this.readings = new Array<BleTrackerReading | undefined>(payloadCount);
  }

  /** The reading of payload id `payload` (−1: no AD data), read once. */
  reading(payload: number): BleTrackerReading {
    if (payload < 0) return { kind: 'none' };
    let reading = this.readings[payload];
    if (!reading) {
      reading = readTrackerPayload(this.payloads.payloadFeatures(payload));
      this.readings[payload] = reading;
      if (reading.kind === 'malformed') this.malformed++;
    }
    return reading;
  }

  /** The tracker kind an address's payloads show: its most frequent payload's, else its last or first payload's. */
  recognize(id: number, profile: BleAddressProfile): BleTrackerKind | undefined {
    let kind = this.kindIn(profile.dominantPayload);
    const tail = this.kindIn(profile.tailPayload);
    const head = this.kindIn(profile.headPayload);
    kind ??= tail ?? head;
    this.kindOf[id] = kind;
    if (kind) this.counts[kind]++;
    return kind;
  }

  /** The kind a payload shows, if any. */
  private kindIn(payload: number): BleTrackerKind | undefined {
    const reading = this.reading(payload);
    return reading.kind === 'none' || reading.kind === 'malformed' ? undefined : reading.kind;
  }
}

/**
 * Recognizes the trackers among the profiled random addresses (tags use random static,
 * resolvable or non-resolvable addresses) that are not folded copies, and warns
 * (TRACKER_PAYLOAD_MALFORMED, with the count) about payloads that claim a tracker format but do
 * not hold it; those are read as unknown payloads.
 */
export function recognizeTrackers(
  profiles: ReadonlyArray<BleAddressProfile | undefined>,
  isFolded: Uint8Array,
  typeOf: ReadonlyArray<AddressType>,
  payloads: BleTrackerPayloadSource & { readonly payloadCount: number },
  warnings: ToolWarning[],
): BleTrackerRecognition {
  const recognition = new BleTrackerRecognition(profiles.length, payloads.payloadCount, payloads);
  for (let id = 0; id < profiles.length; id++) {
    const profile = profiles[id];
    const type = typeOf[id];
    if (profile && !isFolded[id] && (type === 'rpa' || type === 'nrpa' || type === 'random_static')) recognition.recognize(id, profile);
  }
  if (recognition.malformed > 0) {
    warnings.push({
      code: 'TRACKER_PAYLOAD_MALFORMED',
      message: `${formatBleCount(recognition.malformed)} distinct payload${recognition.malformed === 1 ? '' : 's'} claim a tracker format (Find My, FMDN or SmartTag) but are truncated or malformed: read as unknown payloads`,
    });
  }
  return recognition;
}
