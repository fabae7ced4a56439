import type { JsonSchema, ToolManifest } from '../../../contract/types.ts';

/**
 * The input of `bluetooth_address_analyzer` (since 1.1.0): tool-contract.md §7.1 and §7.2 verbatim, plus two optional
 * arguments (a minor, backward-compatible addition): `irks` and `include_crc_bad`, and the
 * suggested values of the required arguments as `examples` (annotations: they change no
 * validation): the normalized BLE column names (docs/capture-schema.md) and the values of the
 * §7.4 example invocation, which the form offers and the evaluation uses.
 */
export const bleAnalyzerInputSchema: JsonSchema = {
  type: 'object',
  properties: {
    capture_selection: {
      type: 'object',
      properties: {
        capture_ids: { type: 'array', items: { type: 'string' }, minItems: 1 },
        time_window: {
          type: 'object',
          properties: {
            start_ms: { type: 'integer', minimum: 0 },
            end_ms: { type: 'integer', minimum: 0 },
          },
          required: ['start_ms', 'end_ms'],
        },
        filter_expression: {
          type: 'string',
          description: "Optional implementation-specific predicate, e.g., \"adv_type IN ('ADV_IND','ADV_NONCONN_IND')\".",
        },
      },
      required: ['capture_ids', 'time_window'],
    },
    address_columns: {
      type: 'object',
      properties: {
        advertiser_addr: { type: 'string' },
        initiator_addr: { type: 'string' },
        scanner_addr: { type: 'string' },
      },
      required: ['advertiser_addr', 'initiator_addr'],
      description: 'Column names from normalized packet records; scanner_addr is optional.',
      examples: [{ advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr', scanner_addr: 'scanner_addr' }],
    },
    analysis_mode: { type: 'string', enum: ['classification', 'linkage', 'both'], examples: ['both'] },
    linkage_window_s: {
      type: 'number',
      minimum: 1,
      description: 'Maximum seconds between related observations when estimating linkage.',
      examples: [180],
    },
    min_observation_count: {
      type: 'integer',
      minimum: 1,
      description: 'Minimum per-address observations required before inference.',
      examples: [25],
    },
    rpa_rotation_model: {
      type: 'string',
      enum: ['spec_default', 'fast_rotation', 'slow_rotation', 'learned'],
      description: 'Assumption set for random private address rotation cadence.',
      examples: ['spec_default'],
    },
    irks: {
      type: 'array',
      description:
        'Optional identity resolving keys. RPAs that resolve under a key (ah(IRK, prand) = hash) are linked with probability 1. ' +
        'The key is 32 hex digits, most significant octet first as the Core specification prints sample data ' +
        '(HCI, SMP and BlueZ carry IRKs least significant octet first: reverse those).',
      items: {
        type: 'object',
        properties: {
          label: { type: 'string', minLength: 1, description: 'Name of the key, quoted in evidence and rationale.' },
          irk: { type: 'string', pattern: '^[0-9A-Fa-f]{32}$', description: '128-bit IRK, 32 hex digits, MSB first.' },
        },
        required: ['label', 'irk'],
      },
    },
    include_crc_bad: {
      type: 'boolean',
      default: false,
      description: 'Also analyse packets whose CRC failed (crc_ok = false). Off by default: they carry bit-flipped phantom addresses.',
    },
  },
  required: ['capture_selection', 'address_columns', 'analysis_mode', 'linkage_window_s', 'min_observation_count', 'rpa_rotation_model'],
};

export const bleAnalyzerOutputSchema: JsonSchema = {
  type: 'object',
  properties: {
    address_classification: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          address: { type: 'string' },
          type: { type: 'string', enum: ['public', 'random_static', 'rpa', 'nrpa', 'unknown'] },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
          evidence: { type: 'array', items: { type: 'string' } },
          tracker_kind: {
            type: 'string',
            enum: ['find_my', 'fmdn', 'smarttag'],
            description: 'Since 1.2.0: the tracker format its payloads show (Find My-style, Google FMDN-style, Samsung SmartTag-style); absent for other addresses.',
          },
        },
        required: ['address', 'type', 'confidence', 'evidence'],
      },
    },
    probabilistic_links: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          cluster_id: { type: 'string' },
          addresses: { type: 'array', items: { type: 'string' }, minItems: 2 },
          pairwise_probability_matrix: {
            type: 'array',
            items: { type: 'array', items: { type: 'number', minimum: 0, maximum: 1 } },
          },
          rationale: { type: 'array', items: { type: 'string' } },
          parallel_chains: {
            type: 'array',
            description: 'Since 1.1.0: the hand-off chains (one per advertising set) the cluster is made of, each in time order; chains are joined by co-location.',
            items: { type: 'array', items: { type: 'string' } },
          },
          tracker_kind: {
            type: 'string',
            enum: ['find_my', 'fmdn', 'smarttag'],
            description: 'Since 1.2.0: set when the cluster is one tracker tag followed across its rotations (its rationale begins with a tracker_rotation line naming the rotation, e.g. the daily one of Find My separated mode).',
          },
        },
        required: ['cluster_id', 'addresses', 'pairwise_probability_matrix', 'rationale'],
      },
    },
    travelled_together: {
      type: 'array',
      description:
        'Since 1.1.0: distinct devices (clusters or single addresses) that moved together — same path, separate radios (a phone and its watch, earbuds or tag). Not a same-device link.',
      items: {
        type: 'object',
        properties: {
          addresses_a: { type: 'array', items: { type: 'string' }, minItems: 1 },
          addresses_b: { type: 'array', items: { type: 'string' }, minItems: 1 },
          cluster_a: { type: 'string' },
          cluster_b: { type: 'string' },
          tracker_kind: {
            type: 'string',
            enum: ['find_my', 'fmdn', 'smarttag'],
            description: 'Since 1.2.0: set when one side is a tracker tag (its kind): a tag that moved with a phone.',
          },
          probability: { type: 'number', minimum: 0, maximum: 1 },
          start_ts: { type: 'string', description: 'RFC3339 timestamp' },
          end_ts: { type: 'string', description: 'RFC3339 timestamp' },
          duration_s: { type: 'number', minimum: 0 },
          rationale: { type: 'array', items: { type: 'string' } },
          same_device_probability: { type: 'number', minimum: 0, maximum: 1, description: 'P(one device) of the chain pair behind the relation: what travelled together was weighed against' },
          separated_by: { type: 'string', description: 'What kept the two apart rather than one device, e.g. no evidence of one radio (co-movement alone), a tracker tag, more concurrent sets than one device runs' },
        },
        required: ['addresses_a', 'addresses_b', 'probability', 'start_ts', 'end_ts', 'duration_s', 'rationale'],
      },
    },
    timeline_segments: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          address: { type: 'string' },
          start_ts: { type: 'string', description: 'RFC3339 timestamp' },
          end_ts: { type: 'string', description: 'RFC3339 timestamp' },
          activity_score: { type: 'number', minimum: 0 },
        },
        required: ['address', 'start_ts', 'end_ts', 'activity_score'],
      },
    },
  },
  required: ['address_classification', 'probabilistic_links', 'timeline_segments'],
};

