// Manifest authoring: the semantic lint of a ToolManifest and the classification of a change
// between two versions by the compatibility policy (tool-contract.md §7).

export type { ManifestProblem, ManifestProblemCode, LintOptions } from './lint.ts';
export { lintManifest, lintManifestText, isCleanManifest, MANIFEST_PROBLEM_CODES } from './lint.ts';

export type { ChangeKind, ChangeReason, ChangeClassification, VersionBump } from './classify-change.ts';
export { classifyChange } from './classify-change.ts';

export type { JsonPathSegments } from './json-path.ts';
export { formatJsonPath, parseJsonPath } from './json-path.ts';

export type { ConformanceCase, ConformanceExpectation, ConformanceRow, ConformanceActual, ConformanceOptions } from './conformance.ts';
export { generateConformanceCases, judgeConformance } from './conformance.ts';
