/**
 * The ground truth of a generated scenario: which device every address belongs to, what each
 * device is, when addresses rotated, and which addresses exist only through CRC-bad bit flips.
 * `sextant generate ble` writes it as `FILE.truth.json` (format in docs/ble-scenarios.md).
 */
import { bleAddressText, type BleTruthAddressType } from './ble-address.ts';
import type { BleDeviceClass, BleDeviceProfile, BleScenarioPlan } from './ble-plan-types.ts';
import type { BleObservations } from './ble-render.ts';

export const BLE_TRUTH_FORMAT = 'sextant-ble-truth/1';

export interface BleTruthAddress {
  address: string;
  device_id: string;
  /** Advertising set of the device (0 = main; Android-like phones have up to 3). */
  set: number;
  type: BleTruthAddressType;
  /** When the device started and stopped using the address (true time; may lie outside the span). */
  planned_start_ms: number;
  planned_end_ms: number;
  /** First and last observation with this address intact, receiver time; null when never heard. */
  first_seen_ms: number | null;
  last_seen_ms: number | null;
  /** Packets with the address intact, and those of them whose CRC passed. */
  observations: number;
  observations_crc_ok: number;
}

export interface BleTruthDevice {
  device_id: string;
  profile: BleDeviceProfile;
  class: BleDeviceClass;
  template_id: string;
  sets: Array<{ adv_interval_ms: number; emit_interval_ms: number; adv_type: string; addresses: number; tx_offset_db: number }>;
  /** Multi-set phones: whether all sets rotate together (within 1 s) or each on its own timer. */
  synchronized_sets?: boolean;
  /** The device's identity resolving key, 32 hex digits MSB first, when its RPAs are real ah() RPAs. */
  irk?: string;
  mobile: boolean;
  present_from_ms: number;
  present_to_ms: number;
}

export interface BleTruthRotation {
  device_id: string;
  set: number;
  from: string;
  to: string;
  /** Moment of the change, true time, epoch ms. */
  at_ms: number;
}

/**
 * Two distinct devices that moved together: `carried` when one person carries both (a phone and
 * its watch, earbuds or tag), `group` when they belong to two people walking together.
 */
export interface BleTruthTravel {
  device_a: string;
  device_b: string;
  kind: 'carried' | 'group';
  /** When both were in range together (true time, epoch ms). */
  from_ms: number;
  to_ms: number;
}

export interface BleTruthReceiver {
  name: string;
  capture_id: string;
  x_m: number;
  y_m: number;
  clock_offset_ms: number;
  drift_ppm: number;
  gaps: Array<{ start_ms: number; end_ms: number }>;
  channel_loss: { '37': number; '38': number; '39': number };
}

export interface BleScenarioTruth {
  format: typeof BLE_TRUTH_FORMAT;
  scenario: string;
  seed: number;
  start_ms: number;
  end_ms: number;
  receivers: BleTruthReceiver[];
  devices: BleTruthDevice[];
  /** Every address a device used during the span (heard or not). */
  addresses: BleTruthAddress[];
  /** address → device_id, for quick look-up (same content as `addresses`). */
  address_to_device: Record<string, string>;
  rotations: BleTruthRotation[];
  /** Pairs of distinct devices that travelled together (the "travelled together" relation; empty in most scenarios). */
  travelled_together: BleTruthTravel[];
  /** Addresses that occur only in CRC-bad packets with flipped bits → the address they came from. */
  phantom_addresses: Record<string, string>;
  counts: { observations: number; crc_bad: number; devices: number; addresses: number; addresses_heard: number; phantom_addresses: number };
}

const ADV_TYPE_LABEL: Record<number, string> = { 0: 'ADV_IND', 2: 'ADV_NONCONN_IND', 6: 'ADV_SCAN_IND' };

