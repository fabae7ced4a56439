/**
 * Streaming Householder QR of a tall, narrow matrix `A = [1 X y]` given column by column.
 *
 * Only the k×k upper-triangular factor `R` (with `QᵀA = [R; 0]`) is kept. Rows arrive in
 * blocks of at most `blockRows`; each block is stacked under the current `R` and reduced
 * with k Householder reflections that touch only the diagonal row of `R` and the block,
 * so the cost is O(rows · k²) and the memory O(k² + k · blockRows). `XᵀX` is never formed:
 * the factor is as accurate as a one-shot Householder QR of the whole matrix (columnwise
 * backward stable, so column scaling does not matter).
 */

/** Default number of rows reduced per Householder step. */
export const DEFAULT_BLOCK_ROWS = 512;

/** Per-call options of {@link HouseholderQr.addRows}. */
export interface AddRowsOptions {
  /** First row to read (default 0). */
  start?: number;
  /** One past the last row to read (default: the columns' length). */
  end?: number;
  /**
   * Affine transform per supplied column, applied after the finiteness check:
   * `value → (value − offsets[c]) · scales[c]`. Both default to the identity.
   */
  offsets?: ArrayLike<number>;
  scales?: ArrayLike<number>;
}

/** What one {@link HouseholderQr.addRows} call did. */
export interface AddRowsReport {
  /** Rows absorbed into the factor (selected and all values finite). */
  absorbed: number;
  /** Selected rows left out because a value was NaN or ±Infinity. */
  skippedNonFinite: number;
}

/**
 * Reduces `[R; B]` to upper-triangular form in place: afterwards `r` holds the new factor
 * and `block` is scratch. `r` is k×k row-major; `block` holds `rows` rows of k columns,
 * column-major with column `c` at `block[c * stride ...]`.
 *
 * Column j's reflection `H = I − β v vᵀ` has `v = [R_jj − α; B_·j]` (zero elsewhere), so
 * applying it to column c only needs row j of R and the block.
 */
export function reduceBlock(r: Float64Array, k: number, block: Float64Array, stride: number, rows: number): void {
  if (rows <= 0) return;
  for (let j = 0; j < k; j++) {
    const jOffset = j * stride;
    const jEnd = jOffset + rows;
    let blockSquares = 0;
    for (let i = jOffset; i < jEnd; i++) {
      const value = block[i];
      blockSquares += value * value;
    }
    if (blockSquares === 0) continue; // the block column is already zero: H = I
    const rowJ = j * k;
    const diagonal = r[rowJ + j];
    const norm = Math.sqrt(diagonal * diagonal + blockSquares);
    // α = −sign(R_jj)·‖x‖ keeps v₀ = R_jj − α free of cancellation (LAPACK dlarfg).
    const alpha = diagonal >= 0 ? -norm : norm;
    const v0 = diagonal - alpha;
    const beta = 2 / (v0 * v0 + blockSquares);
    r[rowJ + j] = alpha;
    // Columns are taken four (then two, then one) at a time so each pass over block column
    // j feeds several dot products and updates: fewer loads per flop than the plain loop.
    let c = j + 1;
    for (; c + 3 < k; c += 4) {
      const offset1 = c * stride - jOffset;
      const offset2 = offset1 + stride;
      const offset3 = offset2 + stride;
      const offset4 = offset3 + stride;
      let dot1 = v0 * r[rowJ + c];
      let dot2 = v0 * r[rowJ + c + 1];
      let dot3 = v0 * r[rowJ + c + 2];
      let dot4 = v0 * r[rowJ + c + 3];
      for (let i = jOffset; i < jEnd; i++) {
        const v = block[i];
        dot1 += v * block[i + offset1];
        dot2 += v * block[i + offset2];
        dot3 += v * block[i + offset3];
        dot4 += v * block[i + offset4];
      }
      const factor1 = beta * dot1;
      const factor2 = beta * dot2;
      const factor3 = beta * dot3;
      const factor4 = beta * dot4;
      r[rowJ + c] -= factor1 * v0;
      r[rowJ + c + 1] -= factor2 * v0;
      r[rowJ + c + 2] -= factor3 * v0;
      r[rowJ + c + 3] -= factor4 * v0;
      for (let i = jOffset; i < jEnd; i++) {
        const v = block[i];
        block[i + offset1] -= factor1 * v;
        block[i + offset2] -= factor2 * v;
        block[i + offset3] -= factor3 * v;
        block[i + offset4] -= factor4 * v;
      }
    }
    for (; c + 1 < k; c += 2) {
      const offset1 = c * stride - jOffset;
      const offset2 = offset1 + stride;
      let dot1 = v0 * r[rowJ + c];
      let dot2 = v0 * r[rowJ + c + 1];
      for (let i = jOffset; i < jEnd; i++) {
        const v = block[i];
        dot1 += v * block[i + offset1];
        dot2 += v * block[i + offset2];
      }
      const factor1 = beta * dot1;
      const factor2 = beta * dot2;
      r[rowJ + c] -= factor1 * v0;
      r[rowJ + c + 1] -= factor2 * v0;
      for (let i = jOffset; i < jEnd; i++) {
        const v = block[i];
        block[i + offset1] -= factor1 * v;
        block[i + offset2] -= factor2 * v;
      }
    }
    if (c < k) {
      const offset1 = c * stride - jOffset;
      let dot1 = v0 * r[rowJ + c];
      for (let i = jOffset; i < jEnd; i++) dot1 += block[i] * block[i + offset1];
      const factor1 = beta * dot1;
      r[rowJ + c] -= factor1 * v0;
      for (let i = jOffset; i < jEnd; i++) block[i + offset1] -= factor1 * block[i];
    }
  }
}

