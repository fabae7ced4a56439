// Where the built runner lives and whether it is current: plain JavaScript, so that checking
// costs the launcher a few file stats and no compiler.
import { readFileSync, statSync } from 'node:fs';

export const ROOT = new URL('../', import.meta.url);
export const BUILT_DIR = new URL('dist-cli/', ROOT);
export const BUILT_MAIN = new URL('main.mjs', BUILT_DIR);
export const MANIFEST = new URL('inputs.json', BUILT_DIR);

/** True when dist-cli/ holds a build no older than any of the project files it was built from. */
export function builtRunnerIsCurrent() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return false;
  }
  for (const path of manifest.inputs) {
    const stat = statSync(new URL(path, ROOT), { throwIfNoEntry: false });
    // A missing input (a file deleted or renamed since) also means the build is out of date.
    if (!stat || stat.mtimeMs > manifest.builtAt) return false;
  }
  return true;
}
