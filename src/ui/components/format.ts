// One formatter for the whole app: building an Intl formatter per call (toLocaleString) is slow.
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 12 });

/** An integer count with thousands separators: 18,204. */
export function formatCount(value: number): string {
  return GROUPED.format(value);
}

/** Number formatting for tables: significant digits, scientific notation for the very small. */
export function formatNumber(value: unknown, digits = 4): string {
  if (typeof value !== 'number') return value === null || value === undefined ? '—' : String(value);
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude < 1e-4 || magnitude >= 1e7) return value.toExponential(digits - 1);
  return GROUPED.format(Number(value.toPrecision(digits)));
}

export function formatPValue(value: unknown): string {
  if (typeof value !== 'number') return '—';
  if (value < 1e-300) return '< 1e-300';
  return value < 1e-4 ? value.toExponential(2) : value.toFixed(4);
}
