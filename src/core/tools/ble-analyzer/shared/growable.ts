/**
 * Append-only typed arrays that double when full: the analyzer's per-row and per-address stores.
 * Two classes rather than one generic, so each keeps its element accesses monomorphic in the hot loops.
 */

export class BleGrowableFloat64 {
  values: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.values = new Float64Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.values.length) this.grow(this.length + 1);
    this.values[this.length++] = value;
  }
  /** Makes index `index` addressable, filling new slots with `fill`. */
  ensure(size: number, fill: number): void {
    if (size > this.values.length) this.grow(size);
    if (size > this.length) {
      this.values.fill(fill, this.length, size);
      this.length = size;
    }
  }
  private grow(needed: number): void {
    const next = new Float64Array(Math.max(needed, this.values.length * 2));
    next.set(this.values.subarray(0, this.length));
    this.values = next;
  }
  view(): Float64Array {
    return this.values.subarray(0, this.length);
  }
}

export class BleGrowableInt32 {
  values: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.values = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.values.length) this.grow(this.length + 1);
    this.values[this.length++] = value;
  }
  ensure(size: number, fill: number): void {
    if (size > this.values.length) this.grow(size);
    if (size > this.length) {
      this.values.fill(fill, this.length, size);
      this.length = size;
    }
  }
  private grow(needed: number): void {
    const next = new Int32Array(Math.max(needed, this.values.length * 2));
    next.set(this.values.subarray(0, this.length));
    this.values = next;
  }
  view(): Int32Array {
    return this.values.subarray(0, this.length);
  }
}
