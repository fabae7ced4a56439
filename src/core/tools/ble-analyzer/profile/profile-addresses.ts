import type { BleObservationStore } from '../scan/observation-store.ts';
import { buildAddressProfiles, type BleAddressProfiles } from './address-profiles.ts';

/** Packet-role slots per address in the store's `roles` (the fourth: packets that name it as their target). */
const ROLES = 4;

/** The profile stage's result: the address profiles, each address's observation count and the data's time span. */
export interface BleProfiledAddresses extends BleAddressProfiles {
  /** Observations of each address (by id): its own packets and the packets that name it as their target. */
  observed: Int32Array;
  /** First and last packet time of the analysed data, ms. */
  dataStartMs: number;
  dataEndMs: number;
}

export function profileAddresses(store: BleObservationStore): BleProfiledAddresses {
  const profiled = buildAddressProfiles(store);
  const profiles = profiled.byAddress;
  let dataStartMs = Infinity;
  let dataEndMs = -Infinity;
  for (const profile of profiles) {
    if (!profile) continue;
    dataStartMs = Math.min(dataStartMs, profile.firstMs);
    dataEndMs = Math.max(dataEndMs, profile.lastMs);
  }
  const roles = store.roles.values;
  const addressCount = store.addressCount;
  const observed = new Int32Array(addressCount);
  for (let id = 0; id < addressCount; id++) observed[id] = (profiles[id]?.count ?? 0) + roles[id * ROLES + 3];
  return { ...profiled, observed, dataStartMs, dataEndMs };
}
