import { HouseholderQr } from '../src/core/tools/regression/householder-qr.ts';
import { fitLinearRegression } from '../src/core/tools/regression/linear-regression.ts';
const n = 1_000_000, p = 10, B = 65536;
let s = 12345;
const rnd = () => { s = (s * 1103515245 + 12345) >>> 0; return s / 4294967296; };
const feats = Array.from({ length: p }, () => new Float64Array(n).map(() => rnd() * 2 - 1));
const y = new Float64Array(n).map(() => rnd());
const cols = [...feats, y];
const batches = [];
for (let st = 0; st < n; st += B) batches.push({ features: feats.map(f => f.subarray(st, Math.min(n, st + B))), target: y.subarray(st, Math.min(n, st + B)), mask: new Uint8Array(Math.min(n, st+B)-st).fill(1) });
for (let rep = 0; rep < 4; rep++) {
  let t = performance.now();
  const qr = new HouseholderQr(p + 2, { leadingOnes: true });
  for (const b of batches) qr.addRows([...b.features, b.target], b.mask);
  qr.factor();
  const a = performance.now() - t;
  t = performance.now();
  fitLinearRegression(batches, { featureNames: feats.map((_, j) => 'x' + j) });
  const c = performance.now() - t;
  t = performance.now();
  fitLinearRegression(batches, { featureNames: feats.map((_, j) => 'x' + j), maxSampleSize: 0 });
  const d = performance.now() - t;
  console.log(a.toFixed(1), c.toFixed(1), d.toFixed(1));
}
