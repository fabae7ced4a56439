import type { RecordBatch } from 'apache-arrow';
import { BleCellReader, type BleEntryTexts } from './column-access.ts';

/** The AD features of one payload signature, read once from the first row that carried it (its text: BleObservationStore.payloadSignature). */
export interface BlePayloadFeatures {
  companyId: number;
  manufacturerData: string;
  serviceUuids: string;
  txPower: number;
  localName: string;
  appearance: number;
  serviceDataUuid: string;
  /** Structure of the payload without its rotating content: what "same vendor and model" shares. */
  template: string;
}

/** The AD columns of one batch, looked up and prepared once (a column lookup makes a new Vector each time). */
export class BlePayloadColumns {
  readonly companyId: BleCellReader;
  readonly manufacturerData: BleCellReader;
  readonly serviceUuids: BleCellReader;
  readonly txPower: BleCellReader;
  readonly localName: BleCellReader;
  readonly appearance: BleCellReader;
  readonly serviceDataUuid: BleCellReader;

  /** `entries`: decoded dictionary entries shared with the other batches of the scan. */
  constructor(batch: RecordBatch, entries?: BleEntryTexts) {
    const reader = (name: string) => new BleCellReader(batch.getChild(name) ?? undefined, entries);
    this.companyId = reader('company_id');
    this.manufacturerData = reader('manufacturer_data');
    this.serviceUuids = reader('service_uuids');
    this.txPower = reader('tx_power');
    this.localName = reader('local_name');
    this.appearance = reader('appearance');
    this.serviceDataUuid = reader('service_data_uuid');
  }
}

/** The AD features of the payload at `row`: all are functions of the AD bytes, hence of the signature. */
export function readPayloadFeatures(columns: BlePayloadColumns, row: number): BlePayloadFeatures {
  const companyId = columns.companyId.number(row);
  const manufacturerData = columns.manufacturerData.text(row);
  const serviceUuids = columns.serviceUuids.listText(row);
  const txPower = columns.txPower.number(row);
  const localName = columns.localName.text(row);
  const appearance = columns.appearance.number(row);
  const serviceDataUuid = columns.serviceDataUuid.text(row);
  // Rotating tokens change the bytes of manufacturer data but not its length or its first
  // octet (the vendor's message type, e.g. Apple's 0x10 Nearby Info): the template keeps those.
  // Concatenated rather than an array joined: one of these per payload read, thousands per analysis.
  const template = `${Number.isNaN(companyId) ? '' : companyId}|${manufacturerData.length / 2}|${manufacturerData.slice(0, 2)}|${serviceUuids}|${serviceDataUuid}|${Number.isNaN(txPower) ? '' : txPower}|${Number.isNaN(appearance) ? '' : appearance}|${localName}`;
  return { companyId, manufacturerData, serviceUuids, txPower, localName, appearance, serviceDataUuid, template };
}
