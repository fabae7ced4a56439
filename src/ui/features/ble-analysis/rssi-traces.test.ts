import { describe, expect, it } from 'vitest';
import { bleExampleInvocation, type CaptureInfo, type CellValue } from '../../../core/index.ts';
import { addressFilter, addTraceRows, clusterPacketFilter, findInvocation, quoteFilterString, selectionOf, thinPoints, traceColumns, type ReceiverTraces } from './rssi-traces.ts';

const info: CaptureInfo = {
  id: 'lab_floor_2026_04_03_a',
  description: '',
  source: 'built-in demo',
  rowCount: 4,
  columns: [
    { name: 'ts_ms', kind: 'number' },
    { name: 'receiver', kind: 'string' },
    { name: 'rssi', kind: 'number' },
    { name: 'advertiser_addr', kind: 'string' },
  ],
  timeColumn: 'ts_ms',
  channelColumn: null,
  channels: [],
  bounds: { start_ms: 0, end_ms: 1 },
  boundsSource: 'declared',
  timeOrigin: null,
};

describe('packet filters', () => {
  it('quotes string literals the way the filter language reads them', () => {
    expect(quoteFilterString("it's")).toBe("'it''s'");
    expect(addressFilter(['7A:4C:21:9D:10:EF'])).toBe("advertiser_addr = '7A:4C:21:9D:10:EF'");
    expect(addressFilter(['A', 'B'], 'adv')).toBe("adv IN ('A', 'B')");
  });

  it('reads the selection of the §7.4 invocation and keeps its filter and window', () => {
    const selection = selectionOf(bleExampleInvocation)!;
    expect(selection.captureIds).toEqual(['lab_floor_2026_04_03_a', 'lab_floor_2026_04_03_b']);
    expect(selection.addressColumn).toBe('advertiser_addr');
    expect(clusterPacketFilter(['A', 'B'], selection, info)).toBe(
      'advertiser_addr IN (\'A\', \'B\') AND ("ts_ms" BETWEEN 1712131200000 AND 1712133000000) AND (channel IN (37,38,39) AND rssi > -92)',
    );
    expect(selectionOf({ capture_selection: { capture_ids: [] } })).toBeNull();
    expect(selectionOf('not an invocation')).toBeNull();
  });

  it('reads the generic selection shape the form and "Use in a tool" write, with the same rows', () => {
    const generic = selectionOf({
      capture_selection: { capture_id: 'lab_floor_2026_04_03_a', selectors: { time_range: { start_ms: 5, end_ms: 9 }, filters: ['rssi > -92'] } },
      arguments: { address_columns: { advertiser_addr: 'adv', initiator_addr: 'initiator_addr' } },
    })!;
    expect(generic.captureIds).toEqual(['lab_floor_2026_04_03_a']);
    expect(generic.addressColumn).toBe('adv');
    expect(clusterPacketFilter(['A'], generic, info)).toBe('adv = \'A\' AND ("ts_ms" BETWEEN 5 AND 9) AND (rssi > -92)');
    const whole = selectionOf({ capture_selection: { capture_id: 'x', selectors: {} } })!;
    expect(clusterPacketFilter(['A'], whole, info)).toBe("advertiser_addr = 'A'");
  });

  it('finds the invocation of a result in a single run or a plan', () => {
    expect(findInvocation(bleExampleInvocation, 'req-bt-71ac9d11')).toBe(bleExampleInvocation);
    const plan = [{ request_id: 'a' }, bleExampleInvocation];
    expect(findInvocation(plan, 'req-bt-71ac9d11')).toBe(bleExampleInvocation);
    expect(findInvocation(plan, 'nope')).toBeUndefined();
  });
});

describe('traces', () => {
  it('groups rows per receiver and address, naming the capture when there is no receiver', () => {
    const columns = traceColumns(info, 'advertiser_addr')!;
    expect(columns).toEqual({ time: 0, rssi: 2, address: 3, receiver: 1 });
    const rows: CellValue[][] = [
      [1000, 'rx-north-2', -60, 'A'],
      [2000, 'rx-north-2', -62, 'B'],
      [3000, null, -70, 'A'],
      [4000, 'rx-north-2', null, 'A'],
    ];
    const traces = new Map<string, ReceiverTraces>();
    addTraceRows(traces, rows, columns, 'cap-a');
    expect(traces.get('rx-north-2')?.packets).toBe(2);
    expect(traces.get('rx-north-2')?.byAddress.get('B')).toEqual([{ t: 2000, rssi: -62 }]);
    expect(traces.get('cap-a')?.byAddress.get('A')).toEqual([{ t: 3000, rssi: -70 }]);
    expect(traceColumns({ ...info, columns: info.columns.filter((column) => column.name !== 'rssi') }, 'advertiser_addr')).toBeNull();
  });

  it('thins long traces evenly, keeping both ends', () => {
    const points = Array.from({ length: 1001 }, (_, index) => ({ t: index, rssi: -50 }));
    const thin = thinPoints(points, 11);
    expect(thin.map((point) => point.t)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(thinPoints(points.slice(0, 5), 11)).toHaveLength(5);
  });
});
