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
