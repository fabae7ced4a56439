import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRow } from './bench-row.ts';
import { runBleAnalyzerBench } from './ble-analyzer-bench.ts';
import { runBleImportBench } from './ble-import-bench.ts';
import { runCliStartupBench } from './cli-startup-bench.ts';
import { runRegressionBench } from './regression-bench.ts';
import { runScaleBench } from './scale-bench.ts';
import { runSparkBench } from './spark-bench.ts';
import { runUiBench } from './ui-bench.ts';

/**
 * Every benchmark, run in order in this process. `npm run bench -- NAME…` runs only those
 * (`regression`, `import`, `ble-analyzer`, `cli`, `ui`, `scale`); `--multi-receiver` adds the analyzer's 3 receivers ×
 * 1 h × 2,000 devices row (about 5M observations; minutes, so not part of routine runs). `scale`
 * (the dataset at 10 M and 100 M packets; 1 B with `--billion`; `--varied` for traffic as varied
 * as a real week) takes many minutes and runs only when named, as does `spark` (the summary stage
 * on Spark local-cluster beside DuckDB at 10 M packets, 100 M with `--spark-1e8`; needs the
 * PySpark environment `npm run test:spark` installs).
 */
interface BenchFlags {
  multiReceiver: boolean;
  billion: boolean;
  varied: boolean;
  sparkLarge: boolean;
}

const BENCHMARKS: ReadonlyArray<{ name: string; key: string; onlyWhenNamed?: boolean; run: (flags: BenchFlags) => Promise<BenchRow[]> }> = [
  { name: 'regression', key: 'regression', run: runRegressionBench },
  { name: 'capture import', key: 'import', run: runBleImportBench },
  { name: 'BLE address analyzer', key: 'ble-analyzer', run: (flags) => runBleAnalyzerBench(flags) },
  { name: 'command-line start-up', key: 'cli', run: runCliStartupBench },
  // The responsiveness goals, measured in Debian's Chromium on the built app (minutes; builds it first).
  { name: 'UI responsiveness', key: 'ui', run: runUiBench },
  { name: 'dataset scale', key: 'scale', onlyWhenNamed: true, run: runScaleBench },
  { name: 'Spark summary stage', key: 'spark', onlyWhenNamed: true, run: runSparkBench },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flags: BenchFlags = { multiReceiver: args.includes('--multi-receiver'), billion: args.includes('--billion'), varied: args.includes('--varied'), sparkLarge: args.includes('--spark-1e8') };
  const wanted = args.filter((arg) => !arg.startsWith('--'));
  const unknown = wanted.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.key === name));
  if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((benchmark) => benchmark.key).join(', ')}`);
  const rows: BenchRow[] = [];
  for (const benchmark of BENCHMARKS) {
    if (wanted.length > 0 ? !wanted.includes(benchmark.key) : benchmark.onlyWhenNamed) continue;
    console.log(`running ${benchmark.name} …`);
    rows.push(...(await benchmark.run(flags)));
  }
  console.table(rows.map(({ params: _params, ...row }) => row));
  for (const row of rows) console.log(`${row.name} vs ${row.peer}:`, JSON.stringify(row.params));
  const path = join(process.cwd(), 'bench-results.json');
  writeFileSync(path, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`wrote ${path}`);
}

await main();
