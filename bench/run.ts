import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRow } from './bench-row.ts';
import { runBleAnalyzerBench } from './ble-analyzer-bench.ts';
import { runBleImportBench } from './ble-import-bench.ts';
import { runRegressionBench } from './regression-bench.ts';

/** Every benchmark, run in order in this process. */
const BENCHMARKS: ReadonlyArray<{ name: string; run: () => Promise<BenchRow[]> }> = [
  { name: 'regression', run: runRegressionBench },
  { name: 'capture import', run: runBleImportBench },
  { name: 'BLE address analyzer', run: runBleAnalyzerBench },
];

async function main(): Promise<void> {
  const rows: BenchRow[] = [];
  for (const benchmark of BENCHMARKS) {
    console.log(`running ${benchmark.name} …`);
    rows.push(...(await benchmark.run()));
  }
  console.table(rows.map(({ params: _params, ...row }) => row));
  for (const row of rows) console.log(`${row.name} vs ${row.peer}:`, JSON.stringify(row.params));
  const path = join(process.cwd(), 'bench-results.json');
  writeFileSync(path, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`wrote ${path}`);
}

await main();
