import { describe, expect, it } from 'vitest';
import { BLE_RECORD_COLUMNS, builtinCaptures, builtinTools, type CaptureInfo } from '../../../core/index.ts';
import { invocationForCapture, toolForCapture } from './capture-invocation.ts';
import { formProblems } from './form-model.ts';

const manifests = builtinTools().map((tool) => tool.manifest);

const bleCapture: CaptureInfo = {
  id: 'tesi_ble_nrf_capture',
  description: '',
  // A name that says nothing about BLE: the columns decide.
  source: 'capture.bin',
  rowCount: 14_843,
  columns: BLE_RECORD_COLUMNS.map((column) => ({ name: column.name, kind: column.name === 'ts_ms' || column.name === 'rssi' ? 'number' : 'string' })),
  timeColumn: 'ts_ms',
  channelColumn: 'channel',
  channels: ['37', '38', '39'],
  bounds: { start_ms: 1755939535722, end_ms: 1755939660722 },
  boundsSource: 'declared',
  timeOrigin: null,
};

describe('Use in a tool', () => {
  it('opens the BLE analyzer for a capture of BLE records, with the capture, its bounds and its columns selected, ready to run', () => {
    const invocation = invocationForCapture(bleCapture, "adv_type = 'ADV_IND'", 'req-1');
    expect(invocation).toMatchObject({
      tool_name: 'bluetooth_address_analyzer',
      capture_selection: { capture_ids: ['tesi_ble_nrf_capture'], time_window: { start_ms: 1755939535722, end_ms: 1755939660722 }, filter_expression: "adv_type = 'ADV_IND'" },
      arguments: {
        address_columns: { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr', scanner_addr: 'scanner_addr' },
        analysis_mode: 'both',
        linkage_window_s: 180,
        min_observation_count: 25,
        rpa_rotation_model: 'spec_default',
      },
    });
    const manifest = manifests.find((candidate) => candidate.name === 'bluetooth_address_analyzer');
    expect(formProblems(invocation, manifest, [bleCapture])).toEqual([]);
  });

  it('opens the regression tool for numeric captures (the demo captures without BLE address columns)', () => {
    const numeric = builtinCaptures().map((capture) => capture.info).find((info) => !info.columns.some((column) => column.name === 'initiator_addr'))!;
    expect(toolForCapture(numeric).name).toBe('statistical_regression_tool');
    const invocation = invocationForCapture(numeric, '', 'req-2');
    expect(invocation.capture_selection).toEqual({ capture_id: numeric.id, selectors: { time_range: numeric.bounds } });
    expect(invocation.arguments).toEqual({ operation: 'summary_stats' });
  });
});
