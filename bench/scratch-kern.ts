import { reduceBlock } from '../src/core/tools/regression/householder-qr.ts';

function reduceBlock4(r: Float64Array, k: number, block: Float64Array, stride: number, rows: number): void {
  for (let j = 0; j < k; j++) {
    const jOffset = j * stride;
    const jEnd = jOffset + rows;
    let blockSquares = 0;
    for (let i = jOffset; i < jEnd; i++) { const value = block[i]; blockSquares += value * value; }
    if (blockSquares === 0) continue;
    const rowJ = j * k;
    const diagonal = r[rowJ + j];
    const norm = Math.sqrt(diagonal * diagonal + blockSquares);
    const alpha = diagonal >= 0 ? -norm : norm;
    const v0 = diagonal - alpha;
    const beta = 2 / (v0 * v0 + blockSquares);
    r[rowJ + j] = alpha;
    let c = j + 1;
    for (; c + 3 < k; c += 4) {
      const o1 = c * stride - jOffset, o2 = o1 + stride, o3 = o2 + stride, o4 = o3 + stride;
      let d1 = v0 * r[rowJ + c], d2 = v0 * r[rowJ + c + 1], d3 = v0 * r[rowJ + c + 2], d4 = v0 * r[rowJ + c + 3];
      for (let i = jOffset; i < jEnd; i++) {
        const v = block[i];
        d1 += v * block[i + o1]; d2 += v * block[i + o2]; d3 += v * block[i + o3]; d4 += v * block[i + o4];
      }
      const f1 = beta * d1, f2 = beta * d2, f3 = beta * d3, f4 = beta * d4;
      r[rowJ + c] -= f1 * v0; r[rowJ + c + 1] -= f2 * v0; r[rowJ + c + 2] -= f3 * v0; r[rowJ + c + 3] -= f4 * v0;
      for (let i = jOffset; i < jEnd; i++) {
        const v = block[i];
        block[i + o1] -= f1 * v; block[i + o2] -= f2 * v; block[i + o3] -= f3 * v; block[i + o4] -= f4 * v;
      }
    }
    for (; c + 1 < k; c += 2) {
      const aOffset = c * stride - jOffset;
      const bOffset = aOffset + stride;
      let dotA = v0 * r[rowJ + c];
      let dotB = v0 * r[rowJ + c + 1];
      for (let i = jOffset; i < jEnd; i++) { const v = block[i]; dotA += v * block[i + aOffset]; dotB += v * block[i + bOffset]; }
      const factorA = beta * dotA, factorB = beta * dotB;
      r[rowJ + c] -= factorA * v0; r[rowJ + c + 1] -= factorB * v0;
      for (let i = jOffset; i < jEnd; i++) { const v = block[i]; block[i + aOffset] -= factorA * v; block[i + bOffset] -= factorB * v; }
    }
    if (c < k) {
      const aOffset = c * stride - jOffset;
      let dot = v0 * r[rowJ + c];
      for (let i = jOffset; i < jEnd; i++) dot += block[i] * block[i + aOffset];
      const factor = beta * dot;
      r[rowJ + c] -= factor * v0;
      for (let i = jOffset; i < jEnd; i++) block[i + aOffset] -= factor * block[i];
    }
  }
}
// Plain 1-col version
function reduceBlock1(r: Float64Array, k: number, block: Float64Array, stride: number, rows: number): void {
  for (let j = 0; j < k; j++) {
    const jOffset = j * stride, jEnd = jOffset + rows;
    let ss = 0;
    for (let i = jOffset; i < jEnd; i++) ss += block[i] * block[i];
    if (ss === 0) continue;
    const rowJ = j * k, d = r[rowJ + j], norm = Math.sqrt(d * d + ss), alpha = d >= 0 ? -norm : norm, v0 = d - alpha, beta = 2 / (v0 * v0 + ss);
    r[rowJ + j] = alpha;
    for (let c = j + 1; c < k; c++) {
      const o = c * stride - jOffset;
      let dot = v0 * r[rowJ + c];
      for (let i = jOffset; i < jEnd; i++) dot += block[i] * block[i + o];
      const f = beta * dot; r[rowJ + c] -= f * v0;
      for (let i = jOffset; i < jEnd; i++) block[i + o] -= f * block[i];
    }
  }
}
const k = 12;
for (const M of [256, 512, 1024]) {
  const nBlocks = Math.round(1_000_000 / M);
  const src = new Float64Array(k * M).map(() => Math.random());
  const blk = new Float64Array(k * M);
  for (const [name, fn] of [['1', reduceBlock1], ['2', reduceBlock], ['4', reduceBlock4]] as const) {
    let best = 1e9;
    for (let rep = 0; rep < 4; rep++) {
      const r = new Float64Array(k * k);
      const t = performance.now();
      for (let b = 0; b < nBlocks; b++) { blk.set(src); fn(r, k, blk, M, M); }
      best = Math.min(best, performance.now() - t);
    }
    console.log(M, name, best.toFixed(1));
  }
}