export class HouseholderQr {
  /** Number of columns k of the factored matrix, the implicit column of ones included. */
  readonly columnCount: number;
  /** True when column 0 is an implicit column of ones (an intercept) not passed to `addRows`. */
  readonly leadingOnes: boolean;
  private readonly r: Float64Array;
  private readonly block: Float64Array;
  private readonly blockRows: number;
  private pending = 0;
  private absorbedRows = 0;

  /**
   * @param columnCount k, the number of columns of the factored matrix (ones column included).
   * @param options.leadingOnes column 0 is a column of ones supplied by the accumulator.
   * @param options.blockRows rows per reduction step (default {@link DEFAULT_BLOCK_ROWS}).
   */
  constructor(columnCount: number, options: { leadingOnes?: boolean; blockRows?: number } = {}) {
    if (!Number.isInteger(columnCount) || columnCount < 1) throw new Error(`columnCount must be a positive integer, got ${columnCount}`);
    const blockRows = options.blockRows ?? DEFAULT_BLOCK_ROWS;
    if (!Number.isInteger(blockRows) || blockRows < 1) throw new Error(`blockRows must be a positive integer, got ${blockRows}`);
    this.columnCount = columnCount;
    this.leadingOnes = options.leadingOnes ?? false;
    this.blockRows = blockRows;
    this.r = new Float64Array(columnCount * columnCount);
    this.block = new Float64Array(columnCount * blockRows);
    // The ones column is only ever read (it is the pivot of step 0, never updated), so it
    // is filled once.
    if (this.leadingOnes) this.block.fill(1, 0, blockRows);
  }

  /** Rows absorbed so far (pending ones included). */
  get rowCount(): number {
    return this.absorbedRows + this.pending;
  }

