/**
 * The naive hand-off baseline the analyzer must beat: every address is linked to the next
 * address that appears (first observation) after its last observation, within the linkage
 * window, and not already claimed by an earlier address. Chains of links are clusters. It
 * looks at nothing else: no payload, no RSSI, no address type, no rotation model.
 */
import type { AddressActivity } from './ble-metrics.ts';

/** Predicted cluster label per address (an unlinked address is its own label). */
export function naiveHandoffLabels(activities: ReadonlyArray<AddressActivity>, windowMs: number): Map<string, string> {
  const byFirst = [...activities].sort((a, b) => a.firstMs - b.firstMs || a.address.localeCompare(b.address));
  const byLast = [...activities].sort((a, b) => a.lastMs - b.lastMs || a.address.localeCompare(b.address));
  const claimed = new Set<string>();
  const parent = new Map<string, string>(activities.map((activity) => [activity.address, activity.address]));
  const root = (address: string): string => {
    let current = address;
    while (parent.get(current) !== current) current = parent.get(current)!;
    parent.set(address, current);
    return current;
  };
  for (const earlier of byLast) {
    // First address whose first observation comes after `earlier` ends (binary search).
    let low = 0;
    let high = byFirst.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (byFirst[middle].firstMs <= earlier.lastMs) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < byFirst.length && byFirst[index].firstMs <= earlier.lastMs + windowMs; index++) {
      const later = byFirst[index];
      if (claimed.has(later.address)) continue;
      claimed.add(later.address);
      parent.set(root(later.address), root(earlier.address));
      break;
    }
  }
  return new Map(activities.map((activity) => [activity.address, root(activity.address)]));
}
