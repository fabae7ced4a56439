/**
 * Frequency-selective multipath: the gain of one spot on one advertising channel at one receiver.
 *
 * Indoors a packet arrives over many paths whose sum depends on the wavelength and on where the
 * antenna is to within a fraction of it. The three advertising channels (2402, 2426 and
 * 2480 MHz) are 24–78 MHz apart, wider than an indoor channel's coherence bandwidth, so each
 * fades on its own: at one spot a receiver hears channel 37 a few dB stronger or weaker than
 * channel 39, for every packet sent from that spot (Faragher & Harle, "Location fingerprinting
 * with Bluetooth Low Energy beacons", IEEE JSAC 2015, treat the channels separately for this
 * reason). The pattern decorrelates within about half a wavelength (6 cm at 2.4 GHz), so it is a
 * property of the spot, not of the device: every advertising set of one antenna shares it, a
 * watch or tag half a metre away has its own, and a device walking around meets a new one at
 * every step. Modelled as an independent N(0, σ²) gain per (receiver, channel, 6.25 cm grid cell),
 * drawn from a hash so it needs no state and no draws from the scenario's random stream.
 */

/** Half a wavelength at 2.4 GHz, m: the size of the cells the gain is constant over. */
export const BLE_MULTIPATH_CELL_M = 0.0625;

function mix(value: number): number {
  let t = value >>> 0;
  t = Math.imul(t ^ (t >>> 16), 0x7feb352d);
  t = Math.imul(t ^ (t >>> 15), 0x846ca68b);
  return (t ^ (t >>> 16)) >>> 0;
}

/** A standard normal determined by the key (Box–Muller over two hashed uniforms). */
function hashedNormal(seed: number, receiver: number, channel: number, cellX: number, cellY: number): number {
  let h = mix(seed ^ 0x6d50_a7e1);
  h = mix(h ^ Math.imul(receiver + 1, 0x9e3779b1));
  h = mix(h ^ Math.imul(channel + 1, 0x85ebca77));
  h = mix(h ^ Math.imul(cellX | 0, 0xc2b2ae3d));
  h = mix(h ^ Math.imul(cellY | 0, 0x27d4eb2f));
  const u = 1 - h / 4294967296;
  const v = mix(h ^ 0x5bd1e995) / 4294967296;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Multipath gain (dB) at position (x, y) m, seen by `receiver` on advertising channel slot `channel` (0–2). */
export function bleMultipathGainDb(sigmaDb: number, seed: number, receiver: number, channel: number, x: number, y: number): number {
  if (sigmaDb === 0) return 0;
  return sigmaDb * hashedNormal(seed, receiver, channel, Math.floor(x / BLE_MULTIPATH_CELL_M), Math.floor(y / BLE_MULTIPATH_CELL_M));
}
