/** The shapes of co-location linkage that the series, the score and the clusters share. */

export type BleCoLocationTermName = 'co_rotation' | 'tx_offset_consistency' | 'tx_offset_level' | 'rssi_covariation' | 'blind_spot' | 'channel_signature' | 'advertising_clock' | 'clock_rate' | 'prior' | 'one_radio';

export interface BleCoLocationTerm {
  name: BleCoLocationTermName;
  /** Log-likelihood ratio of "one device" vs "unrelated". */
  llrSame: number;
  /** Log-likelihood ratio of "travelled together" vs "unrelated". */
  llrTravel: number;
  text: string;
}

/** A scored pair of concurrent chains. */
export interface BleChainPair {
  a: number;
  b: number;
  /** P(one device), calibrated. */
  same: number;
  /** P(one device) before calibration (the calibration fit reads it). */
  rawSame: number;
  /** P(two devices travelling together). */
  travel: number;
  /**
   * What the posteriors were made of: the pair's log-odds of one device and of travelled together
   * against unrelated (before the prior), the crowd of chains its prior spreads over, and whether
   * it may be one device at all (evidence of one radio, no tag with another kind).
   */
  evidenceS: number;
  evidenceT: number;
  crowd: number;
  mayBeOne: boolean;
  overlapFromMs: number;
  overlapToMs: number;
  /** The members of each chain that overlap the most (the pair reported as a candidate). */
  memberA: number;
  memberB: number;
  /** Log-odds terms; filled for pairs reported (same or travel ≥ DESCRIBE_ABOVE). */
  terms: BleCoLocationTerm[] | undefined;
}

export interface BleChain {
  /** Linkable address indices in time order. */
  members: number[];
  firstMs: number;
  lastMs: number;
}
