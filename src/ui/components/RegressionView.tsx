import { CartesianGrid, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatNumber, formatPValue } from './format.ts';
import { Metric } from './Metric.tsx';

interface CoefficientRow {
  term: string;
  // Null where a value does not exist: aliased terms, exact fits, a constant target.
  estimate: number | null;
  std_error: number | null;
  t_statistic: number | null;
  p_value: number | null;
  ci_low: number | null;
  ci_high: number | null;
  significant: boolean;
}

interface DiagnosticPoint {
  fitted: number;
  actual: number;
  residual: number;
}

/** The fields of a linear_regression output this view reads. */
export interface RegressionOutput {
  sample_count: number;
  r_squared: number | null;
  adjusted_r_squared?: number;
  f_statistic?: number | null;
  f_p_value?: number | null;
  residual_std_error?: number;
  confidence_level?: number;
  alpha?: number;
  coefficient_table?: CoefficientRow[];
  standardized_coefficients?: Record<string, number>;
  diagnostics?: { sample: DiagnosticPoint[]; sample_size: number; sampled_from: number };
}

export function RegressionView({ output }: { output: RegressionOutput }) {
  const rows = output.coefficient_table ?? [];
  const level = output.confidence_level ?? 0.95;
  const sample = output.diagnostics?.sample ?? [];
  return (
    <div className="regression">
      <dl className="metrics">
        <Metric label="Samples" value={formatCount(output.sample_count)} />
        <Metric label="R²" value={formatNumber(output.r_squared)} />
        <Metric label="Adjusted R²" value={formatNumber(output.adjusted_r_squared)} />
        <Metric label="F statistic" value={formatNumber(output.f_statistic)} />
        <Metric label="p (F)" value={formatPValue(output.f_p_value)} />
        <Metric label="Residual SE" value={formatNumber(output.residual_std_error)} />
      </dl>
      <table className="data-table" data-testid="result.coefficient-table" tabIndex={0}>
        <caption>Coefficients (on the data's own scale), {Math.round(level * 100)}% confidence intervals</caption>
        <thead>
          <tr>
            <th scope="col">Term</th>
            <th scope="col">Estimate</th>
            <th scope="col">Std. error</th>
            <th scope="col">t</th>
            <th scope="col">p</th>
            <th scope="col">CI low</th>
            <th scope="col">CI high</th>
            {output.standardized_coefficients && <th scope="col">Standardized</th>}
            <th scope="col">Significant at α = {output.alpha ?? 0.05}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.term} className={row.significant ? 'is-significant' : undefined}>
              <th scope="row">{row.term}</th>
              <td>{formatNumber(row.estimate, 5)}</td>
              <td>{formatNumber(row.std_error)}</td>
              <td>{formatNumber(row.t_statistic)}</td>
              <td>{formatPValue(row.p_value)}</td>
              <td>{formatNumber(row.ci_low)}</td>
              <td>{formatNumber(row.ci_high)}</td>
              {output.standardized_coefficients && <td>{formatNumber(output.standardized_coefficients[row.term])}</td>}
              <td>{row.term === 'intercept' ? '' : row.significant ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {sample.length > 0 && (
        <div className="plots">
          <figure className="plot" data-testid="result.fitted-plot">
            <figcaption>Fitted vs actual ({formatCount(sample.length)} of {formatCount(output.diagnostics!.sampled_from)} rows)</figcaption>
            <ResponsiveContainer width="100%" height={260}>
              <ScatterChart margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" dataKey="fitted" name="fitted" label={{ value: 'fitted', position: 'insideBottom', offset: -12 }} tickFormatter={(v: number) => formatNumber(v, 3)} />
                <YAxis type="number" dataKey="actual" name="actual" tickFormatter={(v: number) => formatNumber(v, 3)} />
                <Tooltip formatter={(value) => formatNumber(value)} />
                <Scatter data={sample} fill="#2563eb" fillOpacity={0.35} isAnimationActive={false} />
              </ScatterChart>
            </ResponsiveContainer>
          </figure>
          <figure className="plot" data-testid="result.residual-plot">
            <figcaption>Residuals vs fitted</figcaption>
            <ResponsiveContainer width="100%" height={260}>
              <ScatterChart margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" dataKey="fitted" name="fitted" label={{ value: 'fitted', position: 'insideBottom', offset: -12 }} tickFormatter={(v: number) => formatNumber(v, 3)} />
                <YAxis type="number" dataKey="residual" name="residual" tickFormatter={(v: number) => formatNumber(v, 3)} />
                <Tooltip formatter={(value) => formatNumber(value)} />
                <ReferenceLine y={0} stroke="#64748b" />
                <Scatter data={sample} fill="#db2777" fillOpacity={0.35} isAnimationActive={false} />
              </ScatterChart>
            </ResponsiveContainer>
          </figure>
        </div>
      )}
    </div>
  );
}