/** Builds the truth from the plan and what was rendered (seen counts and times come from the rows). */
export function buildBleTruth(
  plan: BleScenarioPlan,
  observations: BleObservations,
  meta: { scenario: string; seed: number; captureIdOf: (receiverIndex: number) => string },
): BleScenarioTruth {
  const addressCount = observations.addresses.length;
  const seen = new Int32Array(addressCount);
  const seenOk = new Int32Array(addressCount);
  const first = new Float64Array(addressCount).fill(Number.POSITIVE_INFINITY);
  const last = new Float64Array(addressCount).fill(Number.NEGATIVE_INFINITY);
  const phantoms: Record<string, string> = {};
  const flipped = new Uint8Array(6);
  for (let row = 0; row < observations.count; row++) {
    const index = observations.address[row];
    const flip = observations.addressFlip[row];
    if (flip >= 0) {
      const air = observations.addresses[index].epoch.address.air;
      flipped.set(air);
      flipped[flip >> 3] ^= 1 << (flip & 7);
      const flip2 = observations.addressFlip2[row];
      if (flip2 >= 0) flipped[flip2 >> 3] ^= 1 << (flip2 & 7);
      // Text MSB first: reverse the over-the-air order.
      const text = bleAddressText([flipped[5], flipped[4], flipped[3], flipped[2], flipped[1], flipped[0]]);
      const parent = observations.addresses[index].epoch.address.text;
      if (text !== parent) phantoms[text] = parent;
      continue;
    }
    seen[index]++;
    if (observations.crcBad[row] === 0) seenOk[index]++;
    const ts = observations.tsMs[row];
    if (ts < first[index]) first[index] = ts;
    if (ts > last[index]) last[index] = ts;
  }

  const addresses: BleTruthAddress[] = observations.addresses.map((rendered, index) => ({
    address: rendered.epoch.address.text,
    device_id: plan.devices[rendered.deviceIndex].deviceId,
    set: rendered.setIndex,
    type: rendered.epoch.address.type,
    planned_start_ms: Math.round(rendered.epoch.startMs),
    planned_end_ms: Math.round(rendered.epoch.endMs),
    first_seen_ms: seen[index] > 0 ? first[index] : null,
    last_seen_ms: seen[index] > 0 ? last[index] : null,
    observations: seen[index],
    observations_crc_ok: seenOk[index],
  }));
  // A phantom that happens to equal a real address is that address, not a phantom.
  for (const address of addresses) delete phantoms[address.address];

  const rotations: BleTruthRotation[] = [];
  plan.devices.forEach((device) => {
    device.sets.forEach((set, setIndex) => {
      for (let index = 1; index < set.epochs.length; index++) {
        const previous = set.epochs[index - 1];
        const next = set.epochs[index];
        // Bursts of NRPA broadcasters are separate transmissions, not hand-offs (a Find My-style
        // tag's ~2 s silence while it swaps keys is a hand-off).
        if (device.profile === 'nrpa_broadcaster' && next.startMs - previous.endMs > 1) continue;
        if (next.startMs < plan.startMs || next.startMs > plan.endMs) continue;
        rotations.push({ device_id: device.deviceId, set: setIndex, from: previous.address.text, to: next.address.text, at_ms: Math.round(next.startMs) });
      }
    });
  });
  rotations.sort((a, b) => a.at_ms - b.at_ms || a.device_id.localeCompare(b.device_id));

  let crcBad = 0;
  for (let row = 0; row < observations.count; row++) crcBad += observations.crcBad[row];
  return {
    format: BLE_TRUTH_FORMAT,
    scenario: meta.scenario,
    seed: meta.seed,
    start_ms: plan.startMs,
    end_ms: plan.endMs,
    receivers: plan.receivers.map((receiver, index) => ({
      name: receiver.name,
      capture_id: meta.captureIdOf(index),
      x_m: round(receiver.x, 2),
      y_m: round(receiver.y, 2),
      clock_offset_ms: round(receiver.clockOffsetMs, 3),
      drift_ppm: round(receiver.driftPpm, 3),
      gaps: receiver.gaps.map((gap) => ({ start_ms: Math.round(gap.startMs), end_ms: Math.round(gap.endMs) })),
      channel_loss: { '37': round(receiver.channelLoss[0], 3), '38': round(receiver.channelLoss[1], 3), '39': round(receiver.channelLoss[2], 3) },
    })),
    devices: plan.devices.map((device) => ({
      device_id: device.deviceId,
      profile: device.profile,
      class: device.deviceClass,
      template_id: device.templateId,
      sets: device.sets.map((set) => ({
        adv_interval_ms: set.advIntervalMs,
        emit_interval_ms: set.emitIntervalMs,
        adv_type: ADV_TYPE_LABEL[set.advType] ?? String(set.advType),
        addresses: set.epochs.length,
        tx_offset_db: round(set.txOffsetDb ?? 0, 2),
      })),
      ...(device.synchronizedSets !== undefined ? { synchronized_sets: device.synchronizedSets } : {}),
      ...(device.irk ? { irk: Array.from(device.irk, (byte) => byte.toString(16).padStart(2, '0')).join('') } : {}),
      mobile: device.motion.t.length > 1,
      present_from_ms: Math.round(device.presentFromMs),
      present_to_ms: Math.round(device.presentToMs),
    })),
    addresses,
    address_to_device: Object.fromEntries(addresses.map((address) => [address.address, address.device_id])),
    rotations,
    travelled_together: travelPairs(plan),
    phantom_addresses: phantoms,
    counts: {
      observations: observations.count,
      crc_bad: crcBad,
      devices: plan.devices.length,
      addresses: addresses.length,
      addresses_heard: addresses.filter((address) => address.observations > 0).length,
      phantom_addresses: Object.keys(phantoms).length,
    },
  };
}

/** Every pair of devices of a travel group; a pair one person carries is `carried` even inside a walking group. */
function travelPairs(plan: BleScenarioPlan): BleTruthTravel[] {
  const pairs: BleTruthTravel[] = [];
  const seen = new Set<string>();
  const ordered = [...plan.travelGroups.filter((group) => group.kind !== 'group'), ...plan.travelGroups.filter((group) => group.kind === 'group')];
  for (const group of ordered) {
    group.devices.forEach((a, i) => {
      for (const b of group.devices.slice(i + 1)) {
        const key = a < b ? `${a}|${b}` : `${b}|${a}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push({ device_a: plan.devices[a].deviceId, device_b: plan.devices[b].deviceId, kind: group.kind ?? 'carried', from_ms: Math.round(group.fromMs), to_ms: Math.round(group.toMs) });
      }
    });
  }
  return pairs;
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}
