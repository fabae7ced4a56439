import { describe, expect, it } from 'vitest';
import fixture from './__fixtures__/lab-floor-output.json' with { type: 'json' };
import { isBleAnalyzerOutput, type BleAnalyzerOutput } from './ble-output.ts';
import { activityByAddress, classificationRows, clusterIndexByAddress, handOffs, probabilityRange, swimlanes, travelSentence } from './view-model.ts';

const output = fixture as BleAnalyzerOutput;
const at = (clock: string) => Date.parse(`2024-04-03T${clock}Z`);

describe('view model on the hand-shaped fixture', () => {
  it('is an analyzer output and knows each linked address’s cluster', () => {
    expect(isBleAnalyzerOutput(output)).toBe(true);
    expect(isBleAnalyzerOutput({ address_classification: [] })).toBe(false);
    const clusterOf = clusterIndexByAddress(output.probabilistic_links);
    expect(clusterOf.size).toBe(9);
    expect(clusterOf.get('61:D2:88:3C:A4:19')).toBe(0);
    expect(clusterOf.get('48:F2:6B:0D:91:A7')).toBe(3);
    expect(clusterOf.has('4E:91:B2:6A:77:03')).toBe(false);
  });

  it('marks hand-offs from the end of one address to the start of the next, per cluster', () => {
    const { activity, offsetMinutes, extent, unparsed } = activityByAddress(output);
    expect(unparsed).toBe(0);
    expect(offsetMinutes).toBe(0);
    expect(extent).toEqual({ startMs: at('08:00:00'), endMs: at('08:30:00') });
    const marks = handOffs(output.probabilistic_links, activity);
    expect(marks.filter((mark) => mark.clusterIndex === 0)).toEqual([
      { clusterIndex: 0, from: '7A:4C:21:9D:10:EF', to: '61:D2:88:3C:A4:19', fromEndMs: at('08:10:20'), toStartMs: at('08:10:23') },
      { clusterIndex: 0, from: '61:D2:88:3C:A4:19', to: '5F:09:2A:7E:CD:44', fromEndMs: at('08:19:50'), toStartMs: at('08:19:54') },
    ]);
    // 6C:88 has two segments; the hand-off leaves from the end of the later one.
    expect(marks.find((mark) => mark.from === '6C:88:19:F4:03:2E')).toMatchObject({ fromEndMs: at('08:11:12'), toStartMs: at('08:11:30') });
    expect(marks).toHaveLength(5);
  });

  it('puts each cluster’s lanes together in time order, then the rest by first activity', () => {
    const { activity } = activityByAddress(output);
    const lanes = swimlanes(output.probabilistic_links, activity);
    expect(lanes).toHaveLength(41);
    expect(lanes.slice(0, 3).map((lane) => lane.address)).toEqual(['7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19', '5F:09:2A:7E:CD:44']);
    expect(lanes.slice(0, 9).every((lane) => lane.clusterIndex !== null)).toBe(true);
    expect(lanes[9]).toEqual({ address: '4E:91:B2:6A:77:03', clusterIndex: null });
    const rest = lanes.slice(9).map((lane) => activity.get(lane.address)!.firstMs);
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
  });

  it('filters by address (with or without colons), evidence and type, and sorts stably', () => {
    const clusterOf = clusterIndexByAddress(output.probabilistic_links);
    const rows = output.address_classification;
    const byConfidence = classificationRows(rows, { text: '', type: 'all' }, { key: 'confidence', direction: 'descending' }, clusterOf);
    expect(byConfidence[0]).toMatchObject({ address: '4E:91:B2:6A:77:03', confidence: 0.98 });
    expect(byConfidence.map((row) => row.confidence)).toEqual([...rows.map((row) => row.confidence)].sort((a, b) => b - a));
    expect(classificationRows(rows, { text: '7a4c21', type: 'all' }, { key: 'address', direction: 'ascending' }, clusterOf).map((row) => row.address)).toEqual(['7A:4C:21:9D:10:EF']);
    expect(classificationRows(rows, { text: 'min_observation', type: 'all' }, { key: 'address', direction: 'ascending' }, clusterOf)).toHaveLength(5);
    expect(classificationRows(rows, { text: '', type: 'random_static' }, { key: 'address', direction: 'ascending' }, clusterOf)).toHaveLength(5);
    const byCluster = classificationRows(rows, { text: '', type: 'all' }, { key: 'cluster', direction: 'ascending' }, clusterOf);
    expect(byCluster.slice(0, 3).map((row) => row.address)).toEqual(['7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19', '5F:09:2A:7E:CD:44']);
    expect(clusterOf.has(byCluster[9].address)).toBe(false);
  });

  it('reports the off-diagonal probability range of a cluster', () => {
    expect(probabilityRange(output.probabilistic_links[0])).toEqual({ min: 0.86, max: 0.91 });
    expect(probabilityRange({ cluster_id: 'x', addresses: ['a'], pairwise_probability_matrix: [[1]], rationale: [] })).toBeNull();
  });
});

