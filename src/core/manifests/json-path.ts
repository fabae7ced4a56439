/** A location in a JSON document as segments: `['input_schema', 'required', 1]`. */
export type JsonPathSegments = ReadonlyArray<string | number>;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A JSONPath in its normalized dot form, rooted at `$`: `$.input_schema.required[1]`; keys that are
 * not identifiers in brackets as JSON strings: `$.input_schema.properties["start-ms"]`.
 */
export function formatJsonPath(segments: JsonPathSegments): string {
  let out = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * The segments of a path written by `formatJsonPath` (`$.a[1]["b c"]`) or by the contract's dotted
 * form without the `$` (`a[1]["b c"]`, as `errors[].field` is written); `null` if it is neither.
 * Editors use the segments to find the node to underline.
 */
export function parseJsonPath(path: string): Array<string | number> | null {
  const segments: Array<string | number> = [];
  let index = 0;
  if (path.startsWith('$')) index = 1;
  else if (path !== '') {
    const head = /^[A-Za-z_][A-Za-z0-9_]*/.exec(path);
    if (!head) return null;
    segments.push(head[0]);
    index = head[0].length;
  }
  while (index < path.length) {
    const rest = path.slice(index);
    const dotted = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    if (dotted) {
      segments.push(dotted[1]);
      index += dotted[0].length;
      continue;
    }
    const numeric = /^\[(0|[1-9][0-9]*)\]/.exec(rest);
    if (numeric) {
      segments.push(Number(numeric[1]));
      index += numeric[0].length;
      continue;
    }
    const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (quoted) {
      try {
        segments.push(JSON.parse(quoted[1]) as string);
      } catch {
        return null;
      }
      index += quoted[0].length;
      continue;
    }
    return null;
  }
  return segments;
}
