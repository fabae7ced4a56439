/**
 * Turns a scenario plan into observations: every advertising set emits on its own event clock
 * (interval plus the 0–10 ms advDelay the link layer adds), and each receiver hears an event on
 * one advertising channel with an RSSI from a log-distance path-loss model, unless the channel
 * loses it, the signal is below the receiver's sensitivity, or the receiver is in a gap.
 * Receiver clocks add their offset and drift; some packets fail their CRC and carry flipped bits.
 */
import { seededRandom, type SeededRandom } from '../seeded-random.ts';
import { bleDeviceClock, blePacketTime } from './ble-advertising-clock.ts';
import { bleMultipathGainDb } from './ble-multipath.ts';
import type { BleAddressEpoch, BleDevicePlan, BleMotion, BleReceiverPlan, BleScenarioPlan } from './ble-plan-types.ts';

/**
 * How far a carried device's shadowing departs from its carrier's, σ in dB: a phone in a pocket
 * and a watch on the wrist are shadowed by the same body, not identically.
 */
export const BLE_CARRIED_SHADOWING_DELTA_DB = 1.5;

/** One address of the scenario, with whose it is. */
export interface BleRenderedAddress {
  epoch: BleAddressEpoch;
  deviceIndex: number;
  setIndex: number;
}

/** Observations as columns; row `i` of every array is one received packet. */
export interface BleObservations {
  count: number;
  /** Receiver-local timestamp, epoch ms. */
  tsMs: Float64Array;
  receiver: Uint8Array;
  channel: Uint8Array;
  rssi: Int8Array;
  /** Index into `addresses`. */
  address: Int32Array;
  /** Index into the plan's `payloads`. */
  payload: Int32Array;
  advType: Uint8Array;
  /** 1 when the packet failed its CRC. */
  crcBad: Uint8Array;
  /** Bit flipped in the address (0–47, LSB of the over-the-air first octet = 0), or -1. */
  addressFlip: Int16Array;
  /** A second address bit flipped, or -1. */
  addressFlip2: Int16Array;
  /** Bit flipped in the payload bytes, or -1. */
  payloadFlip: Int16Array;
  addresses: BleRenderedAddress[];
}

class ObservationBuffer {
  count = 0;
  tsMs = new Float64Array(0);
  receiver = new Uint8Array(0);
  channel = new Uint8Array(0);
  rssi = new Int8Array(0);
  address = new Int32Array(0);
  payload = new Int32Array(0);
  advType = new Uint8Array(0);
  crcBad = new Uint8Array(0);
  addressFlip = new Int16Array(0);
  addressFlip2 = new Int16Array(0);
  payloadFlip = new Int16Array(0);

  constructor(capacity: number) {
    this.resize(Math.max(1024, capacity));
  }

  private resize(capacity: number): void {
    const grow = <T extends Float64Array | Uint8Array | Int8Array | Int32Array | Int16Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old.subarray(0, this.count) as never);
      return next;
    };
    this.tsMs = grow(this.tsMs, (n) => new Float64Array(n));
    this.receiver = grow(this.receiver, (n) => new Uint8Array(n));
    this.channel = grow(this.channel, (n) => new Uint8Array(n));
    this.rssi = grow(this.rssi, (n) => new Int8Array(n));
    this.address = grow(this.address, (n) => new Int32Array(n));
    this.payload = grow(this.payload, (n) => new Int32Array(n));
    this.advType = grow(this.advType, (n) => new Uint8Array(n));
    this.crcBad = grow(this.crcBad, (n) => new Uint8Array(n));
    this.addressFlip = grow(this.addressFlip, (n) => new Int16Array(n));
    this.addressFlip2 = grow(this.addressFlip2, (n) => new Int16Array(n));
    this.payloadFlip = grow(this.payloadFlip, (n) => new Int16Array(n));
  }

  /** Index of a new row (its fields are the caller's to set). */
  add(): number {
    if (this.count === this.tsMs.length) this.resize(this.tsMs.length * 2);
    return this.count++;
  }
}