describe('multi-set clusters and the travelled-together relation (1.1.0)', () => {
  const segment = (address: string, start: string, end: string) => ({ address, start_ts: `2024-04-03T08:${start}Z`, end_ts: `2024-04-03T08:${end}Z`, activity_score: 0.5 });
  const output: BleAnalyzerOutput = {
    address_classification: [],
    probabilistic_links: [
      {
        cluster_id: 'cluster_rpa_41',
        addresses: ['41:00:00:00:00:01', '51:00:00:00:00:01', '42:00:00:00:00:02', '52:00:00:00:00:02'],
        pairwise_probability_matrix: [
          [1, 0.9, 0.8, 0.7],
          [0.9, 1, 0.7, 0.8],
          [0.8, 0.7, 1, 0.9],
          [0.7, 0.8, 0.9, 1],
        ],
        rationale: [],
        parallel_chains: [
          ['41:00:00:00:00:01', '51:00:00:00:00:01'],
          ['42:00:00:00:00:02', '52:00:00:00:00:02'],
        ],
      },
    ],
    timeline_segments: [
      segment('41:00:00:00:00:01', '00:00', '10:00'),
      segment('42:00:00:00:00:02', '00:30', '12:00'),
      segment('51:00:00:00:00:01', '10:01', '20:00'),
      segment('52:00:00:00:00:02', '12:01', '20:00'),
    ],
  };

  it('lays out each parallel chain on its own lanes and hands off only along a chain', () => {
    const { activity } = activityByAddress(output);
    const lanes = swimlanes(output.probabilistic_links, activity);
    expect(lanes.map((lane) => [lane.address, lane.chainIndex])).toEqual([
      ['41:00:00:00:00:01', 0],
      ['51:00:00:00:00:01', 0],
      ['42:00:00:00:00:02', 1],
      ['52:00:00:00:00:02', 1],
    ]);
    const transitions = handOffs(output.probabilistic_links, activity);
    expect(transitions.map((handOff) => `${handOff.from}→${handOff.to}`)).toEqual(['41:00:00:00:00:01→51:00:00:00:00:01', '42:00:00:00:00:02→52:00:00:00:00:02']);
  });

  it('says who moved with whom and for how long', () => {
    const row = {
      addresses_a: ['41:00:00:00:00:01'],
      addresses_b: ['61:00:00:00:00:03', '71:00:00:00:00:03'],
      cluster_a: 'cluster_rpa_41',
      cluster_b: 'cluster_rpa_61',
      probability: 0.93,
      start_ts: '2024-04-03T08:00:00Z',
      end_ts: '2024-04-03T08:40:00Z',
      duration_s: 2400,
      rationale: [],
    };
    expect(travelSentence(row)).toBe('cluster_rpa_61 moved with cluster_rpa_41 for 40 minutes');
    expect(travelSentence({ ...row, cluster_a: undefined, cluster_b: undefined, duration_s: 45 })).toBe('61:00:00:00:00:03 (+1) moved with 41:00:00:00:00:01 for 45 seconds');
  });
});
