import type { BleAnalyzerOutput, ProbabilisticLink } from '../ble-output.ts';

/**
 * A large, seeded analyzer output for the heatmap and timeline at scale: `linked` addresses in
 * clusters of 2–6 (or one single cluster), plus `standalone` unlinked addresses.
 */
export function largeBleOutput({ linked = 500, standalone = 200, seed = 7, singleCluster = false } = {}): BleAnalyzerOutput {
  let state = seed >>> 0;
  const random = () => {
    // mulberry32: small, seeded, good enough for fixtures.
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const address = (index: number, topBits: number) => {
    const bytes = [((topBits << 6) | (index >> 16)) & 0xff, (index >> 8) & 0xff, index & 0xff, Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256)];
    return bytes.map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join(':');
  };
  const start = Date.parse('2024-04-03T08:00:00Z');
  const iso = (ms: number) => new Date(Math.round(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const output: BleAnalyzerOutput = { address_classification: [], probabilistic_links: [], timeline_segments: [] };
  let next = 0;
  while (next < linked) {
    const size = singleCluster ? linked : Math.min(linked - next, 2 + Math.floor(random() * 5));
    const addresses: string[] = [];
    let cursor = start + random() * 600_000;
    for (let position = 0; position < size; position++) {
      const value = address(next + position, 1);
      addresses.push(value);
      const lifetime = 60_000 + random() * 600_000;
      output.address_classification.push({ address: value, type: 'rpa', confidence: 0.7 + random() * 0.3, evidence: ['Resolvable private bit pattern detected'] });
      output.timeline_segments.push({ address: value, start_ts: iso(cursor), end_ts: iso(cursor + lifetime), activity_score: random() });
      cursor += lifetime + 1000 + random() * 30_000;
    }
    const matrix: number[][] = addresses.map((_, row) => addresses.map((__, column) => (row === column ? 1 : 0)));
    for (let row = 0; row < size; row++) {
      for (let column = row + 1; column < size; column++) {
        const value = Math.round((0.5 + random() * 0.5) * 100) / 100;
        matrix[row][column] = value;
        matrix[column][row] = value;
      }
    }
    const link: ProbabilisticLink = {
      cluster_id: `cluster_rpa_${String(output.probabilistic_links.length).padStart(3, '0')}`,
      addresses,
      pairwise_probability_matrix: matrix,
      rationale: ['Sequential non-overlapping activity windows consistent with RPA rotation'],
    };
    output.probabilistic_links.push(link);
    next += size;
  }
  for (let index = 0; index < standalone; index++) {
    const value = address(linked + index, 0);
    const begin = start + random() * 1_700_000;
    output.address_classification.push({ address: value, type: 'nrpa', confidence: 0.6 + random() * 0.4, evidence: ['Non-resolvable private bit pattern'] });
    output.timeline_segments.push({ address: value, start_ts: iso(begin), end_ts: iso(begin + random() * 100_000), activity_score: random() });
  }
  return output;
}
