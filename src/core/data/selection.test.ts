import { describe, expect, it } from 'vitest';
import type { CaptureInfo } from './capture.ts';
import { normalizeCaptureSelection, readCaptureSelection, selectedCaptureIds, selectionOfInvocation, selectionRowFilter } from './selection.ts';

const info: CaptureInfo = {
  id: 'cap',
  description: '',
  source: 'test',
  rowCount: 0,
  columns: [
    { name: 'ts_ms', kind: 'number' },
    { name: 'channel', kind: 'number' },
    { name: 'rssi', kind: 'number' },
  ],
  timeColumn: 'ts_ms',
  channelColumn: 'channel',
  channels: ['37', '38'],
  bounds: { start_ms: 0, end_ms: 100 },
  boundsSource: 'declared',
  timeOrigin: null,
};

describe('readCaptureSelection: both selection shapes, one reader', () => {
  it('reads the generic and the BLE shape of the same selection into the same captures and rows', () => {
    const generic = readCaptureSelection({ capture_id: 'cap', selectors: { time_range: { start_ms: 1, end_ms: 9 }, filters: ['rssi > -90'] } })!;
    const ble = readCaptureSelection({ capture_ids: ['cap'], time_window: { start_ms: 1, end_ms: 9 }, filter_expression: 'rssi > -90' })!;
    expect(selectedCaptureIds(generic)).toEqual(['cap']);
    expect(selectedCaptureIds(ble)).toEqual(['cap']);
    expect(selectionRowFilter(generic, info)).toBe('("ts_ms" BETWEEN 1 AND 9) AND (rssi > -90)');
    expect(selectionRowFilter(ble, info)).toBe(selectionRowFilter(generic, info));
  });

  it('writes channels in the filter language and keeps every row of an empty selection', () => {
    const channels = readCaptureSelection({ capture_id: 'cap', selectors: { channels: ['37'] } })!;
    expect(selectionRowFilter(channels, info)).toBe('("channel" IN (37))');
    expect(selectionRowFilter(readCaptureSelection({ capture_id: 'cap', selectors: {} })!, info)).toBe('');
  });

  it('agrees with the strict normalizer on every value it accepts, and leaves out parts of the wrong type', () => {
    const value = { capture_ids: ['a', 'b'], time_window: { start_ms: 0, end_ms: 5 } };
    const strict = normalizeCaptureSelection(value);
    expect(strict.ok && strict.value).toEqual(readCaptureSelection(value));
    expect(readCaptureSelection({ capture_ids: ['a', 3], time_window: 'soon' })).toMatchObject({ captures: [{ id: 'a' }], timeRange: null });
    expect(readCaptureSelection('x')).toBeNull();
    expect(selectionOfInvocation({ tool_name: 't' })).toBeNull();
    expect(selectionOfInvocation({ capture_selection: { capture_id: 'z' } })?.captures).toEqual([{ id: 'z', field: 'capture_selection.capture_id' }]);
  });
});
