import { fitLinearRegression } from '../src/core/tools/regression/linear-regression.ts';
const n = 1_000_000, p = 10, B = 65536;
let s = 12345;
const rnd = () => { s = (s * 1103515245 + 12345) >>> 0; return s / 4294967296; };
const feats = Array.from({ length: p }, () => new Float64Array(n).map(() => rnd() * 2 - 1));
const y = new Float64Array(n);
for (let i = 0; i < n; i++) { let v = 1; for (let j = 0; j < p; j++) v += (j + 1) * feats[j][i]; y[i] = v + rnd(); }
const batches = [];
for (let st = 0; st < n; st += B) batches.push({ features: feats.map(f => f.subarray(st, Math.min(n, st + B))), target: y.subarray(st, Math.min(n, st + B)), mask: new Uint8Array(Math.min(n, st+B)-st).fill(1) });
for (const blockRows of [128, 256, 512, 1024, 2048]) {
  for (let rep = 0; rep < 3; rep++) {
    const t = performance.now();
    const r = fitLinearRegression(batches, { featureNames: feats.map((_, j) => 'x' + j), blockRows });
    const dt = performance.now() - t;
    if (rep === 2) console.log(blockRows, dt.toFixed(1), r.ok && r.value.coefficients.slice(0, 3));
  }
}
