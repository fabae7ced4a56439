/**
 * Durations on the command line: a number and a unit, or several (`90s`, `10m`, `1h`, `1h30m`,
 * `2d`, `500ms`). A bare number is refused: `10` could be seconds or minutes. Hand-written:
 * five units, and Node's parseArgs has no duration type.
 */
import { err, ok, type Result } from '../../src/core/index.ts';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface DurationProblem {
  code: 'BAD_DURATION';
  message: string;
}

export function parseDuration(text: string, flag: string): Result<number, DurationProblem> {
  const bad = (why: string) => err<DurationProblem>({ code: 'BAD_DURATION', message: `${flag} must be a duration such as 90s, 10m, 1h or 1h30m (units ms, s, m, h, d), not '${text}': ${why}` });
  const trimmed = text.trim();
  if (trimmed === '') return bad('it is empty');
  if (/^\d+(\.\d+)?$/.test(trimmed)) return bad('a number needs its unit');
  let total = 0;
  let rest = trimmed;
  while (rest.length > 0) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)/.exec(rest);
    if (!match) return bad(`'${rest}' is not a number and a unit`);
    total += Number(match[1]) * UNIT_MS[match[2]];
    rest = rest.slice(match[0].length);
  }
  if (!Number.isFinite(total) || total < 1) return bad('it must be at least 1 ms');
  return ok(Math.round(total));
}

/** A duration as the command line writes it: `1h`, `10m`, `1h30m`, `90s`, `250ms`. */
export function formatDurationMs(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit];
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0 || parts.length === 0) parts.push(`${rest}ms`);
  return parts.join('');
}
