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
import { bleHashedNormal } from './ble-hash.ts';

/** Half a wavelength at 2.4 GHz, m: the size of the cells the gain is constant over. */
export const BLE_MULTIPATH_CELL_M = 0.0625;

/** Multipath gain (dB) at position (x, y) m, seen by `receiver` on advertising channel slot `channel` (0–2). */
export function bleMultipathGainDb(sigmaDb: number, seed: number, receiver: number, channel: number, x: number, y: number): number {
  if (sigmaDb === 0) return 0;
  return sigmaDb * bleHashedNormal(seed, 0x4d50, receiver, channel, Math.floor(x / BLE_MULTIPATH_CELL_M), Math.floor(y / BLE_MULTIPATH_CELL_M));
}
