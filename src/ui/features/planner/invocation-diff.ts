/** One leaf of two invocations compared by JSON path. */
export interface DiffRow {
  /** Dotted path, `[i]` for array items: `capture_selection.selectors.time_range.end_ms`. */
  path: string;
  /** JSON text of the value before (absent when added). */
  before?: string;
  /** JSON text of the value after (absent when removed). */
  after?: string;
  kind: 'same' | 'changed' | 'added' | 'removed';
}

/**
 * Compares two invocations leaf by leaf, in the order the paths first appear (the failed
 * invocation's order, then paths only the regenerated one has). Empty objects and arrays count
 * as leaves so that `{}` → `{ "a": 1 }` shows up.
 */
export function diffInvocations(before: unknown, after: unknown): DiffRow[] {
  const left = flatten(before);
  const right = flatten(after);
  const rows: DiffRow[] = [];
  for (const [path, value] of left) {
    if (!right.has(path)) rows.push({ path, before: value, kind: 'removed' });
    else {
      const other = right.get(path)!;
      rows.push({ path, before: value, after: other, kind: other === value ? 'same' : 'changed' });
    }
  }
  for (const [path, value] of right) if (!left.has(path)) rows.push({ path, after: value, kind: 'added' });
  return rows;
}

function flatten(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node) && node.length > 0) node.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.keys(node).length > 0) {
      for (const [key, item] of Object.entries(node)) walk(item, path === '' ? key : `${path}.${key}`);
    } else out.set(path === '' ? '(value)' : path, JSON.stringify(node) ?? 'undefined');
  };
  walk(value, '');
  return out;
}

/** Paths that an error's `field` names, to highlight the rows that drove a repair. */
export function rowsNamedBy(rows: ReadonlyArray<DiffRow>, fields: ReadonlyArray<string>): Set<string> {
  const named = new Set<string>();
  for (const row of rows) {
    for (const field of fields) {
      if (field !== '' && (row.path === field || row.path.startsWith(`${field}.`) || row.path.startsWith(`${field}[`))) named.add(row.path);
    }
  }
  return named;
}
