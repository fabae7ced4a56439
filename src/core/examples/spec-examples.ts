/**
 * The JSON examples of tool-contract.md, verbatim. They are test fixtures and the app's
 * one-click examples, so they must not be edited to make anything pass.
 */

/** §4: the regression invocation. */
export const regressionExampleInvocation = {
  tool_name: 'statistical_regression_tool',
  tool_version: '1.2.0',
  capture_selection: {
    capture_id: 'cap_2026_03_14_a',
    selectors: {
      time_range: { start_ms: 0, end_ms: 120000 },
      channels: ['ch1', 'ch2'],
      filters: ['signal_quality >= 0.95'],
    },
  },
  arguments: {
    operation: 'linear_regression',
    target: 'latency_ms',
    features: ['snr', 'jitter', 'packet_loss'],
    alpha: 0.05,
    normalize: true,
  },
  request_id: 'req-9f4e2f7a-1182-4c4d-b2e7-c17d2db8a5d1',
  timeout_ms: 45000,
};

/** "End-to-end example": the invalid plan. */
export const invalidPlanExample = [
  {
    tool_name: 'statistical_regression_tool',
    tool_version: '1.2.0',
    capture_selection: {
      capture_id: 'cap_2026_03_14_a',
      selectors: {
        time_range: { start_ms: 0, end_ms: 999999 },
        channels: ['ch1', 'ch2'],
        filters: [],
      },
    },
    arguments: {
      operation: 'linear_regression',
      features: ['snr', 'jitter', 'packet_loss'],
    },
    request_id: 'req-invalid-001',
    timeout_ms: 45000,
  },
];

/** The executor's validation response to the invalid plan. */
export const invalidPlanExpectedResult = {
  status: 'error',
  summary: 'Invocation failed validation.',
  warnings: [],
  errors: [
    {
      code: 'MISSING_REQUIRED_ARGUMENT',
      message: 'arguments.target is required',
      field: 'arguments.target',
    },
    {
      code: 'UNSUPPORTED_TIME_RANGE',
      message: 'Requested 0-999999ms but capture cap_2026_03_14_a supports 0-120000ms',
      field: 'capture_selection.selectors.time_range',
    },
  ],
  confidence: 0.0,
};

/** The repair step's corrected plan. */
export const correctedPlanExample = [
  {
    tool_name: 'statistical_regression_tool',
    tool_version: '1.2.0',
    capture_selection: {
      capture_id: 'cap_2026_03_14_a',
      selectors: {
        time_range: { start_ms: 0, end_ms: 120000 },
        channels: ['ch1', 'ch2'],
        filters: [],
      },
    },
    arguments: {
      operation: 'linear_regression',
      target: 'latency_ms',
      features: ['snr', 'jitter', 'packet_loss'],
    },
    request_id: 'req-repair-002',
    timeout_ms: 45000,
  },
];

/** §7.4: the BLE analyzer invocation; it runs on the built-in lab_floor demo captures. */
export const bleExampleInvocation = {
  tool_name: 'bluetooth_address_analyzer',
  tool_version: '1.0.0',
  capture_selection: {
    capture_ids: ['lab_floor_2026_04_03_a', 'lab_floor_2026_04_03_b'],
    time_window: { start_ms: 1712131200000, end_ms: 1712133000000 },
    filter_expression: 'channel IN (37,38,39) AND rssi > -92',
  },
  arguments: {
    address_columns: {
      advertiser_addr: 'advertiser_addr',
      initiator_addr: 'initiator_addr',
      scanner_addr: 'scanner_addr',
    },
    analysis_mode: 'both',
    linkage_window_s: 180,
    min_observation_count: 25,
    rpa_rotation_model: 'spec_default',
  },
  request_id: 'req-bt-71ac9d11',
  timeout_ms: 60000,
};

/** A named example the app offers with one click. */
export interface SpecExample {
  id: string;
  title: string;
  /** One invocation, or an ordered plan. */
  value: unknown;
}

export const SPEC_EXAMPLES: SpecExample[] = [
  { id: 'regression', title: 'Regression example (§4)', value: regressionExampleInvocation },
  { id: 'invalid-plan', title: 'Invalid plan (repair example)', value: invalidPlanExample },
  { id: 'corrected-plan', title: 'Corrected plan (repair step)', value: correctedPlanExample },
  { id: 'ble-analyzer', title: 'BLE address analysis (§7.4)', value: bleExampleInvocation },
];
