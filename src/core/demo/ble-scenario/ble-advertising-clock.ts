/**
 * One controller, one advertising clock.
 *
 * A device's link layer schedules every advertising set it runs on one native clock, and its
 * advertising events start on that clock's 625 µs slot grid: the gap between any two packets of
 * one device, taken modulo 625 µs, is a fixed value plus a few µs of jitter (measured on 100
 * million packets of 25 Apple and 23 Android devices: arXiv 2403.19833, §"Time Alignment of BLE
 * Packets"). The grid belongs to the controller, not to the set, so all sets of a phone share
 * it, while a watch, earbuds or a stranger have their own phase and their own clock error (a
 * crystal within ±30 ppm here). Within an event the PDU goes out on channel 37, then 38, then 39,
 * each after the previous PDU's air time (1 Mb/s: 8 µs per octet of preamble, access address,
 * header, AdvA, AD and CRC) and the controller's channel-switch gap.
 *
 * Only a sniffer with sub-millisecond timestamps (nRF Sniffer, Sniffle, SDRs) sees this; the
 * renderer writes receiver times to the microsecond.
 */
import { bleHashedUniform } from './ble-hash.ts';

/** The slot of the Bluetooth native clock, ms. */
export const BLE_SLOT_MS = 0.625;
/** Crystal error of a device's clock, ±ppm. */
const CLOCK_PPM = 30;

export interface BleDeviceClock {
  /** The slot length in true time, ms (625 µs × (1 + error)). */
  slotMs: number;
  /** Where the device's slot grid sits, ms in [0, slotMs). */
  phaseMs: number;
  /** Time from the end of one channel's PDU to the start of the next, ms. */
  channelGapMs: number;
}

/** The clock of device `deviceIndex` (drawn from a hash of the seed: no draws from the scenario's stream). */
export function bleDeviceClock(seed: number, deviceIndex: number): BleDeviceClock {
  const ppm = (2 * bleHashedUniform(seed, 0xc10c, deviceIndex, 0) - 1) * CLOCK_PPM;
  const slotMs = BLE_SLOT_MS * (1 + ppm * 1e-6);
  return { slotMs, phaseMs: bleHashedUniform(seed, 0xc10c, deviceIndex, 1) * slotMs, channelGapMs: 0.2 + 0.8 * bleHashedUniform(seed, 0xc10c, deviceIndex, 2) };
}

/**
 * True time of the packet on advertising channel slot `channelSlot` (0 = 37) of the event the
 * set's scheduler wanted at `t`: the event starts on the device's slot grid (nearest slot), and
 * each earlier channel's PDU of `adBytes` AD octets takes its air time plus the switch gap.
 */
export function blePacketTime(clock: BleDeviceClock, t: number, channelSlot: number, adBytes: number): number {
  const start = clock.phaseMs + Math.round((t - clock.phaseMs) / clock.slotMs) * clock.slotMs;
  // Preamble 1, access address 4, header 2, AdvA 6, AD, CRC 3 octets at 8 µs each.
  const airMs = (16 + adBytes) * 0.008;
  return start + channelSlot * (airMs + clock.channelGapMs);
}
