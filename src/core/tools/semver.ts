/** A parsed `major.minor.patch` version. */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export function parseSemVer(text: string): SemVer | null {
  const match = SEMVER.exec(text);
  if (!match) return null;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

export function compareSemVer(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

export function formatSemVer(version: SemVer): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}

/**
 * Picks the installed version an invocation of `requested` runs on (settled decision 7):
 * an exact match wins; else the highest installed version with the same major and a minor
 * at least the requested one; else none.
 */
export function resolveVersion(requested: string, installed: ReadonlyArray<string>): string | null {
  if (installed.includes(requested)) return requested;
  const wanted = parseSemVer(requested);
  if (!wanted) return null;
  let best: SemVer | null = null;
  for (const text of installed) {
    const candidate = parseSemVer(text);
    if (!candidate || candidate.major !== wanted.major || candidate.minor < wanted.minor) continue;
    if (!best || compareSemVer(candidate, best) > 0) best = candidate;
  }
  return best ? formatSemVer(best) : null;
}

/** Orders two `major.minor.patch` texts; text that is not a version sorts first. */
export function compareVersions(a: string, b: string): number {
  const left = parseSemVer(a);
  const right = parseSemVer(b);
  if (!left || !right) return (left ? 1 : 0) - (right ? 1 : 0);
  return compareSemVer(left, right);
}
