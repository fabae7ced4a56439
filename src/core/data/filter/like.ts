import type { FilterLike } from './ast.ts';
import { isAddressColumn } from './ast.ts';

/**
 * SQL `LIKE` on one string: `%` matches any run (also empty), `_` one UTF-16 unit, anything
 * else itself. Written as the two-pointer wildcard walk rather than a RegExp built from user
 * text: it needs no escaping and its time is bounded by value length × pattern length.
 */
export function likeMatches(value: string, pattern: string): boolean {
  let at = 0;
  let index = 0;
  let lastPercent = -1;
  let resumeAt = 0;
  while (at < value.length) {
    const symbol = pattern[index];
    if (index < pattern.length && symbol !== '%' && (symbol === '_' || symbol === value[at])) {
      at++;
      index++;
    } else if (index < pattern.length && symbol === '%') {
      lastPercent = index++;
      resumeAt = at;
    } else if (lastPercent >= 0) {
      index = lastPercent + 1;
      at = ++resumeAt;
    } else {
      return false;
    }
  }
  while (pattern[index] === '%') index++;
  return index === pattern.length;
}

/** The test a LIKE or CONTAINS node makes on a present value (addresses ignore case). */
export function likeTest(node: Pick<FilterLike, 'operator' | 'pattern' | 'subject'>): (value: string) => boolean {
  const foldCase = isAddressColumn(node.subject.name);
  const pattern = foldCase ? node.pattern.value.toLowerCase() : node.pattern.value;
  if (node.operator === 'contains') return foldCase ? (value) => value.toLowerCase().includes(pattern) : (value) => value.includes(pattern);
  return foldCase ? (value) => likeMatches(value.toLowerCase(), pattern) : (value) => likeMatches(value, pattern);
}
