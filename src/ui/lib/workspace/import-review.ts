import { isCleanManifest, isJsonObject, lintManifest, type JsonValue } from '../../../core/index.ts';

/**
 * What a workspace file may hold, checked before its header is parsed. The nesting check scans the
 * text without recursion, so a header of 100,000 nested arrays is refused instead of overflowing
 * the stack of the validators and the structured clone that store it. (The core has its own JSON
 * limits for invocations and manifests; this one is for workspace files only.)
 */
export const WORKSPACE_IMPORT_LIMITS = {
  /** Deepest nesting of arrays and objects in the header (runs hold tool results, which nest ~10 deep). */
  maxDepth: 256,
  /** Largest header (captures' descriptions, runs, planner runs, settings), in bytes. */
  maxHeaderBytes: 256 * 1024 * 1024,
} as const;

/** Nesting depth of JSON text: brackets outside strings, counted without recursion. */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

/**
 * The settings key saved manifests live under (src/ui/lib/stores/saved-manifests.ts): an import merges
 * this list entry by entry instead of replacing it.
 */
export const SAVED_MANIFESTS_SETTING = 'manifests.v1';

/** An imported saved manifest as the import will treat it. */
export interface ManifestReview {
  /** `name@version`, the key endpoint confirmations use. */
  key: string;
  name: string;
  version: string;
  /** The URL the file binds the tool to, or null. */
  endpoint: string | null;
  /** A stored manifest with the same name and version exists. */
  replaces: boolean;
  /** Lint errors (with their JSON paths); a manifest with any is not imported. */
  problems: string[];
}

/** One saved-manifest entry as stored; `pendingEndpoint` is an imported binding not yet confirmed. */
type StoredEntry = { [key: string]: JsonValue };

function entries(value: unknown): StoredEntry[] {
  return Array.isArray(value) ? value.filter((entry): entry is StoredEntry => isJsonObject(entry) && isJsonObject(entry.manifest)) : [];
}

function keyOf(entry: StoredEntry): { key: string; name: string; version: string } {
  const manifest = entry.manifest as { [key: string]: JsonValue };
  const name = typeof manifest.name === 'string' ? manifest.name : '?';
  const version = typeof manifest.version === 'string' ? manifest.version : '?';
  return { key: `${name}@${version}`, name, version };
}

/** Each saved manifest of an imported file: re-linted with the core lint, and whether it replaces a stored one. */
export function reviewManifests(imported: unknown, stored: unknown): ManifestReview[] {
  const storedKeys = new Set(entries(stored).map((entry) => keyOf(entry).key));
  return entries(imported).map((entry) => {
    const { key, name, version } = keyOf(entry);
    const problems = lintManifest(entry.manifest);
    return {
      key,
      name,
      version,
      endpoint: typeof entry.endpoint === 'string' && entry.endpoint !== '' ? entry.endpoint : null,
      replaces: storedKeys.has(key),
      problems: isCleanManifest(problems) ? [] : problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.path}: ${problem.message}`),
    };
  });
}

/**
 * The saved-manifest list after an import: stored entries stay unless `replace` and the file has
 * the same name and version; manifests with lint errors are left out; an imported endpoint stays
 * bound only when its key is in `enableEndpoints`, else it is kept as `pendingEndpoint` (disabled:
 * the runtime binds `endpoint` only) until the analyst binds it on the Manifests page.
 */
export function mergeManifests(
  stored: unknown,
  imported: unknown,
  options: { replace: boolean; enableEndpoints: ReadonlySet<string> },
): { list: StoredEntry[]; added: number; replaced: number; skipped: number; refused: number } {
  const list = entries(stored);
  const index = new Map(list.map((entry, position) => [keyOf(entry).key, position]));
  let added = 0;
  let replaced = 0;
  let skipped = 0;
  let refused = 0;
  for (const entry of entries(imported)) {
    const { key } = keyOf(entry);
    if (!isCleanManifest(lintManifest(entry.manifest))) {
      refused++;
      continue;
    }
    const position = index.get(key);
    if (position !== undefined && !options.replace) {
      skipped++;
      continue;
    }
    const { endpoint, ...rest } = entry;
    const bound: StoredEntry =
      typeof endpoint === 'string' && endpoint !== '' && !options.enableEndpoints.has(key) ? { ...rest, pendingEndpoint: endpoint } : entry;
    if (position === undefined) {
      index.set(key, list.length);
      list.push(bound);
      added++;
    } else {
      list[position] = bound;
      replaced++;
    }
  }
  return { list, added, replaced, skipped, refused };
}
