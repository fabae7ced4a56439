import type { JsonSchema, ToolManifest } from '../../contract/types.ts';
import type { JsonObject } from '../../util/json.ts';

/** The operations of the regression tool, in manifest order. */
export const REGRESSION_OPERATIONS = ['linear_regression', 'summary_stats', 'anova', 'correlation'] as const;

/** One of the tool's operations: the value of `arguments.operation` and of `structured_output.model`. */
export type RegressionOperation = (typeof REGRESSION_OPERATIONS)[number];

const nullableNumber: JsonObject = { type: ['number', 'null'] };
const count: JsonObject = { type: 'integer', minimum: 0 };
const probability: JsonObject = { type: ['number', 'null'], minimum: 0, maximum: 1 };

function termMap(description: string, values: JsonObject = nullableNumber): JsonObject {
  return { type: 'object', description, additionalProperties: values };
}

function whenModel(model: RegressionOperation, required: string[]): JsonObject {
  return { if: { properties: { model: { const: model } }, required: ['model'] }, then: { required } };
}

/** JSON Schema (2020-12 compatible) of the tool's `arguments`. */
export const regressionInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    operation: {
      type: 'string',
      enum: [...REGRESSION_OPERATIONS],
      description:
        'linear_regression: ordinary least squares of target on features. summary_stats: count, mean, sd, quartiles per column. ' +
        'anova: one-way ANOVA of target across the groups of group_by. correlation: Pearson correlation matrix with p-values.',
    },
    target: {
      type: 'string',
      minLength: 1,
      description: 'Numeric response column (linear_regression, anova).',
    },
    features: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      uniqueItems: true,
      description: 'Numeric predictor columns for linear_regression; must not include target.',
    },
    columns: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      uniqueItems: true,
      description: 'Numeric columns for summary_stats and correlation (default: every numeric column of the capture).',
    },
    group_by: {
      type: 'string',
      minLength: 1,
      description: 'Categorical column whose values define the groups (anova); any column kind.',
    },
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.05,
      description: 'Significance level for p-value decisions and (1 − alpha) confidence intervals.',
    },
    normalize: {
      type: 'boolean',
      default: false,
      description:
        'linear_regression: fit on standardized features and also report standardized_coefficients; coefficients stay on the data scale.',
    },
    fit_intercept: {
      type: 'boolean',
      default: true,
      description: 'linear_regression: include an intercept. Without one, r_squared is uncentred (1 − RSS/Σy²).',
    },
  },
  required: ['operation'],
  allOf: [
    {
      if: { properties: { operation: { const: 'linear_regression' } }, required: ['operation'] },
      then: { required: ['target', 'features'] },
    },
    {
      if: { properties: { operation: { const: 'anova' } }, required: ['operation'] },
      then: { required: ['target', 'group_by'] },
    },
    {
      if: { properties: { operation: { const: 'correlation' } }, required: ['operation'] },
      then: { properties: { columns: { minItems: 2 } } },
    },
  ],
};

const coefficientRow: JsonObject = {
  type: 'object',
  additionalProperties: false,
  required: ['term', 'estimate', 'std_error', 't_statistic', 'p_value', 'ci_low', 'ci_high', 'significant', 'aliased'],
  properties: {
    term: { type: 'string' },
    estimate: nullableNumber,
    std_error: nullableNumber,
    t_statistic: nullableNumber,
    p_value: probability,
    ci_low: nullableNumber,
    ci_high: nullableNumber,
    significant: { type: 'boolean' },
    aliased: { type: 'boolean' },
  },
};

const summaryRow: JsonObject = {
  type: 'object',
  additionalProperties: false,
  required: ['column', 'count', 'missing', 'mean', 'sd', 'min', 'q1', 'median', 'q3', 'max'],
  properties: {
    column: { type: 'string' },
    count,
    missing: count,
    mean: nullableNumber,
    sd: nullableNumber,
    min: nullableNumber,
    q1: nullableNumber,
    median: nullableNumber,
    q3: nullableNumber,
    max: nullableNumber,
  },
};

const nullableMatrix: JsonObject = { type: 'array', items: { type: 'array', items: nullableNumber } };

/**
 * JSON Schema of `structured_output`. One flat object whose `model` names the operation; the
 * fields each operation always returns are required through `if`/`then` on `model`.
 * Numbers that do not exist (aliased terms, statistics of exact fits, infinite t or F) are null.
 */
