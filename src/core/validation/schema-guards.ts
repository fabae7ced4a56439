import { isJsonObject } from '../util/json.ts';
import { checkJsonLimits, describeJsonPath } from '../util/json-limits.ts';
import { LIMITS } from '../util/limits.ts';
import { compilePattern } from './regexp.ts';

/** Why a schema is refused before ajv compiles it. */
export type SchemaGuardKind =
  /** Nested deeper than `LIMITS.maxJsonDepth`, or too many values. */
  | 'too-deep'
  /** More subschemas, properties or enum values than the limits allow. */
  | 'too-large'
  /** A `$ref` cycle that does not descend into the instance: validation would never end. */
  | 'ref-cycle'
  /** A `pattern` / `patternProperties` key the linear-time engine cannot run. */
  | 'pattern';

/** One reason a schema is refused. */
export interface SchemaGuardProblem {
  kind: SchemaGuardKind;
  /** Where inside the schema, as path segments from its root. */
  path: Array<string | number>;
  message: string;
}

/** Keywords whose subschema applies to the same instance: recursion through them does not consume input. */
const IN_PLACE_SINGLE = ['not', 'if', 'then', 'else'];
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_MAPS = ['dependentSchemas'];
/** Keywords whose subschemas apply to parts of the instance (a property, an item). */
const DESCENDING_SINGLE = ['items', 'additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const DESCENDING_LISTS = ['prefixItems', 'items'];
const DESCENDING_MAPS = ['properties', 'patternProperties'];
/** Holders of subschemas that apply only through `$ref`. */
const DEFINITION_MAPS = ['$defs', 'definitions'];

type Segment = string | number;

interface SchemaNode {
  path: Segment[];
  schema: Record<string, unknown>;
  /** Keys (`pathKey`) of the subschemas that apply to the same instance, `$ref` targets included. */
  inPlace: string[];
}

const pathKey = (path: readonly Segment[]) => path.map((segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function own(schema: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(schema, key) ? schema[key] : undefined;
}

/** The segments of a same-document `$ref` (`#`, `#/$defs/A`), or null for anything else (anchors, other documents). */
function localRefPath(ref: string): Segment[] | null {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return null;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return null;
  }
}

function resolvePath(root: unknown, path: readonly Segment[]): unknown {
  let at: unknown = root;
  for (const segment of path) {
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(String(segment))) at = at[Number(segment)];
    else if (isJsonObject(at) && Object.hasOwn(at, String(segment))) at = at[String(segment)];
    else return undefined;
  }
  return at;
}

/**
 * The checks that make a JSON Schema safe to compile and run, none of which ajv makes itself:
 * nesting and size limits (`LIMITS`), every `pattern` and `patternProperties` key compiling on the
 * linear-time engine, and no `$ref` cycle that stays on the same instance — `{"A": {"allOf":
 * [{"$ref": "#/definitions/A"}]}}` lints clean for ajv and then overflows the stack on the first
 * value it validates (issue 14, item 4). Recursion that descends into the instance (`properties`,
 * `items`…) is fine: the instance's own depth limit bounds it. Iterative, never throws.
 * Written by hand: ajv has no option to reject non-descending `$ref` cycles.
 */
export function guardSchema(schema: unknown, base: readonly Segment[] = []): SchemaGuardProblem[] {
  const where = (path: readonly Segment[]) => describeJsonPath([...base, ...path]);
  const limits = checkJsonLimits(schema);
  if (!limits.ok) {
    return [{ kind: limits.violation.kind === 'depth' ? 'too-deep' : 'too-large', path: limits.violation.path, message: `${where(limits.violation.path)} ${limits.violation.message}` }];
  }
  const problems: SchemaGuardProblem[] = [];
  const nodes = new Map<string, SchemaNode>();
  const queue: Segment[][] = [[]];
  let schemaCount = 0;
  while (queue.length > 0) {
    const path = queue.pop() as Segment[];
    const key = pathKey(path);
    if (nodes.has(key)) continue;
    const value = resolvePath(schema, path);
    if (!isJsonObject(value)) continue;
    schemaCount += 1;
    if (schemaCount > LIMITS.maxSchemaNodes) {
      problems.push({ kind: 'too-large', path: [], message: `${where([])} has more than ${LIMITS.maxSchemaNodes} subschemas` });
      return problems;
    }
    const node: SchemaNode = { path, schema: value, inPlace: [] };
    nodes.set(key, node);
    const child = (segments: Segment[], inPlace: boolean) => {
      queue.push(segments);
      if (inPlace) node.inPlace.push(pathKey(segments));
    };
    for (const keyword of IN_PLACE_SINGLE) if (own(value, keyword) !== undefined) child([...path, keyword], true);
    for (const keyword of DESCENDING_SINGLE) if (isJsonObject(own(value, keyword))) child([...path, keyword], false);
    for (const keyword of IN_PLACE_LISTS) {
      const list = own(value, keyword);
      if (Array.isArray(list)) list.forEach((_, index) => child([...path, keyword, index], true));
    }
    for (const keyword of DESCENDING_LISTS) {
      const list = own(value, keyword);
      if (Array.isArray(list)) list.forEach((_, index) => child([...path, keyword, index], false));
    }
    for (const keyword of [...IN_PLACE_MAPS, ...DESCENDING_MAPS, ...DEFINITION_MAPS]) {
      const map = own(value, keyword);
      if (!isJsonObject(map)) continue;
      const names = Object.keys(map);
      if ((keyword === 'properties' || keyword === 'patternProperties') && names.length > LIMITS.maxSchemaProperties) {
        problems.push({ kind: 'too-large', path: [...path, keyword], message: `${where([...path, keyword])} has ${names.length} entries; at most ${LIMITS.maxSchemaProperties} are accepted` });
        continue;
      }
      for (const name of names) child([...path, keyword, name], IN_PLACE_MAPS.includes(keyword));
      if (keyword === 'patternProperties') {
        for (const name of names) {
          const compiled = compilePattern(name);
          if (!compiled.ok) problems.push({ kind: 'pattern', path: [...path, keyword, name], message: `${where([...path, keyword, name])}: ${compiled.message}` });
        }
      }
    }
    const pattern = own(value, 'pattern');
    if (typeof pattern === 'string') {
      const compiled = compilePattern(pattern);
      if (!compiled.ok) problems.push({ kind: 'pattern', path: [...path, 'pattern'], message: `${where([...path, 'pattern'])}: ${compiled.message}` });
    }
    const values = own(value, 'enum');
    if (Array.isArray(values) && values.length > LIMITS.maxEnumValues) {
      problems.push({ kind: 'too-large', path: [...path, 'enum'], message: `${where([...path, 'enum'])} has ${values.length} values; at most ${LIMITS.maxEnumValues} are accepted` });
    }
    for (const refKeyword of ['$ref', '$dynamicRef']) {
      const ref = own(value, refKeyword);
      const target = typeof ref === 'string' ? localRefPath(ref) : null;
      if (target) child(target, true);
    }
  }
  problems.push(...refCycles(nodes, where));
  return problems;
}

/** Cycles among the same-instance edges (iterative depth-first search, one problem per cycle entry). */
function refCycles(nodes: Map<string, SchemaNode>, where: (path: readonly Segment[]) => string): SchemaGuardProblem[] {
  const problems: SchemaGuardProblem[] = [];
  const state = new Map<string, 'open' | 'done'>();
  for (const start of nodes.keys()) {
    if (state.has(start)) continue;
    const stack: Array<{ key: string; next: number }> = [{ key: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const node = nodes.get(top.key);
      const edges = node?.inPlace ?? [];
      if (top.next >= edges.length) {
        state.set(top.key, 'done');
        stack.pop();
        continue;
      }
      const target = edges[top.next];
      top.next += 1;
      if (!nodes.has(target)) continue;
      const seen = state.get(target);
      if (seen === 'open') {
        const entry = nodes.get(target) as SchemaNode;
        const back = where(entry.path);
        problems.push({
          kind: 'ref-cycle',
          path: node ? node.path : entry.path,
          message: `${where(node ? node.path : entry.path)} refers back to ${back} without descending into a property or an item, so validating any value would never end`,
        });
      } else if (seen === undefined) {
        state.set(target, 'open');
        stack.push({ key: target, next: 0 });
      }
    }
  }
  return problems;
}
