import type { Capture, CaptureInfo } from './capture.ts';
import type { CaptureLookup } from './selection.ts';

/** The captures available to tools, by id. */
export class CaptureCatalog implements CaptureLookup {
  private readonly captures = new Map<string, Capture>();

  constructor(captures: Iterable<Capture> = []) {
    for (const capture of captures) this.add(capture);
  }

  /** Adds a capture; a capture with the same id is replaced. */
  add(capture: Capture): void {
    this.captures.set(capture.info.id, capture);
  }

  get(id: string): CaptureInfo | undefined {
    return this.captures.get(id)?.info;
  }

  capture(id: string): Capture | undefined {
    return this.captures.get(id);
  }

  ids(): string[] {
    return [...this.captures.keys()].sort();
  }

  list(): CaptureInfo[] {
    return this.ids().map((id) => this.captures.get(id)!.info);
  }
}
