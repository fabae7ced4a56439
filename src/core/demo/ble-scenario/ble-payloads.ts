/**
 * Advertising data (AD structures) for the synthetic devices, as raw bytes: the record writer
 * parses them exactly as it parses a sniffer's frames, so `company_id`, `manufacturer_data`,
 * `service_uuids`, `service_data`, `tx_power`, `local_name` and `payload_signature` come out
 * as they would from a real capture.
 */

/** The parts of one advertising payload; absent parts are left out of the bytes. */
export interface BleAdParts {
  flags?: number;
  /** Complete Local Name (0x09). */
  name?: string;
  /** TX Power Level (0x0A), dBm. */
  txPower?: number;
  /** Complete list of 16-bit service UUIDs (0x03). */
  serviceUuids16?: number[];
  /** Service Data – 16-bit UUID (0x16): the UUID and the bytes after it. */
  serviceData?: { uuid16: number; data: ArrayLike<number> };
  /** Manufacturer Specific Data (0xFF): company identifier and the bytes after it. */
  manufacturer?: { companyId: number; data: ArrayLike<number> };
}

/** Encodes AD structures `[length][type][value]` in a fixed order. */
export function bleAdBytes(parts: BleAdParts): Uint8Array {
  const out: number[] = [];
  const push = (type: number, value: ArrayLike<number>) => {
    out.push(value.length + 1, type);
    for (let index = 0; index < value.length; index++) out.push(value[index] & 0xff);
  };
  if (parts.flags !== undefined) push(0x01, [parts.flags]);
  if (parts.serviceUuids16 && parts.serviceUuids16.length > 0) push(0x03, parts.serviceUuids16.flatMap((uuid) => [uuid & 0xff, uuid >> 8]));
  if (parts.serviceData) push(0x16, [parts.serviceData.uuid16 & 0xff, parts.serviceData.uuid16 >> 8, ...Array.from(parts.serviceData.data)]);
  if (parts.manufacturer) push(0xff, [parts.manufacturer.companyId & 0xff, parts.manufacturer.companyId >> 8, ...Array.from(parts.manufacturer.data)]);
  if (parts.txPower !== undefined) push(0x0a, [parts.txPower & 0xff]);
  if (parts.name !== undefined) push(0x09, Array.from(new TextEncoder().encode(parts.name)));
  if (out.length > 31) throw new Error(`legacy advertising data is at most 31 bytes, got ${out.length}`);
  return Uint8Array.from(out);
}

/** Company identifiers used by the templates (Bluetooth SIG assigned numbers). */
export const BLE_COMPANY = { apple: 0x004c, microsoft: 0x0006, samsung: 0x0075, google: 0x00e0, nordic: 0x0059 } as const;

/** Service UUIDs used by the templates. */
export const BLE_SERVICE = {
  googleFastPair: 0xfe2c,
  /** Eddystone; Find My Device Network frames (0x40/0x41) ride on it. */
  eddystone: 0xfeaa,
  exposureNotification: 0xfd6f,
  /** Samsung offline finding (SmartTag-style trackers). */
  samsungOfflineFinding: 0xfd5a,
  tile: 0xfeed,
  environmentalSensing: 0x181a,
  battery: 0x180f,
  heartRate: 0x180d,
  deviceInformation: 0x180a,
} as const;
