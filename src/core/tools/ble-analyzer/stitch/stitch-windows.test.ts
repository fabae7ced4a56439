import { describe, expect, it } from 'vitest';
import { WindowStitcher, weakestJoin, type BleWindowOutput } from './stitch-windows.ts';

const T0 = Date.parse('2026-11-20T13:00:00Z');
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();

/** A window's output: clusters as address lists with one link probability, every other address alone. */
function windowOutput(clusters: Array<{ id: string; addresses: string[]; p?: number }>, alone: string[], seen: Record<string, [number, number]>, travelled: BleWindowOutput['travelled_together'] = []): BleWindowOutput {
  const all = [...clusters.flatMap((cluster) => cluster.addresses), ...alone];
  return {
    address_classification: all.map((address) => ({ address, type: 'rpa' })),
    probabilistic_links: clusters.map(({ id, addresses, p = 0.99 }) => ({
      cluster_id: id,
      addresses,
      pairwise_probability_matrix: addresses.map((_, row) => addresses.map((__, column) => (row === column ? 1 : p ** Math.abs(row - column)))),
    })),
    timeline_segments: all.map((address) => ({ address, start_ts: at(seen[address]?.[0] ?? 0), end_ts: at(seen[address]?.[1] ?? 1) })),
    travelled_together: travelled,
  };
}

