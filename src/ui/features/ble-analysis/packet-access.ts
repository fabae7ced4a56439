import type { CaptureInfo } from '../../../core/index.ts';
import type { CaptureRows } from '../../lib/runtime/capture-queries.ts';

/** How the view reaches packets: the app wires the tools workers in (`useCaptureRows`); tests pass a fake. */
export interface PacketAccess extends CaptureRows {
  /** Shows the capture's records under the filter on the Captures page. */
  openCapture(captureId: string, filter: string): void;
}

/** The invocation's captures the app still holds, and those it does not (e.g. deleted since). */
export function availableCaptures(captureIds: ReadonlyArray<string>, captures: ReadonlyArray<CaptureInfo>): { available: CaptureInfo[]; missing: string[] } {
  const byId = new Map(captures.map((info) => [info.id, info]));
  const available: CaptureInfo[] = [];
  const missing: string[] = [];
  for (const id of captureIds) {
    const info = byId.get(id);
    if (info) available.push(info);
    else missing.push(id);
  }
  return { available, missing };
}