  /**
   * Absorbs the selected rows of `columns` (the k columns, or k − 1 with `leadingOnes`).
   * A row is used when `mask` is absent or `mask[row] !== 0` and every value is finite;
   * selected rows with a NaN or ±Infinity are counted in `skippedNonFinite`.
   */
  addRows(columns: ReadonlyArray<Float64Array>, mask?: Uint8Array, options: AddRowsOptions = {}): AddRowsReport {
    const first = this.leadingOnes ? 1 : 0;
    const supplied = this.columnCount - first;
    if (columns.length !== supplied) throw new Error(`expected ${supplied} columns, got ${columns.length}`);
    const length = supplied > 0 ? columns[0].length : (mask?.length ?? 0);
    for (const column of columns) {
      if (column.length !== length) throw new Error('columns differ in length');
    }
    if (mask && mask.length < length) throw new Error('mask is shorter than the columns');
    const start = options.start ?? 0;
    const end = options.end ?? length;
    const offsets = options.offsets;
    const scales = options.scales;
    const transformed = offsets !== undefined || scales !== undefined;
    const block = this.block;
    const stride = this.blockRows;
    let absorbed = 0;
    let skippedNonFinite = 0;

    let row = start;
    while (row < end) {
      const chunkEnd = Math.min(end, row + (stride - this.pending));
      if (chunkIsClean(columns, mask, row, chunkEnd)) {
        // Fast path: every row selected and finite, so whole column runs are copied.
        const count = chunkEnd - row;
        for (let c = 0; c < supplied; c++) {
          const target = (c + first) * stride + this.pending;
          const source = columns[c];
          if (!transformed) {
            block.set(source.subarray(row, chunkEnd), target);
          } else {
            const offset = offsets ? offsets[c] : 0;
            const scale = scales ? scales[c] : 1;
            for (let i = 0; i < count; i++) block[target + i] = (source[row + i] - offset) * scale;
          }
        }
        this.pending += count;
        absorbed += count;
      } else {
        for (let i = row; i < chunkEnd; i++) {
          if (mask && mask[i] === 0) continue;
          let finite = true;
          for (let c = 0; c < supplied; c++) {
            const value = columns[c][i];
            if (value - value !== 0) {
              finite = false;
              break;
            }
          }
          if (!finite) {
            skippedNonFinite++;
            continue;
          }
          const at = this.pending;
          for (let c = 0; c < supplied; c++) {
            const value = columns[c][i];
            block[(c + first) * stride + at] = transformed
              ? (value - (offsets ? offsets[c] : 0)) * (scales ? scales[c] : 1)
              : value;
          }
          this.pending++;
          absorbed++;
        }
      }
      row = chunkEnd;
      if (this.pending === stride) this.flush();
    }
    return { absorbed, skippedNonFinite };
  }

  /** Reduces any buffered rows into R. Called by `factor`, `merge` and when a block fills. */
  flush(): void {
    if (this.pending === 0) return;
    reduceBlock(this.r, this.columnCount, this.block, this.blockRows, this.pending);
    this.absorbedRows += this.pending;
    this.pending = 0;
  }

  /**
   * Folds another accumulator's factor into this one (one more QR step on `[R₁; R₂]`).
   * Afterwards this factors the rows of both; `other` is left unchanged apart from a flush.
   */
  merge(other: HouseholderQr): void {
    if (other.columnCount !== this.columnCount || other.leadingOnes !== this.leadingOnes) {
      throw new Error('cannot merge factors of different shapes');
    }
    this.flush();
    other.flush();
    const k = this.columnCount;
    const stacked = new Float64Array(k * k);
    for (let i = 0; i < k; i++) {
      for (let c = i; c < k; c++) stacked[c * k + i] = other.r[i * k + c];
    }
    reduceBlock(this.r, k, stacked, k, k);
    this.absorbedRows += other.absorbedRows;
  }

  /** A copy of the k×k upper-triangular factor R, row-major, after a flush. */
  factor(): Float64Array {
    this.flush();
    return this.r.slice();
  }
}

/** True when every row of [start, end) is selected and every value in it is finite. */
function chunkIsClean(columns: ReadonlyArray<Float64Array>, mask: Uint8Array | undefined, start: number, end: number): boolean {
  if (mask) {
    for (let i = start; i < end; i++) if (mask[i] === 0) return false;
  }
  for (const column of columns) {
    // x·0 is ±0 for finite x and NaN for NaN/±Infinity, so the sum is NaN iff one is not finite.
    let probe = 0;
    for (let i = start; i < end; i++) probe += column[i] * 0;
    if (probe !== 0) return false;
  }
  return true;
}

/**
 * Returns R with every row's sign flipped so the diagonal is non-negative: the unique
 * representative of the factor (QR is unique up to row signs), handy for comparisons.
 */
export function canonicalFactor(r: Float64Array, k: number): Float64Array {
  const out = r.slice();
  for (let i = 0; i < k; i++) {
    if (out[i * k + i] < 0) for (let c = i; c < k; c++) out[i * k + c] = -out[i * k + c];
  }
  return out;
}
