/** Wall-clock parsing, the visible time window (zoom and pan) and axis ticks for the timeline. */

export interface WallInstant {
  /** Unix epoch milliseconds. */
  ms: number;
  /** The offset the timestamp was written in, in minutes east of UTC (`Z` is 0). */
  offsetMinutes: number;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC3339 timestamp with its offset kept, or null when it is not one. */
export function parseRfc3339(text: string): WallInstant | null {
  const match = RFC3339.exec(text);
  if (!match) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  const zone = match[8];
  if (zone === 'Z' || zone === 'z') return { ms, offsetMinutes: 0 };
  const sign = zone[0] === '-' ? -1 : 1;
  return { ms, offsetMinutes: sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) };
}

export interface TimeWindow {
  startMs: number;
  endMs: number;
}

/** The narrowest window zoom allows: one second. */
export const MIN_SPAN_MS = 1000;

/**
 * Zooms by `factor` (< 1 zooms in) keeping the instant at `anchor` (0 = left edge, 1 = right
 * edge) in place, kept inside `extent`.
 */
export function zoomWindow(window: TimeWindow, factor: number, anchor: number, extent: TimeWindow): TimeWindow {
  const extentSpan = extent.endMs - extent.startMs;
  const span = window.endMs - window.startMs;
  const nextSpan = Math.min(extentSpan, Math.max(Math.min(MIN_SPAN_MS, extentSpan), span * factor));
  const pivot = window.startMs + span * clamp01(anchor);
  const start = pivot - nextSpan * clamp01(anchor);
  return clampWindow({ startMs: start, endMs: start + nextSpan }, extent);
}

/** Moves the window by `fraction` of its own span (positive: later), kept inside `extent`. */
export function panWindow(window: TimeWindow, fraction: number, extent: TimeWindow): TimeWindow {
  const shift = (window.endMs - window.startMs) * fraction;
  return clampWindow({ startMs: window.startMs + shift, endMs: window.endMs + shift }, extent);
}

function clampWindow(window: TimeWindow, extent: TimeWindow): TimeWindow {
  const span = Math.min(window.endMs - window.startMs, extent.endMs - extent.startMs);
  const start = Math.min(Math.max(window.startMs, extent.startMs), extent.endMs - span);
  return { startMs: start, endMs: start + span };
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** Position of `ms` in the window as a percentage of its width (may lie outside 0–100). */
export function percentAt(ms: number, window: TimeWindow): number {
  const span = window.endMs - window.startMs;
  return span > 0 ? ((ms - window.startMs) / span) * 100 : 0;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const TICK_STEPS = [1, 2, 5, 10, 15, 30].map((s) => s * SECOND).concat([1, 2, 5, 10, 15, 30].map((m) => m * MINUTE), [1, 2, 3, 6, 12, 24].map((h) => h * HOUR));

/**
 * Tick instants for the window: a round step (1 s … 1 day) giving at most `maxTicks` ticks,
 * aligned to round values of the wall clock in the given offset.
 */
export function timeTicks(window: TimeWindow, maxTicks: number, offsetMinutes: number): { stepMs: number; ticks: number[] } {
  const span = window.endMs - window.startMs;
  const stepMs = TICK_STEPS.find((step) => span / step <= maxTicks) ?? TICK_STEPS[TICK_STEPS.length - 1];
  const offsetMs = offsetMinutes * MINUTE;
  const first = Math.ceil((window.startMs + offsetMs) / stepMs) * stepMs - offsetMs;
  const ticks: number[] = [];
  for (let tick = first; tick <= window.endMs; tick += stepMs) ticks.push(tick);
  return { stepMs, ticks };
}

/** `08:16:05` (or `08:16` for minute steps) in the given offset. */
export function formatClock(ms: number, offsetMinutes: number, stepMs = SECOND): string {
  const shifted = new Date(ms + offsetMinutes * MINUTE).toISOString();
  return stepMs >= MINUTE && stepMs % MINUTE === 0 ? shifted.slice(11, 16) : shifted.slice(11, 19);
}

/** `UTC` or `UTC+02:00`: how the axis says which clock it shows. */
export function formatOffset(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const magnitude = Math.abs(offsetMinutes);
  return `UTC${sign}${String(Math.floor(magnitude / 60)).padStart(2, '0')}:${String(magnitude % 60).padStart(2, '0')}`;
}

/** A duration as people say it: `4 s`, `1 min 12 s`, `14.7 min`. */
export function formatGap(ms: number): string {
  const sign = ms < 0 ? '−' : '';
  const magnitude = Math.abs(ms);
  if (magnitude < MINUTE) return `${sign}${Math.round(magnitude / SECOND)} s`;
  if (magnitude < 10 * MINUTE) return `${sign}${Math.floor(magnitude / MINUTE)} min ${Math.floor((magnitude % MINUTE) / SECOND)} s`;
  return `${sign}${(magnitude / MINUTE).toFixed(1)} min`;
}
