#!/usr/bin/env node
// The `sextant` command. Runs the built runner (dist-cli/, see cli/build.mjs) when it is current,
// so no TypeScript is compiled at start; when it is missing or older than the sources (a checkout
// being edited), runs the sources through the TypeScript loader instead, slower but never stale.
import { BUILT_MAIN, builtRunnerIsCurrent } from './built-runner.mjs';

let main;
if (builtRunnerIsCurrent()) {
  // Stack traces name the TypeScript sources (the build writes source maps).
  process.setSourceMapsEnabled(true);
  ({ main } = await import(BUILT_MAIN.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
