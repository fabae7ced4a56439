/**
 * The fields of a `bluetooth_address_analyzer` structured_output this view reads
 * (tool-contract.md §7.2). The executor has validated the output against the tool's
 * output_schema before it gets here; `isBleAnalyzerOutput` only guards the routing.
 */

export type AddressType = 'public' | 'random_static' | 'rpa' | 'nrpa' | 'unknown';

export interface AddressClassificationRow {
  /** Canonical observed address, e.g. `7A:4C:21:9D:10:EF`. */
  address: string;
  type: AddressType;
  /** Posterior-like confidence for the class label, in [0, 1]. */
  confidence: number;
  evidence: string[];
}

export interface ProbabilisticLink {
  cluster_id: string;
  addresses: string[];
  /** Square, aligned with `addresses`; each cell the probability that the two are linked. */
  pairwise_probability_matrix: number[][];
  rationale: string[];
  /** Since 1.1.0: the hand-off chains (one per advertising set) of a multi-set cluster. */
  parallel_chains?: string[][];
  /** Since 1.2.0: the cluster is one tracker tag followed across its rotations. */
  tracker_kind?: TrackerKind;
}

export type TrackerKind = 'find_my' | 'fmdn' | 'smarttag';

/** How a tracker kind is named to people. */
export const TRACKER_NAMES: Record<TrackerKind, string> = { find_my: 'Find My-style tag', fmdn: 'Find My Device Network (FMDN)-style tag', smarttag: 'SmartTag-style tag' };

/** Since 1.1.0: two distinct devices that moved together (same path, separate radios). */
export interface TravelledTogetherRow {
  addresses_a: string[];
  addresses_b: string[];
  cluster_a?: string;
  cluster_b?: string;
  probability: number;
  start_ts: string;
  end_ts: string;
  duration_s: number;
  rationale: string[];
  /** P(one device) of the chain pair behind the relation (1.1.0 analyses from before wave 3 lack it). */
  same_device_probability?: number;
  /** What kept the two apart: no evidence of one radio, different tracker kinds, too many concurrent sets. */
  separated_by?: string;
  /** Since 1.2.0: one side is a tracker tag of this kind. */
  tracker_kind?: TrackerKind;
}

export interface TimelineSegment {
  address: string;
  /** RFC3339 instant in the capture's wall clock. */
  start_ts: string;
  end_ts: string;
  /** Relative activity intensity; comparable within one run only. */
  activity_score: number;
}

export interface BleAnalyzerOutput {
  address_classification: AddressClassificationRow[];
  probabilistic_links: ProbabilisticLink[];
  timeline_segments: TimelineSegment[];
  travelled_together?: TravelledTogetherRow[];
}

export const BLE_ANALYZER_TOOL = 'bluetooth_address_analyzer';

export function isBleAnalyzerOutput(output: unknown): output is BleAnalyzerOutput {
  if (typeof output !== 'object' || output === null) return false;
  const candidate = output as Record<string, unknown>;
  return Array.isArray(candidate.address_classification) && Array.isArray(candidate.probabilistic_links) && Array.isArray(candidate.timeline_segments);
}
