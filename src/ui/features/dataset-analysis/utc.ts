/** UTC to the second, as the analysis views show times: `2026-11-20T13:00:00Z`. */
export function utcSeconds(value: number | string | null): string {
  if (value === null) return '—';
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : String(value);
}
