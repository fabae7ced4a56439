#!/usr/bin/env node
// Builds the command-line runner into dist-cli/: the runner and its tool thread as bundled ES
// modules with source maps, so `sextant` starts without compiling TypeScript. Run by
// `npm run build:cli`, `npm run build` and at install time (`prepare`).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { build } from 'esbuild';
import { BUILT_DIR, MANIFEST, ROOT } from './built-runner.mjs';

const startedAt = Date.now();
const outdir = fileURLToPath(BUILT_DIR);
await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const result = await build({
  absWorkingDir: fileURLToPath(ROOT),
  // Thread entries sit beside the chunks that start them: `new URL('./x-thread.mjs', import.meta.url)`.
  entryPoints: { main: 'cli/main.ts', 'tool-thread': 'cli/tool-thread.ts', 'import-thread': 'cli/dataset/import-thread.ts' },
  // A native engine and a WebAssembly module that load their binaries from their own folders.
  external: ['@duckdb/node-api', 'parquet-wasm'],
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  // Some dependencies are CommonJS and call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __sextantRequire } from 'node:module'; const require = __sextantRequire(import.meta.url);" },
});
const rootPath = fileURLToPath(ROOT);
// The project's own inputs: the launcher runs the sources instead when any is newer than the build.
const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes('node_modules/'));
inputs.push('package.json', 'package-lock.json');
await writeFile(fileURLToPath(MANIFEST), `${JSON.stringify({ builtAt: startedAt, inputs: inputs.map((path) => relative(rootPath, fileURLToPath(new URL(path, ROOT)))) }, null, 1)}\n`);
