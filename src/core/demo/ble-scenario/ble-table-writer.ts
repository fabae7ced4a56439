/**
 * Writes rendered observations into the normalized BLE record table through the importer's own
 * record writer, so a generated capture has exactly the importer's columns, Arrow types,
 * dictionaries and AD parsing (docs/capture-schema.md) — and the same payload signatures an
 * imported capture of the same packets would have.
 */
import type { Table } from 'apache-arrow';
import { CAPTURE_METADATA } from '../../data/capture.ts';
import { BLE_METADATA, BLE_RECORDS_FORMAT } from '../../data/ble/ble-importer.ts';
import { RecordWriter } from '../../data/ble/record-writer.ts';
import type { BleObservations } from './ble-render.ts';
import type { BleScenarioPlan } from './ble-plan-types.ts';

/** Schema metadata key with the generator's parameters (JSON), on generated captures only. */
export const BLE_GENERATOR_METADATA = 'sextant.generator';

export interface BleCaptureSpec {
  captureId: string;
  /** Receivers (indices into the plan's receivers) whose rows go into this capture. */
  receivers: number[];
  description: string;
  source: string;
  /** JSON written under `sextant.generator`. */
  generator: string;
}

/** Rows of the given receivers in time order (ties keep receiver-then-render order: stable sort). */
function rowsInTimeOrder(observations: BleObservations, receivers: ReadonlySet<number>): Uint32Array {
  let count = 0;
  for (let row = 0; row < observations.count; row++) if (receivers.has(observations.receiver[row])) count++;
  const rows = new Uint32Array(count);
  let at = 0;
  for (let row = 0; row < observations.count; row++) if (receivers.has(observations.receiver[row])) rows[at++] = row;
  const ts = observations.tsMs;
  return rows.sort((a, b) => ts[a] - ts[b] || a - b);
}

/** One capture's Arrow table. */
export function writeBleCaptureTable(plan: BleScenarioPlan, observations: BleObservations, spec: BleCaptureSpec): Table {
  const writer = new RecordWriter();
  const receiverCodes = plan.receivers.map((receiver, index) => (spec.receivers.includes(index) ? writer.receiverIndex(receiver.name) : -1));
  const rows = rowsInTimeOrder(observations, new Set(spec.receivers));
  const address = new Uint8Array(6);
  const payloadScratch = new Uint8Array(64);
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at];
    const rendered = observations.addresses[observations.address[row]];
    const generated = rendered.epoch.address;
    const txAdd = generated.type === 'public' ? 0 : 1;
    writer.begin(observations.tsMs[row], receiverCodes[observations.receiver[row]], at + 1);
    writer.setChannel(observations.channel[row]);
    writer.setRssi(observations.rssi[row]);
    writer.setCrcOk(observations.crcBad[row] === 0);
    writer.setAdvType(observations.advType[row], true);
    writer.setTxAdd(txAdd);
    address.set(generated.air);
    const flip = observations.addressFlip[row];
    if (flip >= 0) address[flip >> 3] ^= 1 << (flip & 7);
    const flip2 = observations.addressFlip2[row];
    if (flip2 >= 0) address[flip2 >> 3] ^= 1 << (flip2 & 7);
    writer.setAdvertiser(address, 0, txAdd);
    let payload = plan.payloads[observations.payload[row]];
    const payloadFlip = observations.payloadFlip[row];
    if (payloadFlip >= 0) {
      payloadScratch.set(payload);
      payloadScratch[payloadFlip >> 3] ^= 1 << (payloadFlip & 7);
      payload = payloadScratch.subarray(0, payload.length);
    }
    writer.setAdData(payload, 0, payload.length);
    writer.end();
  }
  const metadata = new Map<string, string>([
    [CAPTURE_METADATA.captureId, spec.captureId],
    [CAPTURE_METADATA.source, spec.source],
    [CAPTURE_METADATA.description, spec.description],
    [CAPTURE_METADATA.timeColumn, 'ts_ms'],
    [CAPTURE_METADATA.channelColumn, 'channel'],
    [CAPTURE_METADATA.declaredStartMs, String(plan.startMs)],
    [CAPTURE_METADATA.declaredEndMs, String(plan.endMs)],
    [BLE_METADATA.format, BLE_RECORDS_FORMAT],
    [BLE_GENERATOR_METADATA, spec.generator],
  ]);
  return writer.toTable(spec.captureId, metadata);
}
