/**
 * Every size and count limit of the core, in one place (issue 14, "bounded work everywhere").
 * Each is generous for real data — far above what the built-in tools, the specification's
 * examples and hand-written manifests need — and small enough that the work it bounds stays
 * well under a second. Crossing one always gives a coded answer, never a crash; the README's
 * "Reliability" section lists them.
 */
export const LIMITS = {
  /**
   * Deepest nesting of arrays and objects in any JSON the core accepts: invocations (and the
   * replies of endpoint tools), manifests, tool definitions given to `canon`, workspace files.
   * The top-level value is depth 1. Real invocations nest under 10; JSON Schemas under 30.
   */
  maxJsonDepth: 100,
  /** Most values (every scalar, array and object, counted once) in one JSON document. */
  maxJsonNodes: 1_000_000,
  /** Most keys in one JSON object (of an invocation, a manifest, a definition). */
  maxObjectKeys: 100_000,
  /**
   * Most subschemas (objects under `properties`, `items`, `allOf`, `$defs`…) in one manifest schema.
   * ajv compiles about 1–2 subschemas per millisecond, so this bounds a compile to about a second.
   */
  maxSchemaNodes: 2_000,
  /** Most entries in one schema's `properties` (and in its `patternProperties`). */
  maxSchemaProperties: 1_000,
  /** Most values in one `enum`. */
  maxEnumValues: 10_000,
  /** Longest `pattern` / `patternProperties` key, in characters (RE2 compiles it in linear time). */
  maxPatternLength: 2_000,
  /** Most coded errors one ToolResult lists; the last item then says how many more there were. */
  maxErrorsPerResult: 100,
  /** Longest rendering of an offending value inside an error message, in characters. */
  maxValueInMessage: 200,
  /** Largest ToolResult (UTF-8 JSON bytes) a tool or an endpoint may return. */
  maxResultBytes: 64 * 1024 * 1024,
  /** Most tool definitions one input to `canon` may hold (an array or a tool list); real tool lists hold under a hundred. */
  maxDefinitionsPerInput: 1_000,
} as const;

export type Limits = typeof LIMITS;
