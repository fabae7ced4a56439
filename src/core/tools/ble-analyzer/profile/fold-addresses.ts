import type { ToolWarning } from '../../../contract/tool-error.ts';
import type { BleObservationStore } from '../scan/observation-store.ts';
import { formatBleCount as formatCount } from '../shared/count-format.ts';
import { foldCorruptedAddresses } from './corruption.ts';

/** Addresses that are never a device: corrupted copies of well-observed ones, and phantoms. */
export interface BleFoldedAddresses {
  /** Folded address id → the address it is a copy of, or -1 for a phantom. */
  folded: Map<number, number>;
  /** 1 for a folded or phantom address (a flag per address, read by every later loop). */
  isFolded: Uint8Array;
  /** Per address that copies were folded into: how many, and their packets. */
  foldedInto: Map<number, { addresses: number; packets: number }>;
}

/**
 * Corrupted copies of well-observed addresses (1–2 bit flips), and, with CRC-bad packets kept,
 * sparse addresses seen mostly in CRC-bad packets (phantoms); their warnings go to `warnings`.
 */
export function foldAddresses(store: BleObservationStore, observed: Int32Array, minObservationCount: number, warnings: ToolWarning[]): BleFoldedAddresses {
  const addressCount = store.addressCount;
  const folded = foldCorruptedAddresses(store.addressValues.values, observed, addressCount, Math.max(10, minObservationCount), minObservationCount);
  let phantoms = 0;
  let phantomPackets = 0;
  for (let id = 0; id < addressCount; id++) {
    const count = observed[id];
    if (folded.has(id) || count >= minObservationCount || 2 * store.crcBadRows.values[id] <= count) continue;
    folded.set(id, -1);
    phantoms++;
    phantomPackets += count;
  }
  const isFolded = new Uint8Array(addressCount);
  for (const id of folded.keys()) isFolded[id] = 1;
  const foldedInto = new Map<number, { addresses: number; packets: number }>();
  for (const [child, parent] of folded) {
    if (parent < 0) continue;
    const entry = foldedInto.get(parent) ?? { addresses: 0, packets: 0 };
    entry.addresses++;
    entry.packets += observed[child];
    foldedInto.set(parent, entry);
  }
  if (phantoms > 0) {
    warnings.push({
      code: 'PHANTOM_ADDRESSES_DROPPED',
      message: `${formatCount(phantoms)} sparse addresses (${formatCount(phantomPackets)} packets) were seen mostly in CRC-bad packets and were treated as corruption, not devices`,
    });
  }
  if (folded.size > phantoms) {
    const bitFlipped = [...folded].filter(([, parent]) => parent >= 0).map(([id]) => id);
    const packets = bitFlipped.reduce((sum, id) => sum + observed[id], 0);
    warnings.push({
      code: 'CORRUPTED_ADDRESSES_FOLDED',
      message: `${formatCount(bitFlipped.length)} addresses (${formatCount(packets)} packets) lie 1–2 bit flips from a well-observed address and were treated as corrupted copies, not devices`,
    });
  }
  return { folded, isFolded, foldedInto };
}
