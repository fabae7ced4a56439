import type { CaptureInfo, CellValue } from '../../../core/index.ts';

/** How the view reaches packets: the app wires the tools worker in; tests pass a fake. */
export interface PacketAccess {
  /** The captures the app holds now; null while they load. */
  captures: CaptureInfo[] | null;
  /** The first `limit` rows of a capture under a filter, every column, as the Captures page reads them. */
  readRows(captureId: string, filter: string, limit: number): Promise<CellValue[][]>;
  /** How many rows of a capture a filter keeps. */
  countRows(captureId: string, filter: string): Promise<number>;
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
