import tCdf from '@stdlib/stats-base-dists-t-cdf';
import betainc from '@stdlib/math-base-special-betainc';

/**
 * Tail probabilities and quantiles used by the regression tool. Every tail is computed
 * directly (never as `1 − cdf`), so p-values far below 1e-16 keep their digits.
 */

/**
 * Two-sided p-value of a Student t statistic: `2 · P(T ≤ −|t|)` with `df` degrees of freedom.
 * `±Infinity` gives 0; NaN or a non-positive `df` gives NaN.
 */
export function tTwoSidedPValue(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, 2 * tCdf(-Math.abs(t), df));
}

/**
 * Upper-tail probability `P(F ≥ f)` of an F(d1, d2) distribution, through the regularized
 * incomplete beta function. With `x = d1·f / (d1·f + d2)` the tail is the upper incomplete
 * beta `I_x(d1/2, d2/2)`; for large f, x rounds towards 1, so there the equal lower tail
 * `I_{1−x}(d2/2, d1/2)` is used with `1 − x = d2 / (d1·f + d2)` formed directly.
 */
export function fUpperTail(f: number, d1: number, d2: number): number {
  if (Number.isNaN(f) || !(d1 > 0) || !(d2 > 0)) return Number.NaN;
  if (f <= 0) return 1;
  if (f === Number.POSITIVE_INFINITY) return 0;
  const denominator = d1 * f + d2;
  const x = (d1 * f) / denominator;
  if (x < 0.5) return betainc(x, d1 / 2, d2 / 2, true, true);
  return betainc(d2 / denominator, d2 / 2, d1 / 2, true, false);
}

/**
 * Critical value `c > 0` with `P(T ≤ −c) = tailProbability` for Student t with `df` degrees of
 * freedom, i.e. the two-sided `1 − alpha` interval half-width multiplier when
 * `tailProbability = alpha / 2`. Found by bracketing and bisection on the accurate lower-tail
 * CDF (no quantile package is installed); converges to full double precision.
 */
export function tCriticalValue(tailProbability: number, df: number): number {
  if (!(tailProbability > 0 && tailProbability < 0.5) || !(df > 0)) return Number.NaN;
  // Bracket the root in [low, high] with low < high ≤ 0, doubling outwards.
  let high = 0;
  let low = -1;
  while (tCdf(low, df) > tailProbability) {
    high = low;
    low *= 2;
    if (!Number.isFinite(low)) return Number.POSITIVE_INFINITY;
  }
  for (let iteration = 0; iteration < 200; iteration++) {
    const middle = 0.5 * (low + high);
    if (middle === low || middle === high) break;
    if (tCdf(middle, df) > tailProbability) high = middle;
    else low = middle;
  }
  // The root lies in [low, high], adjacent doubles now; return the closer one.
  const lowError = Math.abs(tCdf(low, df) - tailProbability);
  const highError = Math.abs(tCdf(high, df) - tailProbability);
  return -(lowError <= highError ? low : high);
}
