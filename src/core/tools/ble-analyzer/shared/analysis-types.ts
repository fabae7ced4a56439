import type { ToolWarning } from '../../../contract/tool-error.ts';
import type { BleTrackerKind } from './tracker-kind.ts';

/**
 * The analyzer's full result, richer than the tool's `structured_output`: the evaluation
 * harness scores every candidate pair (not only those inside clusters), and the tool output is
 * derived from this.
 */

export type AddressType = 'public' | 'random_static' | 'rpa' | 'nrpa' | 'unknown';

export type RpaRotationModelName = 'spec_default' | 'fast_rotation' | 'slow_rotation' | 'learned';

export interface BleAnalysisOptions {
  mode: 'classification' | 'linkage' | 'both';
  linkageWindowS: number;
  minObservationCount: number;
  rotationModel: RpaRotationModelName;
  /** Column names from the invocation's `address_columns`. */
  addressColumns: { advertiser: string; initiator: string; scanner?: string };
  /** Identity resolving keys, MSB-first as parsed from 32 hex digits. */
  irks?: ReadonlyArray<{ label: string; irk: Uint8Array }>;
  /** Keep packets with `crc_ok = false` (default false: they are left out with a warning). */
  includeCrcBad?: boolean;
  /** Report the model's raw probabilities, skipping the fitted calibration (for refitting it). */
  uncalibrated?: boolean;
  /**
   * Also list every scored candidate pair with its probability and factor texts (`candidates`):
   * the evaluation and the calibration fit read them. The tool's output does not, so it leaves
   * them out: tens of thousands of pairs, most of them near zero.
   */
  includeCandidates?: boolean;
}

export interface AddressClassification {
  address: string;
  type: AddressType;
  /** In [0, 1]. */
  confidence: number;
  evidence: string[];
  observations: number;
  firstSeenMs: number;
  lastSeenMs: number;
  /** The tracker kind its payloads show (the trackers/ stage), when they show one. */
  trackerKind?: BleTrackerKind;
}

/** One candidate pair from the time sweep; `earlier` hands off to `later`. */
export interface LinkCandidate {
  earlier: string;
  later: string;
  /** Calibrated probability that both addresses belong to the same emitter. */
  probability: number;
  /**
   * The model's probability before calibration, where `probability` is its calibration: absent
   * for a pair read at its cluster's matrix, a shared IRK, an overlap ruled out. The
   * calibration fit reads it (bench/fit-ble-calibration.ts).
   */
  rawProbability?: number;
  /** Factor names with their contribution, readable in a rationale. */
  factors: string[];
  /** How the pair would be joined: a hand-off (default) or co-location of concurrent advertising sets. */
  relation?: 'handoff' | 'co_location';
}

export interface AddressCluster {
  clusterId: string;
  addresses: string[];
  /** Square, symmetric, aligned with `addresses`, diagonal 1. */
  matrix: number[][];
  rationale: string[];
  /** The hand-off chains (one per advertising set) the cluster is made of, each in time order. */
  chains?: string[][];
  /** Set when the cluster is a tracker tag followed across its rotations (the trackers/ stage). */
  trackerKind?: BleTrackerKind;
}

/**
 * Two distinct devices (clusters or single addresses) that moved together: same path, separate
 * radios. `probability` is P(travelled together) beside the pair's small P(same device).
 */
export interface TravelledTogether {
  /** Addresses of each side (a cluster's members, or one address). */
  a: string[];
  b: string[];
  clusterA?: string;
  clusterB?: string;
  probability: number;
  /** Set when one side is a tracker tag (its kind; the trackers/ stage): "this tag moved with this phone". */
  trackerKind?: BleTrackerKind;
  /** When both were heard together, ms in the capture clock. */
  fromMs: number;
  toMs: number;
  rationale: string[];
  /** P(one device) of the chain pair that carried the relation (low: what was weighed against travelled together). */
  sameDeviceProbability: number;
  /** What kept the two apart rather than one device (the rationale's `one_radio` verdict): e.g. no evidence of one radio, a tracker tag, a device too large. */
  separatedBy: string;
}

export interface ActivitySegment {
  address: string;
  startMs: number;
  endMs: number;
  activityScore: number;
}

export interface RotationModelReport {
  name: RpaRotationModelName;
  /** Expected RPA lifetime range in seconds under the model (learned: estimated from the data). */
  lifetimeMinS: number;
  lifetimeMaxS: number;
  /** For `learned`: how many observed lifetimes the estimate rests on. */
  basedOnLifetimes?: number;
}

export interface BleAnalysis {
  /** Observations used after selection and CRC filtering. */
  observations: number;
  classification: AddressClassification[];
  /** Every pair the sweep considered, with its probability: only with `includeCandidates` (and never in classification mode). */
  candidates: LinkCandidate[];
  /** How many candidate pairs (hand-off and co-location) were scored, listed or not. */
  candidatePairs: number;
  clusters: AddressCluster[];
  /** Distinct devices that travelled together (linkage modes only). */
  travelledTogether: TravelledTogether[];
  segments: ActivitySegment[];
  rotationModel: RotationModelReport;
  warnings: ToolWarning[];
  /** Addresses below `minObservationCount` (classified unknown, skipped by linkage). */
  sparseAddresses: number;
  /** Selected packets left out because their CRC failed. */
  crcBadExcluded: number;
  /** Addresses treated as bit-flipped copies of a well-observed address (not reported). */
  foldedAddresses: number;
  /** Per capture, its `sextant.time_origin` (RFC3339 of time 0) or null for absolute (epoch) clocks. */
  timeOrigins: Array<{ captureId: string; timeOrigin: string | null }>;
}
