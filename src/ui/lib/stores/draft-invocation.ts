/**
 * An invocation another page asks the Tools page to open (e.g. "Use in a tool" on a capture).
 * The Tools page reads it when it mounts and then clears it.
 */
let draft: unknown = null;

export function offerDraftInvocation(invocation: unknown): void {
  draft = invocation;
}

export function peekDraftInvocation(): unknown {
  return draft;
}

export function clearDraftInvocation(): void {
  draft = null;
}
