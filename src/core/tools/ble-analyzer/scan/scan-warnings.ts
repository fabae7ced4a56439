import type { ToolWarning } from '../../../contract/tool-error.ts';
import { formatBleCount as formatCount } from '../shared/count-format.ts';
import type { BleObservationStore } from './observation-store.ts';

/** The scan's warnings: packets left out (failed CRC, no timestamp, no address) or kept with a failed CRC. */
export function scanWarnings(store: BleObservationStore): ToolWarning[] {
  const warnings: ToolWarning[] = [];
  if (store.crcBadExcluded > 0) {
    warnings.push({
      code: 'CRC_BAD_EXCLUDED',
      message: `${formatCount(store.crcBadExcluded)} of ${formatCount(store.selectedRows)} selected packets failed their CRC and were left out (their addresses may be bit-flipped); set include_crc_bad to keep them`,
    });
  }
  if (store.crcBadIncluded > 0) {
    warnings.push({ code: 'CRC_BAD_INCLUDED', message: `${formatCount(store.crcBadIncluded)} packets with a failed CRC were analysed (include_crc_bad)` });
  }
  if (store.noTimestamp > 0) warnings.push({ code: 'ROWS_DROPPED', message: `${formatCount(store.noTimestamp)} selected packets have no timestamp and were skipped` });
  if (store.noAddress > 0) warnings.push({ code: 'NO_ADDRESS', message: `${formatCount(store.noAddress)} selected packets carry no transmitter address (reserved PDU types, anonymous advertising) and were skipped` });
  return warnings;
}
