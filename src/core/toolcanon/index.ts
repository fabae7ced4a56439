// Tool definitions from anywhere (toolcanon-api.md): detect a definition's format, canonicalize it,
// emit it to each provider's format, and move between the canonical model, draft ToolManifests and
// the internal tool definition of tool-definition-format.md.

export type { SourceFormat, ToolCapability, ToolSecurity, CanonicalTool, CanonicalizationResult, FormatConfidence } from './types.ts';
export { SOURCE_FORMATS, COST_ESTIMATES, DATA_CLASSIFICATIONS, PII_HANDLING, defaultCapability, defaultSecurity } from './types.ts';

export type { FormatDetection } from './detect.ts';
export { detectFormat, formatConfidence } from './detect.ts';

export type { CanonicalizeOptions, DefinitionContainer, DefinitionList, CanonicalizedDefinitions } from './canonicalize.ts';
export { canonicalize, canonicalizeDefinitions, splitDefinitions, CANONICALIZATION_WARNINGS, parserErrorWarning, limitWarning, LIMIT_WARNING_PREFIX } from './canonicalize.ts';
export { inferCapabilities } from './capabilities.ts';
export { SCHEMA_DOCUMENT_NOTE } from './parsers.ts';

export type { EmitTarget } from './emit.ts';
export { emit, emitOpenAI, emitOpenAILegacy, emitAnthropic, emitMcp, emitJsonSchema, EMIT_TARGETS, JSON_SCHEMA_DRAFT } from './emit.ts';

export type { ManifestDraft, ManifestDraftOptions, ReviewItem } from './manifest-draft.ts';
export { toManifest, fromManifest, toSnakeCase, MANIFEST_DEFAULTS } from './manifest-draft.ts';

export type { InternalToolDefinition, InternalDefinitionProblem, McpConversionOptions, ManifestExportTarget } from './internal-definition.ts';
export {
  toInternalToolDefinition,
  internalToOpenAI,
  internalToAnthropic,
  internalToMcp,
  internalToOllama,
  exportManifest,
  MANIFEST_EXPORT_TARGETS,
} from './internal-definition.ts';

export { jsonEqual } from './json-value.ts';