/**
 * The manifest of `bluetooth_address_analyzer` 1.2.0: 1.0.0 plus optional output fields, each a
 * minor change under classify-change (1.0.0 and 1.1.0 invocations resolve to it): in 1.1.0
 * `travelled_together` and `probabilistic_links[].parallel_chains`; in 1.2.0 `tracker_kind` on
 * classifications, clusters and relations, and each relation's `same_device_probability` and
 * `separated_by`.
 */
export const bleAddressAnalyzerManifest: ToolManifest = {
  name: 'bluetooth_address_analyzer',
  version: '1.2.0',
  description:
    'Infers BLE address types (public, random static, resolvable and non-resolvable private) with calibrated confidence and ' +
    'readable evidence, links rotating private addresses that probably belong to one emitter (hand-off timing, rotation-model ' +
    'fit, RSSI continuity, payload signatures, optional IRK resolution; concurrent advertising sets of one device joined by ' +
    'co-location) into clusters with pairwise probability matrices, reports distinct devices that travelled together, and ' +
    'gives per-address activity timelines. Scores are model-based and posterior-like: investigative leads, not attribution.',
  capabilities: ['classification', 'linkage', 'both'],
  input_schema: bleAnalyzerInputSchema,
  output_schema: bleAnalyzerOutputSchema,
  execution_constraints: {
    max_timeout_ms: 300000,
    max_payload_bytes: 65536,
    supports_streaming: false,
    side_effects: 'none',
  },
  cost_hint: { unit: 'call', estimated_cost: 0, currency: 'credits' },
  deterministic: true,
};
