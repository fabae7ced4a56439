import { useMemo } from 'react';
import { scatterSvg } from '../../core/index.ts';
import { formatCount, formatNumber, formatPValue } from './format.ts';
import { Deferred, ProgressiveMount } from './ProgressiveMount.tsx';
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
      {sample.length > 0 && <DiagnosticPlots sample={sample} sampledFrom={output.diagnostics!.sampled_from} />}
    </div>
  );
}

/**
 * Fitted against actual and residuals against fitted, as the case report draws them: one SVG
 * each, built by core's `scatterSvg` (its text escaped there). A charting library's scatter of the
 * 2,000-point sample was two thousand components a plot, ~1 s of one main-thread task (issue 15).
 * Each plot is built and mounted on a turn of its own, after the tables have painted.
 */
function DiagnosticPlots({ sample, sampledFrom }: { sample: DiagnosticPoint[]; sampledFrom: number }) {
  return (
    <ProgressiveMount>
      <div className="plots">
        <ScatterFigure testId="result.fitted-plot" caption={`Fitted vs actual (${formatCount(sample.length)} of ${formatCount(sampledFrom)} rows)`} sample={sample} kind="fitted" />
        <ScatterFigure testId="result.residual-plot" caption="Residuals vs fitted" sample={sample} kind="residual" />
      </div>
    </ProgressiveMount>
  );
}

type PlotKind = 'fitted' | 'residual';

function ScatterFigure({ testId, caption, sample, kind }: { testId: string; caption: string; sample: DiagnosticPoint[]; kind: PlotKind }) {
  return (
    <figure className="plot" data-testid={testId}>
      <figcaption>{caption}</figcaption>
      <Deferred fallback={<div className="plot__pending muted small">Drawing…</div>}>
        <ScatterSvg sample={sample} kind={kind} />
      </Deferred>
    </figure>
  );
}

function ScatterSvg({ sample, kind }: { sample: DiagnosticPoint[]; kind: PlotKind }) {
  const svg = useMemo(
    () =>
      kind === 'fitted'
        ? scatterSvg(sample.map((point) => ({ x: point.fitted, y: point.actual })), { title: 'Fitted against actual', xLabel: 'fitted', yLabel: 'actual', reference: 'diagonal' })
        : scatterSvg(sample.map((point) => ({ x: point.fitted, y: point.residual })), { title: 'Residuals against fitted', xLabel: 'fitted', yLabel: 'residual', reference: 'zero' }),
    [sample, kind],
  );
  return <div className="plot__svg" dangerouslySetInnerHTML={{ __html: svg }} />;
}
