import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtRunnerIsCurrent } from './built-runner.mjs';

/**
 * Tests that spawn `cli/sextant.mjs` run the built runner: build it once before the test files
 * when it is missing or older than the sources (the launcher would otherwise compile the sources
 * in every spawned process, seconds each).
 */
export default function buildRunnerWhenStale(): void {
  if (builtRunnerIsCurrent()) return;
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url))], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`cli/build.mjs failed:\n${build.stderr}`);
}
