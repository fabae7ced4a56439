/**
 * Wireshark display-filter field names for the BLE fields people type, and what each is in the
 * normalized record table (docs/capture-schema.md). A field with a column is an alias; a field
 * whose meaning differs (units, numbering) is answered with the Sextant way to say it.
 */
import { ADV_TYPE_NAMES } from '../ble/adv-types.ts';

export type WiresharkField =
  /** Same meaning as the column; `pduTypeNames`: numbers compared with it are LL PDU type codes. */
  | { column: string; pduTypeNames?: boolean }
  /** No column means the same: the sentence says what to write instead. */
  | { answer: string };

export const WIRESHARK_FIELDS: ReadonlyMap<string, WiresharkField> = new Map<string, WiresharkField>([
  ['btle.advertising_address', { column: 'advertiser_addr' }],
  ['btle.scanning_address', { column: 'scanner_addr' }],
  ['btle.initiator_address', { column: 'initiator_addr' }],
  ['btle.advertising_header.pdu_type', { column: 'adv_type', pduTypeNames: true }],
  ['btle.advertising_header.randomized_tx', { column: 'tx_add' }],
  ['btle.advertising_header.randomized_rx', { column: 'rx_add' }],
  ['btcommon.eir_ad.entry.company_id', { column: 'company_id' }],
  ['btcommon.eir_ad.entry.device_name', { column: 'local_name' }],
  ['btcommon.eir_ad.entry.power_level', { column: 'tx_power' }],
  ['btcommon.eir_ad.entry.appearance', { column: 'appearance' }],
  ['nordic_ble.rssi', { column: 'rssi' }],
  ['btle_rf.signal_dbm', { column: 'rssi' }],
  ['nordic_ble.channel', { column: 'channel' }],
  ['nordic_ble.crcok', { column: 'crc_ok' }],
  ['frame.number', { column: 'frame_number' }],
  [
    'btle_rf.channel',
    { answer: "btle_rf.channel counts RF channels (advertising: 0, 12, 39); Sextant's channel column holds the channel index: write channel IN (37, 38, 39)" },
  ],
  ['frame.time_epoch', { answer: "frame.time_epoch is in seconds; Sextant's time column ts_ms is epoch milliseconds: write ts_ms >= 1755939535722" }],
  ['btle.crc.incorrect', { answer: 'Sextant records the CRC verdict in crc_ok: write crc_ok = FALSE' }],
  ['btcommon.eir_ad.entry.uuid_16', { answer: "service UUIDs are in service_uuids and service_data_uuid: write service_data_uuid = '0000fd6f-0000-1000-8000-00805f9b34fb'" }],
]);

/** The `adv_type` name of an LL PDU type code (0–15), or null. */
export function pduTypeName(code: number): string | null {
  return Number.isInteger(code) && code >= 0 && code < 16 ? ADV_TYPE_NAMES[code] : null;
}

/**
 * Edit distance (insertions, deletions, substitutions). Hand-written: ten lines for a one-off
 * suggestion list do not justify a dependency.
 */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

function commonPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/**
 * The columns nearest to a name someone typed, best first: by edit distance to the name's last
 * dotted part (`btle.advertising_header.length` → `length`), words shared counting as closer.
 */
export function nearestColumns(typed: string, columns: readonly string[], count = 3): string[] {
  const last = (typed.split('.').pop() ?? typed).toLowerCase();
  const words = new Set(typed.toLowerCase().split(/[._]/).filter((word) => word.length > 2));
  const score = (column: string): number => {
    const lower = column.toLowerCase();
    const shared = lower.split('_').filter((word) => [...words].some((typedWord) => commonPrefix(word, typedWord) >= Math.min(4, word.length, typedWord.length))).length;
    return editDistance(last, lower) - 3 * shared;
  };
  return [...columns].sort((a, b) => score(a) - score(b) || a.localeCompare(b)).slice(0, count);
}
