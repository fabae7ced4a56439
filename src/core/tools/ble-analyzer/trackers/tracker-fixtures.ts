import type { Table } from 'apache-arrow';
import { ADV_TYPE } from '../../../data/ble/adv-types.ts';
import { RecordWriter } from '../../../data/ble/record-writer.ts';
import { seededRandom, type SeededRandom } from '../../../demo/seeded-random.ts';
import type { BleAnalysis } from '../shared/analysis-types.ts';

/**
 * Test support: seeded captures of tracker tags (Find My-style in separated mode with one daily
 * swap, FMDN-style on the 1024 s schedule, SmartTag-style with an aging counter) among phones,
 * some tags carried by a phone along its path, written through the importer's record writer;
 * with the truth (address → device) and the pairwise score of the pairs involving a tag. The
 * tags' bytes follow the layouts in docs/ble-trackers.md; nothing in them is made to help the
 * analyzer beyond what the formats carry.
 */

export interface TrackerFixtureOptions {
  seed: number;
  durationS: number;
  findMy: number;
  fmdn: number;
  smarttag: number;
  phones: number;
  /** Share of the tags carried by a phone (same path, RSSI within a few dB). */
  carriedShare: number;
  receivers: number;
  /** Share of packets lost on each receiver. */
  loss: number;
  /** Sparse scanning: the receivers listen `onS` seconds every `everyS` seconds (a phone-side observer). */
  scan?: { onS: number; everyS: number };
}

export interface TrackerFixture {
  table: Table;
  /** Device of every address (upper-case colon text). */
  deviceOf: Map<string, string>;
  /** Devices that are tags. */
  tags: Set<string>;
  /** The Find My daily swaps in the capture: [old address, new address]. */
  findMySwaps: Array<[string, string]>;
  /** The phone that carries each carried tag (by device). */
  carrierOf: Map<string, string>;
}

interface Emission {
  ts: number;
  receiver: number;
  rssi: number;
  address: Uint8Array;
  ad: Uint8Array;
}

const TRACKER_FIXTURE_DEFAULTS: TrackerFixtureOptions = { seed: 1, durationS: 7200, findMy: 12, fmdn: 6, smarttag: 6, phones: 8, carriedShare: 0.5, receivers: 2, loss: 0.2 };

function bytes(random: SeededRandom, count: number): number[] {
  const out: number[] = [];
  for (let index = 0; index < count; index++) out.push(Math.floor(random.uniform() * 256));
  return out;
}

function addressText(msbFirst: Uint8Array): string {
  return Array.from(msbFirst, (value) => value.toString(16).toUpperCase().padStart(2, '0')).join(':');
}

/** A random address of the given top two bits (0b11 random static, 0b01 resolvable private), MSB first. */
function randomAddress(random: SeededRandom, topBits: number): Uint8Array {
  const address = Uint8Array.from(bytes(random, 6));
  address[0] = (address[0] & 0x3f) | (topBits << 6);
  return address;
}

function adStructure(type: number, value: ArrayLike<number>): number[] {
  return [value.length + 1, type, ...Array.from(value)];
}

/** Find My separated-mode payload for a 28-byte key; its address is the key's first six bytes with the top bits set. */
export function findMyPayload(key: ArrayLike<number>, status: number): Uint8Array {
  return Uint8Array.from(adStructure(0xff, [0x4c, 0x00, 0x12, 0x19, status, ...Array.from(key).slice(6, 28), key[0] >> 6, 0x00]));
}

export function fmdnPayload(eid: ArrayLike<number>, hashedFlags: number, frame = 0x40): Uint8Array {
  return Uint8Array.from([...adStructure(0x01, [0x06]), ...adStructure(0x16, [0xaa, 0xfe, frame, ...Array.from(eid), hashedFlags])]);
}

export function smartTagPayload(state: number, counter: number, privacyId: ArrayLike<number>): Uint8Array {
  return Uint8Array.from([...adStructure(0x01, [0x06]), ...adStructure(0x16, [0x5a, 0xfd, state, counter & 0xff, (counter >> 8) & 0xff, (counter >> 16) & 0xff, ...Array.from(privacyId), 0x07])]);
}

