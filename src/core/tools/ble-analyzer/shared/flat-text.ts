/**
 * The pieces as one flat string: the same text as a template literal or `+`, which V8 keeps as a
 * tree of concatenation nodes (an object per join, plus the pieces). For texts that live to the
 * end of an analysis (factor texts, evidence lines: thousands per run) each surviving object is
 * copied by every scavenge on the way; one flat string is one object. Numbers print as in a
 * template literal (String(value)).
 */
export function flatText(...pieces: Array<string | number>): string {
  return pieces.join('');
}
