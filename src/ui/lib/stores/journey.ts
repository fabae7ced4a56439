/**
 * A journey the start page asks another page to begin on arrival (one click from the start page
 * to an analysis or a running demo). The page takes it once when it mounts.
 */
export type Journey = 'ble-analysis' | 'planner-demo' | 'import-definition';

let pending: Journey | null = null;

export function requestJourney(journey: Journey): void {
  pending = journey;
}

/** True once when `journey` was requested; clears the request. */
export function takeJourney(journey: Journey): boolean {
  if (pending !== journey) return false;
  pending = null;
  return true;
}
