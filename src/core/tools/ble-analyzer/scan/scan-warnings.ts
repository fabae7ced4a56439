import type { ToolWarning } from '../../../contract/tool-error.ts';
import { formatBleCount as formatCount } from '../shared/count-format.ts';
import type { BleObservationStore } from './observation-store.ts';
import type { BleScanPauses } from './scan-pauses.ts';

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

/** Bursts needed before the scan is called duty-cycled: two pauses between three bursts. */
const DUTY_CYCLE_MIN_PAUSES = 2;

/** Whole seconds, for the warning. */
function seconds(ms: number): string {
  return formatCount(Math.round(ms / 1000));
}

/**
 * The duty-cycle warning: every pause between scan bursts (scan-pauses.ts) is longer than the
 * linkage window, so a window in clock time could reach across none of them. The hand-off
 * linkage counts the window in scanning time (the pauses left out) and still looks for those
 * hand-offs; the warning gives the numbers and says what such a hand-off rests on.
 */
export function scanPauseWarnings(pauses: BleScanPauses, linkageWindowS: number): ToolWarning[] {
  if (pauses.count < DUTY_CYCLE_MIN_PAUSES) return [];
  let shortest = Infinity;
  let longest = 0;
  for (let i = 0; i < pauses.count; i++) {
    const length = pauses.endMs[i] - pauses.startMs[i];
    shortest = Math.min(shortest, length);
    longest = Math.max(longest, length);
  }
  if (shortest <= linkageWindowS * 1000) return [];
  const range = Math.round(shortest / 1000) === Math.round(longest / 1000) ? `${seconds(longest)} s` : `${seconds(shortest)}–${seconds(longest)} s`;
  return [
    {
      code: 'SCAN_DUTY_CYCLE',
      message:
        `every one of the ${formatCount(pauses.count)} gaps between scan bursts is ${range}, longer than the linkage window of ${formatCount(linkageWindowS)} s: ` +
        `in clock time no hand-off across them could be seen, so the window counts scanning time (the gaps left out); ` +
        `a hand-off inside a gap rests on payload, RSSI and advertising-interval evidence, not on its timing`,
    },
  ];
}