/** Position of a device at `t` along its piecewise-linear path; `cursor[0]` caches the leg. */
function positionAt(motion: BleMotion, t: number, cursor: Int32Array, out: Float64Array): void {
  const times = motion.t;
  if (times.length === 1 || t <= times[0]) {
    out[0] = motion.x[0];
    out[1] = motion.y[0];
    return;
  }
  let leg = cursor[0];
  if (leg >= times.length - 1 || times[leg] > t) leg = 0;
  while (leg < times.length - 1 && times[leg + 1] < t) leg++;
  cursor[0] = leg;
  if (leg >= times.length - 1) {
    out[0] = motion.x[times.length - 1];
    out[1] = motion.y[times.length - 1];
    return;
  }
  const span = times[leg + 1] - times[leg];
  const share = span > 0 ? (t - times[leg]) / span : 0;
  out[0] = motion.x[leg] + (motion.x[leg + 1] - motion.x[leg]) * share;
  out[1] = motion.y[leg] + (motion.y[leg + 1] - motion.y[leg]) * share;
}

function inGap(receiver: BleReceiverPlan, t: number): boolean {
  for (const gap of receiver.gaps) if (t >= gap.startMs && t <= gap.endMs) return true;
  return false;
}

/** Expected rows, to size the buffers once (an overestimate costs little). */
function estimateRows(plan: BleScenarioPlan): number {
  let rows = 0;
  for (const device of plan.devices) {
    for (const set of device.sets) {
      for (const epoch of set.epochs) rows += (Math.max(0, epoch.endMs - epoch.startMs) / set.emitIntervalMs) * plan.receivers.length;
    }
  }
  return Math.ceil(rows * 0.8);
}

/**
 * Renders every device's packets at every receiver. Deterministic for a given plan and seed;
 * rows come out per device and set, not in time order (the table writer sorts per capture).
 */
