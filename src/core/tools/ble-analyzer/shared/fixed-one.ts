/**
 * `value.toFixed(1)`, the same text, without the engine's exact decimal conversion for the usual
 * magnitudes (the hand-off factor texts format tens of thousands of numbers per analysis).
 *
 * Rounding ten times the value to the nearest integer is what toFixed does, except where the
 * product is so close to a half that the float multiplication may have crossed it: those values,
 * and large or non-finite ones, go to toFixed itself. Below 1e6 the product's rounding error is
 * under 1e-9, so outside that margin around a half both round the same way.
 */
export function toFixedOne(value: number): string {
  const magnitude = Math.abs(value);
  if (!(magnitude < 1e6)) return value.toFixed(1);
  const tenths = magnitude * 10;
  const fraction = tenths - Math.floor(tenths);
  if (Math.abs(fraction - 0.5) < 1e-8) return value.toFixed(1);
  const rounded = Math.floor(tenths + 0.5);
  const digit = rounded % 10;
  const text = `${(rounded - digit) / 10}.${digit}`;
  // toFixed keeps the sign of a negative value that rounds to zero ("-0.0"), not of −0.
  return value < 0 ? `-${text}` : text;
}
