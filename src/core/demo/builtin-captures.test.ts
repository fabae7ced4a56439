import { describe, expect, it } from 'vitest';
import { BLE_RECORD_COLUMNS } from '../data/ble/record-writer.ts';
import { CaptureCatalog } from '../data/catalog.ts';
import { checkSelection, normalizeCaptureSelection } from '../data/selection.ts';
import { stringColumn } from '../data/columns.ts';
import { bleExampleInvocation } from '../examples/spec-examples.ts';
import { DEFAULT_EXECUTOR_SETTINGS, validateInvocation } from '../executor/validate-invocation.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { BLE_DEMO_CAPTURE_IDS, BLE_DEMO_RECEIVERS, BLE_DEMO_ROTATION, BLE_DEMO_SPAN, bleLabFloorScenario } from './ble-scenario/lab-floor-captures.ts';
import { builtinCaptures } from './builtin-captures.ts';
import { TELEMETRY_CAPTURE_ID } from './telemetry-capture.ts';

describe('builtinCaptures', () => {
  const captures = builtinCaptures();
  const byId = new Map(captures.map((capture) => [capture.info.id, capture]));

  it('has the telemetry capture and both BLE lab-floor captures', () => {
    expect(captures.map((capture) => capture.info.id)).toEqual([TELEMETRY_CAPTURE_ID, ...BLE_DEMO_CAPTURE_IDS]);
  });

  it.each(BLE_DEMO_CAPTURE_IDS.map((id, index) => [id, BLE_DEMO_RECEIVERS[index]]))('%s has the normalized BLE schema, the declared span and receiver %s', (id, receiver) => {
    const capture = byId.get(id)!;
    expect(capture.table.schema.fields.map((field) => [field.name, String(field.type)])).toEqual(BLE_RECORD_COLUMNS.map((column) => [column.name, String(column.type())]));
    expect(capture.info.bounds).toEqual(BLE_DEMO_SPAN);
    expect(capture.info.boundsSource).toBe('declared');
    expect(capture.info.timeColumn).toBe('ts_ms');
    expect(capture.info.channelColumn).toBe('channel');
    expect(capture.info.channels).toEqual(['37', '38', '39']);
    expect(capture.info.rowCount).toBeGreaterThan(1500);
    expect(capture.info.rowCount).toBeLessThan(3000);
    const receivers = new Set(capture.table.batches.flatMap((batch) => stringColumn(batch, 'receiver')));
    expect([...receivers]).toEqual([receiver]);
    const ids = new Set(capture.table.batches.flatMap((batch) => stringColumn(batch, 'capture_id')));
    expect([...ids]).toEqual([id]);
  });

  it('validates the verbatim §7.4 invocation against the demo captures', () => {
    const catalog = new CaptureCatalog(captures);
    const selection = normalizeCaptureSelection(bleExampleInvocation.capture_selection);
    expect(selection.ok).toBe(true);
    if (selection.ok) expect(checkSelection(selection.value, catalog)).toEqual([]);
    const registry = new ToolRegistry(builtinTools());
    const outcome = validateInvocation(bleExampleInvocation, { registry, catalog, settings: DEFAULT_EXECUTOR_SETTINGS });
    if (registry.latest(bleExampleInvocation.tool_name)) {
      expect(outcome).toMatchObject({ ok: true });
    } else {
      // Until the analyzer tool is installed, the tool name is the only problem.
      expect(outcome.ok ? [] : outcome.errors.map((error) => error.code)).toEqual(['UNKNOWN_TOOL']);
    }
  });

  it('contains the rotating wearable with its three RPAs and hand-offs near 08:01 and 08:16', () => {
    const { truth } = bleLabFloorScenario();
    expect(truth.rotations.map((rotation) => [rotation.from, rotation.to, rotation.at_ms])).toEqual([
      [BLE_DEMO_ROTATION.addresses[0], BLE_DEMO_ROTATION.addresses[1], BLE_DEMO_ROTATION.handoffsMs[0]],
      [BLE_DEMO_ROTATION.addresses[1], BLE_DEMO_ROTATION.addresses[2], BLE_DEMO_ROTATION.handoffsMs[1]],
    ]);
    const wearable = truth.addresses.filter((address) => BLE_DEMO_ROTATION.addresses.some((text) => text === address.address));
    expect(wearable.every((address) => address.type === 'rpa' && address.observations_crc_ok >= 40)).toBe(true);
    const standalone = truth.addresses.filter((address) => !wearable.includes(address));
    expect(standalone.length).toBe(40);
    expect(new Set(standalone.map((address) => address.type))).toEqual(new Set(['public', 'random_static', 'rpa', 'nrpa']));
    expect(standalone.filter((address) => address.observations_crc_ok < 25).length).toBeGreaterThanOrEqual(10);
    expect(truth.counts.observations).toBeGreaterThan(3500);
    expect(truth.counts.observations).toBeLessThan(5000);
  });

  it('keeps most RSSI above −92 dBm and the wearable’s payload stable', () => {
    let above = 0;
    let total = 0;
    const signatures = new Set<string | null>();
    for (const id of BLE_DEMO_CAPTURE_IDS) {
      for (const batch of byId.get(id)!.table.batches) {
        const rssi = batch.getChild('rssi')!.toArray() as Int8Array;
        const addresses = stringColumn(batch, 'advertiser_addr');
        const crc = batch.getChild('crc_ok')!;
        const payload = stringColumn(batch, 'payload_signature');
        for (let row = 0; row < batch.numRows; row++) {
          total++;
          if (rssi[row] > -92) above++;
          if (crc.get(row) === true && BLE_DEMO_ROTATION.addresses.some((text) => text === addresses[row])) signatures.add(payload[row]);
        }
      }
    }
    expect(above / total).toBeGreaterThan(0.9);
    expect(signatures.size).toBe(1);
  });

  it('is deterministic', () => {
    const again = builtinCaptures();
    for (const id of BLE_DEMO_CAPTURE_IDS) {
      const before = byId.get(id)!.table;
      const after = again.find((capture) => capture.info.id === id)!.table;
      expect(after.numRows).toBe(before.numRows);
      expect(Array.from(after.getChild('ts_ms')!.toArray() as Float64Array)).toEqual(Array.from(before.getChild('ts_ms')!.toArray() as Float64Array));
      expect(stringColumn(after.batches[0], 'advertiser_addr')).toEqual(stringColumn(before.batches[0], 'advertiser_addr'));
    }
  });
});
