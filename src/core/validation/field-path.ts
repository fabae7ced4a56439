/** A location inside an invocation, as segments: `['arguments', 'features', 1]`. */
export type FieldPath = ReadonlyArray<string | number>;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Renders a path the way the contract writes `errors[].field`:
 * `arguments.features[1]`, `capture_selection.capture_ids[0]`; odd keys as `["a b"]`.
 */
export function formatFieldPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Splits an ajv `instancePath` (a JSON Pointer) into path segments; array indices become numbers. */
export function parseJsonPointer(pointer: string): Array<string | number> {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token) => (/^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : token));
}
