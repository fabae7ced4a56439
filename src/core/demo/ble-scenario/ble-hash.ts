/**
 * Stateless seeded draws for the renderer's physical properties (multipath, device clocks): a
 * value is a function of its key, so adding one takes nothing from the scenario's random stream
 * and every other draw stays where it was.
 */

function mix(value: number): number {
  let t = value >>> 0;
  t = Math.imul(t ^ (t >>> 16), 0x7feb352d);
  t = Math.imul(t ^ (t >>> 15), 0x846ca68b);
  return (t ^ (t >>> 16)) >>> 0;
}

const STEP = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1, 0xd3a2646c];

/** 32 hashed bits of a key of small integers. */
export function bleHash(seed: number, ...key: number[]): number {
  let h = mix(seed ^ 0x6d50_a7e1);
  key.forEach((part, index) => {
    // Two rounds per part: one round of this finalizer leaves nearby keys correlated.
    h = mix(mix(h ^ Math.imul((part | 0) + 1, STEP[index % STEP.length])) + index + 1);
  });
  return h;
}

/** Uniform in [0, 1) determined by the key. */
export function bleHashedUniform(seed: number, ...key: number[]): number {
  return bleHash(seed, ...key) / 4294967296;
}

/** Standard normal determined by the key (Box–Muller over two hashed uniforms). */
export function bleHashedNormal(seed: number, ...key: number[]): number {
  const h = bleHash(seed, ...key);
  const u = 1 - h / 4294967296;
  const v = mix(h ^ 0x5bd1e995) / 4294967296;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
