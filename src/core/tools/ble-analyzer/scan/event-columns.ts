/**
 * The element types of the grouped event columns that need not be 64 or 32 bits wide.
 *
 * The event columns are the largest allocations of an analysis (25 bytes per event at full
 * width: 22.5 MB for the 1M benchmark, 45 MB for the 2M one), and V8 schedules a full
 * collection after enough new typed-array memory. RSSI in dBm is an integer in every capture
 * format Sextant reads, and a capture has a handful of receivers, so both are stored narrow when
 * that loses nothing: a value reads back exactly as it was written, whatever the width.
 */

/** RSSI per event: 32-bit floats when every value is one exactly (integers up to 2^24 are), else 64-bit. */
export type BleRssiValues = Float32Array | Float64Array;

/** Receiver id per event, in the narrowest type that holds the largest id. */
export type BleReceiverIds = Uint8Array | Uint16Array | Int32Array;

/** Whether every value (NaN included) reads back unchanged from a Float32Array. */
export function fitsFloat32(values: ArrayLike<number>, length: number): boolean {
  if (values instanceof Int8Array || values instanceof Uint8Array || values instanceof Int16Array || values instanceof Uint16Array || values instanceof Float32Array) return true;
  for (let index = 0; index < length; index++) {
    const value = values[index];
    if (Math.fround(value) !== value && value === value) return false;
  }
  return true;
}

export function rssiValues(length: number, float32: boolean): BleRssiValues {
  return float32 ? new Float32Array(length) : new Float64Array(length);
}

/** An array for `length` receiver ids, each at most `largestId`. */
export function receiverIds(length: number, largestId: number): BleReceiverIds {
  if (largestId <= 0xff) return new Uint8Array(length);
  if (largestId <= 0xffff) return new Uint16Array(length);
  return new Int32Array(length);
}
