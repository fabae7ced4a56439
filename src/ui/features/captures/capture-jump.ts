/**
 * A capture and filter another page asks the Captures page to open (e.g. "packets" of an
 * address in an analysis result). The Captures page reads it when it mounts and then clears it.
 */
export interface CaptureJump {
  captureId: string;
  filter: string;
}

let pending: CaptureJump | null = null;

export function offerCaptureJump(jump: CaptureJump): void {
  pending = jump;
}

export function peekCaptureJump(): CaptureJump | null {
  return pending;
}

export function clearCaptureJump(): void {
  pending = null;
}
