/** `toLocaleString('en-US')`, with the formatter made once (used by the non-integer fallback). */
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/**
 * `value.toLocaleString('en-US')`: digits grouped by threes with commas. Counts (non-negative safe
 * integers) are grouped by hand — the analyzer prints a few per address, and an Intl call each was
 * a visible share of classification; anything else goes to Intl.
 */
export function formatBleCount(value: number): string {
  if (!(Number.isSafeInteger(value) && (value > 0 || Object.is(value, 0)))) return COUNT_FORMAT.format(value);
  const digits = String(value);
  if (digits.length <= 3) return digits;
  // The first group holds 1–3 digits, every later group 3.
  let at = digits.length % 3 || 3;
  let text = digits.slice(0, at);
  for (; at < digits.length; at += 3) text += ',' + digits.slice(at, at + 3);
  return text;
}
