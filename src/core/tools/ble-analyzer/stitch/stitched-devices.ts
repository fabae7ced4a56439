/**
 * The stitched devices of a windowed analysis, held for browsing: a week of a busy scene is
 * hundreds of thousands of devices (224,600 for the billion-packet week), so the viewer asks for
 * pages — filtered, sorted — and one device's detail (its travelled-together relations and the
 * joins refused around it), never the whole list.
 */
import type { StitchConflict, StitchedCluster, StitchedRelation } from './stitch-windows.ts';
import type { StitchedLine } from './stitched-output.ts';

export type DeviceFilter = 'all' | 'several_addresses' | 'several_windows' | 'trackers' | 'travelled_together' | 'conflicts';
export type DeviceOrder = 'first_seen' | 'windows' | 'addresses' | 'confidence';

export interface DeviceQuery {
  /** A device id, an address (colons optional, any case) or part of one, or a tracker kind. */
  text: string;
  filter: DeviceFilter;
  order: DeviceOrder;
  offset: number;
  limit: number;
}

/** A row of the devices table. */
export interface DeviceRow {
  id: string;
  address_count: number;
  /** The first few addresses (all of them for a small device). */
  addresses: string[];
  first_seen: string | null;
  last_seen: string | null;
  windows: number[];
  confidence: number;
  tracker_kind: string | null;
  conflicts: number;
  relations: number;
}

export interface DevicePage {
  /** Devices matching the query, before paging. */
  total: number;
  rows: DeviceRow[];
}

export interface DeviceDetail {
  device: StitchedCluster;
  relations: StitchedRelation[];
  conflicts: StitchConflict[];
}

const SHOWN_ADDRESSES = 4;

/** Upper case without separators: `aa:bb:cc…`, `AABBCC…` and `aa-bb-…` all look the same. */
function addressKey(text: string): string {
  return text.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

export class StitchedDevices {
  private readonly devices: StitchedCluster[] = [];
  private readonly relationList: StitchedRelation[] = [];
  private readonly conflictList: StitchConflict[] = [];
  private readonly byId = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();
  private readonly relationsOf = new Map<string, number[]>();
  private readonly conflictsOf = new Map<string, number[]>();
  /** Each device's addresses as keys, joined by spaces, for substring search. */
  private searchText: string[] = [];

  add(line: StitchedLine): void {
    switch (line.file) {
      case 'clusters':
        this.byId.set(line.value.id, this.devices.length);
        for (const address of line.value.addresses) this.byAddress.set(addressKey(address), this.devices.length);
        this.devices.push(line.value);
        this.searchText.push(`${addressKey(line.value.id)} ${line.value.addresses.map(addressKey).join(' ')} ${addressKey(line.value.tracker_kind ?? '')}`);
        return;
      case 'relations':
        this.index(this.relationsOf, [line.value.device_a, line.value.device_b], this.relationList.length);
        this.relationList.push(line.value);
        return;
      case 'conflicts':
        this.index(this.conflictsOf, line.value.devices, this.conflictList.length);
        this.conflictList.push(line.value);
        return;
    }
  }

  get size(): number {
    return this.devices.length;
  }

  get relationCount(): number {
    return this.relationList.length;
  }

  get conflictCount(): number {
    return this.conflictList.length;
  }

  /** How many devices of each kind a filter would show, for the filter's labels. */
  filterCounts(): Record<DeviceFilter, number> {
    const counts: Record<DeviceFilter, number> = { all: 0, several_addresses: 0, several_windows: 0, trackers: 0, travelled_together: 0, conflicts: 0 };
    for (const device of this.devices) for (const filter of Object.keys(counts) as DeviceFilter[]) if (this.passes(device, filter)) counts[filter]++;
    return counts;
  }

  query(query: DeviceQuery): DevicePage {
    const key = addressKey(query.text.trim());
    const exact = key === '' ? undefined : (this.byAddress.get(key) ?? this.byId.get(query.text.trim()));
    const matches: number[] = [];
    this.devices.forEach((device, index) => {
      if (!this.passes(device, query.filter)) return;
      if (key !== '' && index !== exact && !this.searchText[index].includes(key)) return;
      matches.push(index);
    });
    const order = this.comparator(query.order);
    if (order) matches.sort(order);
    // The exact match (the address or id typed whole) comes first whatever the order.
    if (exact !== undefined && matches.includes(exact)) matches.splice(0, matches.length, exact, ...matches.filter((index) => index !== exact));
    const offset = Math.max(0, Math.floor(query.offset));
    const limit = Math.max(1, Math.min(500, Math.floor(query.limit)));
    return { total: matches.length, rows: matches.slice(offset, offset + limit).map((index) => this.row(this.devices[index])) };
  }

  detail(id: string): DeviceDetail | null {
    const index = this.byId.get(id);
    if (index === undefined) return null;
    return {
      device: this.devices[index],
      relations: (this.relationsOf.get(id) ?? []).map((entry) => this.relationList[entry]),
      conflicts: (this.conflictsOf.get(id) ?? []).map((entry) => this.conflictList[entry]),
    };
  }

  private index(map: Map<string, number[]>, ids: readonly string[], entry: number): void {
    for (const id of new Set(ids)) {
      const list = map.get(id);
      if (list) list.push(entry);
      else map.set(id, [entry]);
    }
  }

  private passes(device: StitchedCluster, filter: DeviceFilter): boolean {
    switch (filter) {
      case 'all':
        return true;
      case 'several_addresses':
        return device.addresses.length > 1;
      case 'several_windows':
        return device.windows.length > 1;
      case 'trackers':
        return device.tracker_kind !== undefined;
      case 'travelled_together':
        return this.relationsOf.has(device.id);
      case 'conflicts':
        return device.conflicts > 0;
    }
  }

  /** Ties keep the file's order (first seen), as the sort is stable. */
  private comparator(order: DeviceOrder): ((a: number, b: number) => number) | null {
    const devices = this.devices;
    switch (order) {
      case 'first_seen':
        return null;
      case 'windows':
        return (a, b) => devices[b].windows.length - devices[a].windows.length;
      case 'addresses':
        return (a, b) => devices[b].addresses.length - devices[a].addresses.length;
      case 'confidence':
        return (a, b) => devices[a].confidence - devices[b].confidence;
    }
  }

  private row(device: StitchedCluster): DeviceRow {
    return {
      id: device.id,
      address_count: device.addresses.length,
      addresses: device.addresses.slice(0, SHOWN_ADDRESSES),
      first_seen: device.first_seen,
      last_seen: device.last_seen,
      windows: device.windows,
      confidence: device.confidence,
      tracker_kind: device.tracker_kind ?? null,
      conflicts: device.conflicts,
      relations: this.relationsOf.get(device.id)?.length ?? 0,
    };
  }
}
