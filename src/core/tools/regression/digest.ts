import type { ToolResult } from '../../contract/types.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../../util/json.ts';
import { compactJson, genericDigest, roundNumber } from '../result-digest.ts';

/** Keys whose content the coefficient table already carries (one row per term). */
const PER_TERM_MAPS = new Set(['coefficients', 'p_values', 'std_errors', 't_statistics', 'confidence_intervals']);

const rounded = (value: JsonValue | undefined): JsonValue => (typeof value === 'number' ? roundNumber(value) : (value ?? null));

function coefficientRow(row: JsonValue): JsonValue {
  if (!isJsonObject(row)) return compactJson(row);
  const out: JsonObject = {
    term: row.term ?? null,
    estimate: rounded(row.estimate),
    std_error: rounded(row.std_error),
    t: rounded(row.t_statistic),
    p_value: rounded(row.p_value),
    ci: [rounded(row.ci_low), rounded(row.ci_high)],
    significant: row.significant ?? null,
  };
  if (row.aliased === true) out.aliased = true;
  return out;
}

/** Plot samples are for the UI: the model gets how many there were and what they were drawn from. */
function diagnosticsDigest(value: JsonValue): JsonValue {
  if (!isJsonObject(value)) return compactJson(value);
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = Array.isArray(item) ? `(${item.length} plot points, not shown)` : compactJson(item);
  }
  return out;
}

/**
 * The regression tool's digest: the fit's statistics (n, R², adjusted R², F and its p-value,
 * degrees of freedom, residual standard error) and one row per coefficient (estimate, standard
 * error, t, p-value, confidence interval, significance). The per-term maps repeat the table and are
 * left out; plot samples are counted. Other operations (summary, ANOVA, correlation) and any field
 * this digest does not know are compacted generically.
 */
export function digestRegressionOutput(output: JsonObject, _result?: ToolResult): JsonObject {
  if (!Array.isArray(output.coefficient_table)) return genericDigest(output);
  const digest: JsonObject = {};
  for (const [key, value] of Object.entries(output)) {
    if (PER_TERM_MAPS.has(key)) continue;
    if (key === 'coefficient_table') digest.coefficients = output.coefficient_table.map(coefficientRow);
    else if (key === 'diagnostics') digest.diagnostics = diagnosticsDigest(value);
    else digest[key] = compactJson(value);
  }
  return digest;
}