describe('WindowStitcher', () => {
  it('joins the clusters of consecutive windows that share an address into one device', () => {
    const stitcher = new WindowStitcher();
    // A phone rotates A → B in window 0's overlap and B → C in window 1; a beacon Z is in both; Q only in window 1.
    stitcher.addWindow(0, windowOutput([{ id: 'c0', addresses: ['A', 'B'], p: 0.9 }], ['Z'], { A: [0, 50], B: [50, 70], Z: [0, 70] }));
    stitcher.addWindow(1, windowOutput([{ id: 'c1', addresses: ['B', 'C'], p: 0.8 }], ['Z', 'Q'], { B: [60, 100], C: [100, 130], Z: [60, 130], Q: [90, 95] }));
    const { clusters, counts, conflicts } = stitcher.finish();
    expect(conflicts).toEqual([]);
    expect(counts).toMatchObject({ windows_stitched: 2, devices: 3, multi_address_devices: 1, spanning_devices: 2, joins: 2, conflicts: 0 });
    const phone = clusters.find((cluster) => cluster.addresses.includes('A'))!;
    expect(phone.addresses).toEqual(['A', 'B', 'C']);
    expect(phone.windows).toEqual([0, 1]);
    expect(phone.window_clusters).toEqual([{ window: 0, cluster_id: 'c0' }, { window: 1, cluster_id: 'c1' }]);
    expect(phone.first_seen).toBe(at(0));
    expect(phone.last_seen).toBe(at(130));
    // The weakest join: window 1's hand-off (0.8), never more than any one window's.
    expect(phone.confidence).toBeCloseTo(0.8, 12);
    const beacon = clusters.find((cluster) => cluster.addresses.includes('Z'))!;
    expect(beacon).toMatchObject({ addresses: ['Z'], windows: [0, 1], confidence: 1, window_clusters: [{ window: 0, cluster_id: null }, { window: 1, cluster_id: null }] });
    // Numbered by first seen.
    expect(clusters.map((cluster) => cluster.id)).toEqual(['device_000001', 'device_000002', 'device_000003']);
    expect(clusters[2].addresses).toEqual(['Q']);
  });

  it('does not merge two clusters the next window keeps apart, and reports the conflict', () => {
    const stitcher = new WindowStitcher();
    // Window 0 took two people walking together for one device {P1, P2, R}; window 1 keeps {P1, X} and {P2, R, Y} apart.
    stitcher.addWindow(0, windowOutput([{ id: 'w0', addresses: ['P1', 'P2', 'R'] }], [], { P1: [0, 60], P2: [0, 60], R: [0, 60] }));
    stitcher.addWindow(1, windowOutput([{ id: 'one', addresses: ['P1', 'X'] }, { id: 'two', addresses: ['P2', 'R', 'Y'] }], [], { P1: [50, 60], X: [60, 120], P2: [50, 70], R: [50, 60], Y: [70, 120] }));
    const { clusters, conflicts, counts } = stitcher.finish();
    expect(counts.devices).toBe(2);
    expect(counts.conflicts).toBe(1);
    // The window-0 cluster continues as the one it shares most addresses with…
    const two = clusters.find((cluster) => cluster.addresses.includes('Y'))!;
    expect(two.windows).toEqual([0, 1]);
    expect(two.addresses).toEqual(['P2', 'R', 'Y']);
    // …and P1 goes with the device the later window put it in.
    const one = clusters.find((cluster) => cluster.addresses.includes('X'))!;
    expect(one.addresses).toEqual(['P1', 'X']);
    expect(one.windows).toEqual([1]);
    expect(conflicts).toEqual([
      { window: 0, cluster_id: 'w0', other_window: 1, other_cluster_id: 'one', shared_addresses: ['P1'], kept_apart_in_window: 1, kept_apart: ['two', 'one'], devices: [two.id, one.id] },
    ]);
    expect(one.conflicts).toBe(1);
    expect(two.conflicts).toBe(1);
  });

  it('reports a join that an earlier window kept apart; the later window decides where the addresses go', () => {
    const stitcher = new WindowStitcher();
    stitcher.addWindow(0, windowOutput([], ['A', 'B'], {}));
    // Window 1 links A and B (it saw the hand-off whole); window 0 saw them as two devices.
    stitcher.addWindow(1, windowOutput([{ id: 'ab', addresses: ['A', 'B'] }], [], {}));
    const { counts, conflicts, clusters } = stitcher.finish();
    expect(counts).toMatchObject({ devices: 1, conflicts: 1, absorbed: 1 });
    expect(clusters[0]).toMatchObject({ addresses: ['A', 'B'], windows: [0, 1], conflicts: 1 });
    expect(conflicts[0]).toMatchObject({ window: 0, cluster_id: null, other_window: 1, other_cluster_id: 'ab', shared_addresses: ['B'], kept_apart_in_window: 0, kept_apart: ['B', 'A'] });
  });

  it('takes a lone address cut by a window edge for no separation', () => {
    const stitcher = new WindowStitcher();
    // Window 0 (0–24 min) saw A hand off to B at 21 min; window 1 starts at 20 min and holds only A's last minute, alone.
    stitcher.addWindow(0, windowOutput([{ id: 'ab', addresses: ['A', 'B'] }], [], { A: [0, 21], B: [21, 24] }), { startMs: null, endMs: T0 + 24 * 60_000, marginMs: 4 * 60_000 });
    stitcher.addWindow(1, windowOutput([], ['A', 'B'], { A: [20, 21], B: [21, 30] }), { startMs: T0 + 20 * 60_000, endMs: null, marginMs: 4 * 60_000 });
    const { clusters, counts } = stitcher.finish();
    expect(counts).toMatchObject({ devices: 1, conflicts: 0 });
    expect(clusters[0]).toMatchObject({ addresses: ['A', 'B'], windows: [0, 1] });
    expect(clusters[0].window_clusters).toEqual([{ window: 0, cluster_id: 'ab' }, { window: 1, cluster_id: null }, { window: 1, cluster_id: null }]);
  });

  it('carries travelled-together relations to the devices of their window', () => {
    const stitcher = new WindowStitcher();
    const relation = { addresses_a: ['W'], addresses_b: ['A', 'B'], cluster_b: 'c0', probability: 0.7, start_ts: at(0), end_ts: at(60), duration_s: 3600 };
    stitcher.addWindow(0, windowOutput([{ id: 'c0', addresses: ['A', 'B'] }], ['W'], {}, [relation]));
    stitcher.addWindow(1, windowOutput([{ id: 'c1', addresses: ['B', 'C'] }], ['W'], {}, [{ ...relation, addresses_b: ['B', 'C'], cluster_b: 'c1' }]));
    const { relations, clusters } = stitcher.finish();
    const phone = clusters.find((cluster) => cluster.addresses.includes('C'))!.id;
    const watch = clusters.find((cluster) => cluster.addresses.includes('W'))!.id;
    expect(relations.map(({ window, device_a, device_b }) => ({ window, device_a, device_b }))).toEqual([
      { window: 0, device_a: watch, device_b: phone },
      { window: 1, device_a: watch, device_b: phone },
    ]);
  });

  it('refuses windows out of order', () => {
    const stitcher = new WindowStitcher();
    stitcher.addWindow(2, windowOutput([], [], {}));
    expect(() => stitcher.addWindow(1, windowOutput([], [], {}))).toThrow(/ascending/);
  });
});

describe('weakestJoin', () => {
  it('is the bottleneck of the strongest tree', () => {
    expect(weakestJoin([[1]])).toBe(1);
    // A chain 0.9 then 0.6 with the product elsewhere: the weak hand-off.
    expect(weakestJoin([[1, 0.9, 0.54], [0.9, 1, 0.6], [0.54, 0.6, 1]])).toBe(0.6);
    // Two sets joined by co-location at 0.7, each chain strong.
    expect(weakestJoin([[1, 0.99, 0.7, 0.1], [0.99, 1, 0.1, 0.7], [0.7, 0.1, 1, 0.95], [0.1, 0.7, 0.95, 1]])).toBe(0.7);
  });
});
