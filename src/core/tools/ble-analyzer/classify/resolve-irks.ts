import type { BleObservationStore } from '../scan/observation-store.ts';
import { bleAhFor, resolvesUnder } from '../shared/ah.ts';

/** Address-kind votes per address in the store's `votes` (the second: RPA). */
const VOTES = 4;

/**
 * The index of the key each address resolves under, -1 for none: one AES block per (RPA, key),
 * once per address. Before classifying, so its evidence can name the key.
 */
export function resolveIrks(store: BleObservationStore, isFolded: Uint8Array, irks: ReadonlyArray<{ irk: Uint8Array }>): Int32Array {
  const irkOf = new Int32Array(store.addressCount).fill(-1);
  if (irks.length === 0) return irkOf;
  const keys = irks.map((key) => bleAhFor(key.irk));
  const votes = store.votes.values;
  for (let id = 0; id < store.addressCount; id++) {
    const value = store.addressValues.values[id];
    if (isFolded[id] || !Number.isFinite(value) || votes[id * VOTES + 1] === 0) continue;
    irkOf[id] = keys.findIndex((key) => resolvesUnder(value, key));
  }
  return irkOf;
}