function phonePayload(random: SeededRandom): Uint8Array {
  return Uint8Array.from([...adStructure(0x01, [0x1a]), ...adStructure(0xff, [0x4c, 0x00, 0x10, 0x05, ...bytes(random, 5)])]);
}

/** A path: the level on each receiver over time (a slow random walk), shared by a phone and what it carries. */
class Path {
  private readonly base: number[];
  private readonly stepS = 30;
  private readonly walk: number[][];
  constructor(random: SeededRandom, receivers: number, durationS: number) {
    this.base = Array.from({ length: receivers }, () => -85 + 30 * random.uniform());
    this.walk = this.base.map(() => {
      const values: number[] = [0];
      for (let t = this.stepS; t <= durationS + this.stepS; t += this.stepS) values.push(Math.max(-12, Math.min(12, values[values.length - 1] + 2 * random.normal())));
      return values;
    });
  }
  level(receiver: number, tS: number): number {
    const at = Math.min(this.walk[receiver].length - 1, Math.max(0, Math.floor(tS / this.stepS)));
    return this.base[receiver] + this.walk[receiver][at];
  }
}

/** A seeded capture of tags among phones, with its truth. */
export function trackerFixture(overrides: Partial<TrackerFixtureOptions> = {}): TrackerFixture {
  const options = { ...TRACKER_FIXTURE_DEFAULTS, ...overrides };
  const random = seededRandom(options.seed);
  const durationMs = options.durationS * 1000;
  const emissions: Emission[] = [];
  const deviceOf = new Map<string, string>();
  const tags = new Set<string>();
  const findMySwaps: Array<[string, string]> = [];
  const carrierOf = new Map<string, string>();
  const phonePaths: Path[] = [];

  const emit = (device: string, path: Path, offsetDb: number, address: Uint8Array, ad: Uint8Array, fromMs: number, toMs: number, intervalMs: number) => {
    deviceOf.set(addressText(address), device);
    const air = Uint8Array.from(address).reverse();
    for (let ts = fromMs; ts < toMs; ts += intervalMs + 10 * random.uniform()) {
      if (ts < 0 || ts >= durationMs) continue;
      if (options.scan && (ts / 1000) % options.scan.everyS >= options.scan.onS) continue;
      for (let receiver = 0; receiver < options.receivers; receiver++) {
        if (random.uniform() < options.loss) continue;
        const rssi = Math.round(path.level(receiver, ts / 1000) + offsetDb + 2 * random.normal());
        if (rssi < -100) continue;
        emissions.push({ ts, receiver, rssi, address: air, ad });
      }
    }
  };

  for (let index = 0; index < options.phones; index++) {
    const path = new Path(random, options.receivers, options.durationS);
    phonePaths.push(path);
    const device = `phone-${index}`;
    let start = -random.uniform() * 600_000;
    while (start < durationMs) {
      const end = start + (300 + 600 * random.uniform()) * 1000;
      emit(device, path, 0, randomAddress(random, 0b01), phonePayload(random), start, end, 200);
      start = end;
    }
  }
  const tagPath = (device: string): Path => {
    if (phonePaths.length === 0 || random.uniform() >= options.carriedShare) return new Path(random, options.receivers, options.durationS);
    const phone = Math.floor(random.uniform() * phonePaths.length);
    carrierOf.set(device, `phone-${phone}`);
    return phonePaths[phone];
  };

  for (let index = 0; index < options.findMy; index++) {
    const device = `findmy-${index}`;
    tags.add(device);
    const path = tagPath(device);
    const offset = -6 + 4 * random.normal();
    // Separated for more than a day: one swap in the capture, with the same status byte.
    const status = [0x10, 0x10, 0x50, 0x90][Math.floor(random.uniform() * 4)];
    const swapMs = (0.15 + 0.7 * random.uniform()) * durationMs;
    let previous = '';
    for (const [fromMs, toMs] of [
      [-1, swapMs],
      [swapMs + 1500 + 1000 * random.uniform(), durationMs],
    ]) {
      const key = bytes(random, 28);
      const address = Uint8Array.from([key[0] | 0xc0, ...key.slice(1, 6)]);
      emit(device, path, offset, address, findMyPayload(key, status), fromMs, toMs, 2000);
      if (previous) findMySwaps.push([previous, addressText(address)]);
      previous = addressText(address);
    }
  }

  for (let index = 0; index < options.fmdn; index++) {
    const device = `fmdn-${index}`;
    tags.add(device);
    const path = tagPath(device);
    const offset = -6 + 4 * random.normal();
    const phase = random.uniform() * 1024;
    let start = -1;
    for (let boundary = Math.floor((0 - phase) / 1024) * 1024 + phase; start < durationMs; boundary += 1024) {
      const end = (boundary + 1024 + 1 + 203 * random.uniform()) * 1000;
      if (end > 0) emit(device, path, offset, randomAddress(random, 0b01), fmdnPayload(bytes(random, 20), Math.floor(random.uniform() * 256)), start, end, 2000);
      start = end;
    }
  }

  for (let index = 0; index < options.smarttag; index++) {
    const device = `smarttag-${index}`;
    tags.add(device);
    const path = tagPath(device);
    const offset = -6 + 4 * random.normal();
    let counter = 1000 + Math.floor(random.uniform() * 60_000);
    let start = -random.uniform() * 900_000;
    while (start < durationMs) {
      const end = start + (900 + 20 * random.normal()) * 1000;
      emit(device, path, offset, randomAddress(random, 0b01), smartTagPayload(0x12, counter, bytes(random, 8)), start, end, 1000);
      counter++;
      start = end;
    }
  }

  emissions.sort((x, y) => x.ts - y.ts || x.receiver - y.receiver);
  const writer = new RecordWriter();
  const receiverCodes = Array.from({ length: options.receivers }, (_, index) => writer.receiverIndex(`rx-${index + 1}`));
  emissions.forEach((emission, index) => {
    writer.begin(emission.ts, receiverCodes[emission.receiver], index + 1);
    writer.setChannel(37);
    writer.setRssi(emission.rssi);
    writer.setCrcOk(true);
    writer.setAdvType(ADV_TYPE.ADV_NONCONN_IND, true);
    writer.setTxAdd(1);
    writer.setAdvertiser(emission.address, 0, 1);
    writer.setAdData(emission.ad, 0, emission.ad.length);
    writer.end();
  });
  return { table: writer.toTable('trackers', new Map()), deviceOf, tags, findMySwaps, carrierOf };
}

