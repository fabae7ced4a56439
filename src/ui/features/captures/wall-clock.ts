import type { CaptureInfo } from '../../../core/index.ts';

/** Timestamps above this are Unix epoch milliseconds (after 1973); below, relative to the capture's start. */
const EPOCH_THRESHOLD_MS = 1e11;

/** A capture time as an RFC3339 instant, or null when the capture's time origin is unknown. */
export function wallClock(ms: number, info: CaptureInfo): string | null {
  if (ms >= EPOCH_THRESHOLD_MS) return new Date(ms).toISOString();
  if (!info.timeOrigin) return null;
  const origin = Date.parse(info.timeOrigin);
  return Number.isNaN(origin) ? null : new Date(origin + ms).toISOString();
}

/** How the Captures page shows times: UTC clock time, or seconds from the capture's start. */
export type TimeMode = 'utc' | 'relative';

/** `2025-08-23 09:38:55.722 UTC` or `+12.345678 s`; never the raw epoch number. */
export function formatTime(ms: number, mode: TimeMode, info: CaptureInfo): string {
  const clock = mode === 'utc' ? wallClock(ms, info) : null;
  if (clock) return `${clock.replace('T', ' ').replace('Z', '')} UTC`;
  const seconds = (ms - info.bounds.start_ms) / 1000;
  return `+${seconds.toFixed(6)} s`;
}
