import { HouseholderQr } from '../src/core/tools/regression/householder-qr.ts';
const n = 1_000_000, p = 10, B = 65536;
let s = 12345;
const rnd = () => { s = (s * 1103515245 + 12345) >>> 0; return s / 4294967296; };
const feats = Array.from({ length: p }, () => new Float64Array(n).map(() => rnd() * 2 - 1));
const y = new Float64Array(n).map(() => rnd());
const cols = [...feats, y];
for (const blockRows of [64, 128, 256, 512, 1024]) {
  let best = 1e9;
  for (let rep = 0; rep < 5; rep++) {
    const t = performance.now();
    const qr = new HouseholderQr(p + 2, { leadingOnes: true, blockRows });
    for (let st = 0; st < n; st += B) qr.addRows(cols.map(c => c.subarray(st, Math.min(n, st + B))), undefined);
    qr.factor();
    best = Math.min(best, performance.now() - t);
  }
  console.log(blockRows, best.toFixed(1));
}
