import type { RecordBatch } from 'apache-arrow';
import { BleCellReader, type BleEntryTexts } from './column-access.ts';
import { templateText, type BlePayloadTemplates } from './payload-templates.ts';

/** The AD features of one payload signature, read once from the first row that carried it (its text: BleObservationStore.payloadSignature). */
export interface BlePayloadFeatures {
  companyId: number;
  manufacturerData: string;
  serviceUuids: string;
  txPower: number;
  localName: string;
  appearance: number;
  serviceDataUuid: string;
  /**
   * Bytes after the UUID of the first Service Data structure, lower-case hex (the `service_data`
   * column; empty when absent). Optional: only the trackers/ stage reads it.
   */
  serviceData?: string;
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
  readonly serviceData: BleCellReader;

  /**
   * `entries` and `templates`: decoded dictionary entries and AD templates shared with the other
   * batches of the scan.
   */
  constructor(
    batch: RecordBatch,
    entries?: BleEntryTexts,
    readonly templates?: BlePayloadTemplates,
  ) {
    const reader = (name: string) => new BleCellReader(batch.getChild(name) ?? undefined, entries);
    this.companyId = reader('company_id');
    this.manufacturerData = reader('manufacturer_data');
    this.serviceUuids = reader('service_uuids');
    this.txPower = reader('tx_power');
    this.localName = reader('local_name');
    this.appearance = reader('appearance');
    this.serviceDataUuid = reader('service_data_uuid');
    this.serviceData = reader('service_data');
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
  const serviceData = columns.serviceData.text(row);
  const template = columns.templates
    ? columns.templates.template(companyId, manufacturerData, serviceUuids, serviceDataUuid, txPower, appearance, localName)
    : templateText(companyId, manufacturerData, serviceUuids, serviceDataUuid, txPower, appearance, localName);
  return { companyId, manufacturerData, serviceUuids, txPower, localName, appearance, serviceDataUuid, serviceData, template };
}
