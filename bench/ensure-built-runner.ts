import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtRunnerIsCurrent } from '../cli/built-runner.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Builds the runner (dist-cli/) when it is missing or stale, so a benchmark measures what `sextant` runs. */
export function ensureBuiltRunner(): void {
  if (builtRunnerIsCurrent()) return;
  const built = spawnSync(process.execPath, ['cli/build.mjs'], { cwd: REPO, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`cli/build.mjs failed: ${built.stderr}`);
}
