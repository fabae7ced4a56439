import { Bool, Dictionary, Float64, Int32, Int8, Table, Uint8, Utf8, vectorFromArray } from 'apache-arrow';
import type { SelectedData } from '../../../data/selection-types.ts';
import type { BleAnalysisOptions } from './analysis-types.ts';

/** Every row of a table selected, one entry per record batch (for tests and benchmarks). */
export function selectAllRows(captureId: string, table: Table): SelectedData {
  const batches = table.batches.map((batch) => {
    const mask = new Uint8Array(batch.numRows).fill(1);
    return { captureId, batch, mask, selectedCount: batch.numRows };
  });
  return { batches, rowCount: table.numRows };
}

/**
 * The analysis options the tests and the bench start from (both modes, a 180 s window, at least
 * 25 packets, the specification's rotation model, the normalized address columns), with
 * `overrides` in place of any of them.
 */
export function bleAnalysisOptions(overrides: Partial<BleAnalysisOptions> = {}): BleAnalysisOptions {
  return {
    mode: 'both',
    linkageWindowS: 180,
    minObservationCount: 25,
    rotationModel: 'spec_default',
    addressColumns: { advertiser: 'advertiser_addr', initiator: 'initiator_addr', scanner: 'scanner_addr' },
    ...overrides,
  };
}

/** One hand-written advertising record for tests. */
export interface BleTestRow {
  ts: number;
  addr: string;
  /** Default 1 (random). */
  txAdd?: number;
  rssi?: number;
  receiver?: string;
  payload?: string;
  crcOk?: boolean;
  advType?: string;
  scanner?: string;
  initiator?: string;
  rxAdd?: number;
}

/** A normalized BLE table (the columns the analyzer reads) from hand-written rows. */
export function bleTestTable(rows: ReadonlyArray<BleTestRow>): Table {
  const dict = () => new Dictionary(new Utf8(), new Int32());
  const table = new Table({
    ts_ms: vectorFromArray(rows.map((row) => row.ts), new Float64()),
    receiver: vectorFromArray(rows.map((row) => row.receiver ?? 'rx-1'), dict()),
    rssi: vectorFromArray(rows.map((row) => row.rssi ?? -60), new Int8()),
    adv_type: vectorFromArray(rows.map((row) => row.advType ?? 'ADV_IND'), dict()),
    tx_add: vectorFromArray(rows.map((row) => row.txAdd ?? 1), new Uint8()),
    rx_add: vectorFromArray(rows.map((row) => row.rxAdd ?? null), new Uint8()),
    advertiser_addr: vectorFromArray(rows.map((row) => row.addr), dict()),
    initiator_addr: vectorFromArray(rows.map((row) => row.initiator ?? null), dict()),
    scanner_addr: vectorFromArray(rows.map((row) => row.scanner ?? null), dict()),
    payload_signature: vectorFromArray(rows.map((row) => row.payload ?? null), dict()),
    crc_ok: vectorFromArray(rows.map((row) => row.crcOk ?? true), new Bool()),
  });
  return table;
}

/** Packets of one address every `everyMs` from `fromMs` to `toMs` (inclusive of the start). */
export function bleTestStream(addr: string, fromMs: number, toMs: number, everyMs: number, extra: Partial<BleTestRow> = {}): BleTestRow[] {
  const rows: BleTestRow[] = [];
  for (let ts = fromMs; ts <= toMs; ts += everyMs) rows.push({ ts, addr, ...extra });
  return rows;
}