export function renderBleObservations(plan: BleScenarioPlan, seed: number): BleObservations {
  const random = seededRandom(seed ^ 0x5eed_0b5e);
  const out = new ObservationBuffer(estimateRows(plan));
  const addresses: BleRenderedAddress[] = [];
  const receivers = plan.receivers;
  const radio = plan.radio;
  const multipathDb = radio.multipathDb ?? 0;
  const position = new Float64Array(2);
  const cursor = new Int32Array(1);

  const shadows: number[][] = [];
  const resolutionMs = radio.timestampResolutionMs;
  plan.devices.forEach((device, deviceIndex) => {
    // Shadowing belongs to the device–receiver path, not to an address: it survives rotation. A
    // carried device shares its carrier's body (same draws either way, so the stream stays aligned).
    const carrierShadow = device.shadowingOf === undefined ? undefined : shadows[device.shadowingOf];
    const shadow = receivers.map((_, r) => {
      const draw = random.normal();
      return carrierShadow ? carrierShadow[r] + BLE_CARRIED_SHADOWING_DELTA_DB * draw : radio.shadowingDb * draw;
    });
    shadows.push(shadow);
    // One controller schedules all of the device's sets on one slot grid (ble-advertising-clock.ts).
    const clock = radio.advertisingClock ? bleDeviceClock(seed, deviceIndex) : undefined;
    device.sets.forEach((set, setIndex) => {
      const firstAddress = addresses.length;
      for (const epoch of set.epochs) addresses.push({ epoch, deviceIndex, setIndex });
      renderSet(device, set.epochs, firstAddress, setIndex);
    });

    function renderSet(plannedDevice: BleDevicePlan, epochs: BleAddressEpoch[], firstAddress: number, setIndex: number): void {
      const set = plannedDevice.sets[setIndex];
      if (epochs.length === 0) return;
      const from = Math.max(epochs[0].startMs, plannedDevice.presentFromMs, plan.startMs);
      const to = Math.min(epochs[epochs.length - 1].endMs, plannedDevice.presentToMs, plan.endMs);
      let epochIndex = 0;
      let payloadIndex = 0;
      cursor[0] = 0;
      for (let t = from + random.uniform() * set.emitIntervalMs; t <= to; t += set.emitIntervalMs + random.uniform() * 10) {
        while (epochIndex < epochs.length && epochs[epochIndex].endMs < t) epochIndex++;
        if (epochIndex === epochs.length) break;
        if (epochs[epochIndex].startMs > t) continue; // between bursts
        while (payloadIndex + 1 < set.payloads.length && set.payloads[payloadIndex + 1].fromMs <= t) payloadIndex++;
        positionAt(plannedDevice.motion, t, cursor, position);
        for (let r = 0; r < receivers.length; r++) {
          const receiver = receivers[r];
          const channelSlot = Math.min(2, Math.floor(random.uniform() * 3));
          if (random.uniform() < receiver.channelLoss[channelSlot]) continue;
          if (receiver.gaps.length > 0 && inGap(receiver, t)) continue;
          const distance = Math.max(0.5, Math.hypot(position[0] - receiver.x, position[1] - receiver.y));
          const multipath = bleMultipathGainDb(multipathDb, seed, r, channelSlot, position[0], position[1]);
          const dbm = plannedDevice.powerAt1mDbm + (set.txOffsetDb ?? 0) - 10 * radio.pathLossExponent * Math.log10(distance) + shadow[r] + multipath + radio.fadingDb * random.normal();
          if (dbm < receiver.sensitivityDbm) continue;
          const sent = clock ? blePacketTime(clock, t, channelSlot, plan.payloads[set.payloads[payloadIndex].payload].length) : t;
          // Receivers time-stamp to the microsecond (or to `timestampResolutionMs`).
          let local = clock ? Math.round((sent + receiver.clockOffsetMs + (sent - plan.startMs) * receiver.driftPpm * 1e-6) * 1000) / 1000 : t + receiver.clockOffsetMs + (t - plan.startMs) * receiver.driftPpm * 1e-6;
          if (resolutionMs !== undefined) local = Math.round(local / resolutionMs) * resolutionMs;
          if (local < plan.startMs || local > plan.endMs) continue;
          const row = out.add();
          out.tsMs[row] = local;
          out.receiver[row] = r;
          out.channel[row] = 37 + channelSlot;
          out.rssi[row] = Math.max(-127, Math.min(20, Math.round(dbm)));
          out.address[row] = firstAddress + epochIndex;
          out.payload[row] = set.payloads[payloadIndex].payload;
          out.advType[row] = set.advType;
          corrupt(row, random, plan.payloads[set.payloads[payloadIndex].payload].length);
        }
      }
    }
  });

  function corrupt(row: number, rng: SeededRandom, payloadBytes: number): void {
    out.addressFlip[row] = -1;
    out.addressFlip2[row] = -1;
    out.payloadFlip[row] = -1;
    if (rng.uniform() >= radio.crcBadRate) return;
    out.crcBad[row] = 1;
    if (payloadBytes === 0 || rng.uniform() < radio.crcAddressShare) {
      out.addressFlip[row] = Math.floor(rng.uniform() * 48);
      // Errors come in bursts: a quarter of the damaged addresses have a second flipped bit.
      if (rng.uniform() < 0.25) out.addressFlip2[row] = Math.floor(rng.uniform() * 48);
    } else {
      out.payloadFlip[row] = Math.floor(rng.uniform() * payloadBytes * 8);
    }
  }

  return {
    count: out.count,
    tsMs: out.tsMs,
    receiver: out.receiver,
    channel: out.channel,
    rssi: out.rssi,
    address: out.address,
    payload: out.payload,
    advType: out.advType,
    crcBad: out.crcBad,
    addressFlip: out.addressFlip,
    addressFlip2: out.addressFlip2,
    payloadFlip: out.payloadFlip,
    addresses,
  };
}