export const regressionOutputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'sample_count'],
  properties: {
    model: { type: 'string', enum: [...REGRESSION_OPERATIONS] },
    sample_count: { ...count, description: 'Rows used (linear_regression, anova) or selected (summary_stats, correlation).' },
    alpha: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    target: { type: 'string' },
    features: { type: 'array', items: { type: 'string' } },
    // linear_regression
    r_squared: { ...nullableNumber, description: 'Centred with an intercept, uncentred (1 − RSS/Σy²) without; null when undefined.' },
    adjusted_r_squared: nullableNumber,
    coefficients: termMap('Estimates by term, intercept first; null for aliased terms.'),
    p_values: termMap('Two-sided p-values of the features (not the intercept).', probability),
    std_errors: termMap('Standard errors by term.'),
    t_statistics: termMap('t statistics by term; null when infinite or undefined.'),
    confidence_intervals: termMap('[low, high] by term at confidence_level.', {
      type: 'array',
      items: nullableNumber,
      minItems: 2,
      maxItems: 2,
    }),
    confidence_level: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    f_statistic: { ...nullableNumber, description: 'Overall F (linear_regression) or between-groups F (anova); null when infinite or undefined.' },
    f_p_value: probability,
    residual_std_error: nullableNumber,
    df_model: count,
    df_residual: count,
    fit_intercept: { type: 'boolean' },
    normalize: { type: 'boolean' },
    significant_predictors: { type: 'array', items: { type: 'string' }, description: 'Features with p < alpha, most significant first.' },
    coefficient_table: { type: 'array', items: coefficientRow },
    standardized_coefficients: termMap('Coefficients per one standard deviation of each feature (normalize only).'),
    aliased_terms: { type: 'array', items: { type: 'string' }, description: 'Terms dropped as linearly dependent on earlier terms.' },
    rows_skipped_non_finite: { ...count, description: 'Selected rows skipped because a used value was null, NaN or ±Infinity.' },
    diagnostics: {
      type: 'object',
      additionalProperties: false,
      required: ['sample', 'sample_size', 'sampled_from'],
      properties: {
        sample: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['fitted', 'actual', 'residual'],
            properties: { fitted: { type: 'number' }, actual: { type: 'number' }, residual: { type: 'number' } },
          },
        },
        sample_size: count,
        sampled_from: count,
      },
    },
    // summary_stats and correlation
    columns: { type: 'array', items: { type: 'string' } },
    statistics: { type: 'array', items: summaryRow },
    // anova
    group_by: { type: 'string' },
    groups: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['group', 'count', 'mean', 'sd'],
        properties: { group: { type: 'string' }, count, mean: nullableNumber, sd: nullableNumber },
      },
    },
    p_value: probability,
    df_between: count,
    df_within: count,
    ss_between: nullableNumber,
    ss_within: nullableNumber,
    ss_total: nullableNumber,
    ms_between: nullableNumber,
    ms_within: nullableNumber,
    eta_squared: probability,
    significant: { type: 'boolean' },
    rows_skipped: { ...count, description: 'Selected rows left out for a missing or non-finite value.' },
    // correlation
    correlation_matrix: nullableMatrix,
    p_value_matrix: nullableMatrix,
    pairs: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['x', 'y', 'r', 'p_value', 'n', 'significant'],
        properties: { x: { type: 'string' }, y: { type: 'string' }, r: nullableNumber, p_value: probability, n: count, significant: { type: 'boolean' } },
      },
    },
  },
  allOf: [
    whenModel('linear_regression', [
      'target',
      'features',
      'r_squared',
      'adjusted_r_squared',
      'coefficients',
      'p_values',
      'std_errors',
      't_statistics',
      'confidence_intervals',
      'confidence_level',
      'alpha',
      'f_statistic',
      'f_p_value',
      'residual_std_error',
      'df_model',
      'df_residual',
      'fit_intercept',
      'normalize',
      'significant_predictors',
      'coefficient_table',
      'rows_skipped_non_finite',
      'diagnostics',
    ]),
    {
      if: { properties: { model: { const: 'linear_regression' }, normalize: { const: true } }, required: ['model', 'normalize'] },
      then: { required: ['standardized_coefficients'] },
    },
    whenModel('summary_stats', ['columns', 'statistics']),
    whenModel('anova', [
      'target',
      'group_by',
      'groups',
      'f_statistic',
      'p_value',
      'df_between',
      'df_within',
      'ss_between',
      'ss_within',
      'ss_total',
      'ms_between',
      'ms_within',
      'eta_squared',
      'alpha',
      'significant',
      'rows_skipped',
    ]),
    whenModel('correlation', ['columns', 'correlation_matrix', 'p_value_matrix', 'pairs', 'alpha', 'rows_skipped']),
  ],
};

/** The manifest of `statistical_regression_tool` 1.2.0. */
export const regressionManifest: ToolManifest = {
  name: 'statistical_regression_tool',
  version: '1.2.0',
  description:
    'Statistics over numeric capture columns: ordinary least-squares linear regression (coefficients, standard errors, ' +
    't statistics, p-values, confidence intervals, R², F test, residual diagnostics; numerically stable streaming QR), ' +
    'per-column summary statistics, one-way ANOVA and Pearson correlation matrices.',
  capabilities: [...REGRESSION_OPERATIONS],
  input_schema: regressionInputSchema,
  output_schema: regressionOutputSchema,
  execution_constraints: {
    max_timeout_ms: 120000,
    max_payload_bytes: 65536,
    supports_streaming: false,
    side_effects: 'none',
  },
  cost_hint: { unit: 'call', estimated_cost: 0, currency: 'credits' },
  deterministic: true,
};