/**
 * Pairwise precision, recall and F1 over the address pairs involving a tag. Predicted: one
 * cluster, or with `level` 'chain' one hand-off chain (what the hand-off linkage alone says,
 * before co-location joins chains into devices).
 */
export function tagPairScore(analysis: BleAnalysis, fixture: TrackerFixture, level: 'cluster' | 'chain' = 'cluster'): { precision: number; recall: number; f1: number; truePairs: number } {
  const clusterOf = new Map<string, number>();
  let group = 0;
  for (const cluster of analysis.clusters) {
    for (const members of level === 'chain' ? (cluster.chains ?? [cluster.addresses]) : [cluster.addresses]) {
      for (const address of members) clusterOf.set(address, group);
      group++;
    }
  }
  const addresses = [...fixture.deviceOf.keys()].filter((address) => analysis.classification.some((item) => item.address === address));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < addresses.length; i++) {
    for (let j = i + 1; j < addresses.length; j++) {
      const deviceA = fixture.deviceOf.get(addresses[i]) as string;
      const deviceB = fixture.deviceOf.get(addresses[j]) as string;
      if (!fixture.tags.has(deviceA) && !fixture.tags.has(deviceB)) continue;
      const same = deviceA === deviceB;
      const clusterA = clusterOf.get(addresses[i]);
      const predicted = clusterA !== undefined && clusterA === clusterOf.get(addresses[j]);
      if (same && predicted) tp++;
      else if (predicted) fp++;
      else if (same) fn++;
    }
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall), truePairs: tp + fn };
}
