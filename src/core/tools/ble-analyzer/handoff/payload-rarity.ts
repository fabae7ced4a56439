import type { BlePayloadFeatures } from '../scan/payload-features.ts';

/** Where the AD features of a payload id come from (BleObservationStore). */
export interface BlePayloadSource {
  payloadFeatures(payload: number): BlePayloadFeatures;
}

/** The payload ids of an address that rarity counts (a BleAddressProfile). */
export interface BlePayloadCarrier {
  readonly headPayload: number;
  readonly tailPayload: number;
  readonly dominantPayload: number;
}

/** The template of a payload without AD data (payload id −1). */
const NO_AD_TEMPLATE = '(no AD data)';

/**
 * How many of the linkable addresses carry each payload signature (any of head, tail and
 * dominant payload, each distinct one once) and each AD template (of the dominant payload), for
 * the hand-off linkage's rarity weighting. Templates get small integer ids, one string lookup per
 * payload rather than per address and pair (templates are long strings built by concatenation:
 * every Map lookup hashed or compared them), and the counts are arrays indexed by payload and
 * template id.
 */
export class BlePayloadRarity {
  /** Number of addresses counted. */
  readonly total: number;
  /** Template id by payload id + 1 (slot 0 is "no AD data"); −1 until looked up. */
  private readonly templateIdOf: Int32Array;
  private readonly templateIds = new Map<string, number>();
  /** Addresses by payload id + 1. */
  private readonly signatureCounts: Int32Array;
  /** Addresses by template id of their dominant payload (grown as ids are made). */
  private templateCounts = new Int32Array(64);

  constructor(
    carriers: ReadonlyArray<BlePayloadCarrier>,
    private readonly payloads: BlePayloadSource,
  ) {
    this.total = carriers.length;
    let largest = -1;
    for (const { headPayload, tailPayload, dominantPayload } of carriers) largest = Math.max(largest, headPayload, tailPayload, dominantPayload);
    this.templateIdOf = new Int32Array(largest + 2).fill(-1);
    this.signatureCounts = new Int32Array(largest + 2);
    for (const { headPayload, tailPayload, dominantPayload } of carriers) {
      // Each distinct one of the three once.
      this.signatureCounts[headPayload + 1]++;
      if (tailPayload !== headPayload) this.signatureCounts[tailPayload + 1]++;
      if (dominantPayload !== headPayload && dominantPayload !== tailPayload) this.signatureCounts[dominantPayload + 1]++;
      this.templateCounts[this.templateId(dominantPayload)]++;
    }
  }

  /**
   * The id of the AD template of `payload` (−1: no AD data), equal for equal templates; for the
   * payloads of the counted addresses (others are looked up every time).
   */
  templateId(payload: number): number {
    let id = this.templateIdOf[payload + 1];
    if (id >= 0) return id;
    const template = payload < 0 ? NO_AD_TEMPLATE : this.payloads.payloadFeatures(payload).template;
    id = this.templateIds.get(template) ?? -1;
    if (id < 0) {
      id = this.templateIds.size;
      this.templateIds.set(template, id);
      if (id === this.templateCounts.length) {
        const grown = new Int32Array(2 * id);
        grown.set(this.templateCounts);
        this.templateCounts = grown;
      }
    }
    this.templateIdOf[payload + 1] = id;
    return id;
  }

  /** Counted addresses that carry signature `payload`. */
  signatureCount(payload: number): number {
    return this.signatureCounts[payload + 1];
  }

  /** Counted addresses whose dominant payload has template `templateId`. */
  templateCount(templateId: number): number {
    return this.templateCounts[templateId];
  }
}
