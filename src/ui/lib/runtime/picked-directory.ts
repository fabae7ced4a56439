/**
 * A directory the analyst picked (`<input webkitdirectory>`): its files by their path under the
 * root, and the root's name. The root is the picked directory, or the one directory in it that
 * holds `marker` (a parent picked by mistake). `webkitRelativePath` starts with the picked
 * directory's name.
 */
export function filesUnderRoot(list: readonly File[], marker: string): { name: string; files: Map<string, File> } {
  const paths = list.map((file) => (file.webkitRelativePath || file.name).split('/'));
  const top = paths[0]?.[0] ?? '';
  const nested = paths.filter((path) => path.length === 3 && path[2] === marker);
  const rootDepth = paths.some((path) => path.length === 2 && path[1] === marker) || nested.length !== 1 ? 1 : 2;
  const name = rootDepth === 1 ? top : nested[0][1];
  const files = new Map<string, File>();
  list.forEach((file, index) => {
    const path = paths[index];
    if (rootDepth === 2 && path[1] !== name) return;
    files.set(path.slice(rootDepth).join('/'), file);
  });
  return { name, files };
}
