import { toolResultSchema } from '../contract/schemas.ts';
import { normalizeErrorCode, toolError, type ToolError, type ToolWarning } from '../contract/tool-error.ts';
import type { ToolArtifact, ToolManifest, ToolResult } from '../contract/types.ts';
import type { ArtifactContent, ToolOutcome } from '../tools/tool.ts';
import { checkJsonLimits } from '../util/json-limits.ts';
import { LIMITS } from '../util/limits.ts';
import { validateAgainstSchema } from '../validation/schema-validator.ts';
import type { RunnerResponse } from './runner.ts';
// Marks the contract's and the built-in tools' schemas as shipped (no meta-schema compile on the first validation).
import './shipped-schemas.ts';

/** The result of an invocation that failed validation: nothing ran. */
export function validationFailure(errors: ToolError[], warnings: ToolWarning[]): ToolResult {
  return { status: 'error', summary: 'Invocation failed validation.', warnings, errors, confidence: 0 };
}

function failure(summary: string, errors: ToolError[], warnings: ToolWarning[]): ToolResult {
  return { status: 'error', summary, warnings, errors, confidence: 0 };
}

/**
 * Turns how a run ended into a `ToolResult` that keeps every invariant of settled decision 8:
 * a tool's output is checked against the ToolResult rules and the manifest's `output_schema`,
 * and a result that breaks them becomes `OUTPUT_SCHEMA_VIOLATION` instead of reaching the caller.
 */
export async function finalizeResult(response: RunnerResponse, manifest: ToolManifest, timeoutMs: number, warnings: ToolWarning[]): Promise<ToolResult> {
  switch (response.kind) {
    case 'timeout':
      return failure(`${manifest.name} was stopped after ${timeoutMs} ms.`, [
        toolError('TIMEOUT', 'timeout_ms', `${manifest.name} did not finish within ${timeoutMs} ms and was stopped`),
      ], warnings);
    case 'cancelled':
      return failure(`${manifest.name} was cancelled.`, [toolError('EXECUTION_ERROR', '', 'The run was cancelled before it finished')], warnings);
    case 'crashed':
      return failure(`${manifest.name} failed while running.`, [toolError('EXECUTION_ERROR', '', response.message)], warnings);
    case 'completed':
      return finalizeOutcome(response.outcome, manifest, warnings);
    case 'reply':
      return finalizeReply(response.result, manifest, warnings);
    case 'checked':
      return completeCheckedResult(response.result, manifest, warnings);
  }
}

/** An endpoint's reply: it must be a ToolResult keeping every invariant, and match `output_schema`. */
function finalizeReply(reply: unknown, manifest: ToolManifest, runtimeWarnings: ToolWarning[]): ToolResult {
  // An endpoint's reply is as untrusted as an invocation: limits first, by an iterative walk.
  const limits = checkJsonLimits(reply, RESULT_LIMITS);
  if (!limits.ok) return violation(manifest, [toolError('OUTPUT_SCHEMA_VIOLATION', '', `The reply ${limits.violation.message}`)], runtimeWarnings);
  if (limits.measure.bytes > LIMITS.maxResultBytes) return violation(manifest, [tooLarge(limits.measure.bytes)], runtimeWarnings);
  const problems: ToolError[] = validateAgainstSchema(toolResultSchema, reply, { prefix: [], typeErrorCode: 'OUTPUT_SCHEMA_VIOLATION' }).map(
    (problem): ToolError => ({ ...problem, code: 'OUTPUT_SCHEMA_VIOLATION' }),
  );
  if (problems.length > 0) return violation(manifest, problems, runtimeWarnings);
  // Checked against the ToolResult schema just above.
  const result = reply as ToolResult;
  if (result.status !== 'error') {
    const outputProblems = validateAgainstSchema(manifest.output_schema, result.structured_output, { prefix: ['structured_output'], typeErrorCode: 'OUTPUT_SCHEMA_VIOLATION' });
    if (outputProblems.length > 0) return violation(manifest, outputProblems.map((problem): ToolError => ({ ...problem, code: 'OUTPUT_SCHEMA_VIOLATION' })), runtimeWarnings);
  } else {
    result.errors = result.errors.map((error) => {
      const code = normalizeErrorCode(error.code);
      return code ? { ...error, code } : toolError('EXECUTION_ERROR', error.field, `${error.code}: ${error.message}`);
    });
  }
  return { ...result, warnings: [...runtimeWarnings, ...result.warnings] };
}

async function finalizeOutcome(outcome: ToolOutcome, manifest: ToolManifest, runtimeWarnings: ToolWarning[]): Promise<ToolResult> {
  return completeCheckedResult(await checkOutcome(outcome, manifest), manifest, runtimeWarnings);
}

/**
 * The part of finalizing that needs only the tool's outcome and manifest: error codes normalized,
 * artifacts encoded, limits and both schemas checked. It runs where the tool ran (the app's tools
 * worker answers with its result, kind `checked`), so a multi-megabyte output is walked and
 * validated there instead of on the page's main thread; `completeCheckedResult` does the rest.
 */
export async function checkOutcome(outcome: ToolOutcome, manifest: ToolManifest): Promise<ToolResult> {
  const warnings = outcome.warnings ?? [];
  if (outcome.status === 'error') {
    if (outcome.errors.length === 0) {
      return violation(manifest, [toolError('OUTPUT_SCHEMA_VIOLATION', 'errors', 'status is error but errors is empty')], warnings);
    }
    const errors = outcome.errors.map((error) => {
      const code = normalizeErrorCode(error.code);
      return code ? { ...error, code } : toolError('EXECUTION_ERROR', error.field, `${error.code}: ${error.message}`);
    });
    return failure(outcome.summary, errors, warnings);
  }

  const result: ToolResult = {
    status: outcome.status,
    summary: outcome.summary,
    structured_output: outcome.structured_output,
    artifacts: await Promise.all((outcome.artifacts ?? []).map(encodeArtifact)),
    warnings,
    errors: [],
    confidence: outcome.confidence,
  };
  // Limits first (an iterative walk), so ajv never recurses over an unbounded output.
  const limits = checkJsonLimits(result, RESULT_LIMITS);
  const problems: ToolError[] = !limits.ok
    ? [toolError('OUTPUT_SCHEMA_VIOLATION', '', `The result ${limits.violation.message}`)]
    : limits.measure.bytes > LIMITS.maxResultBytes
      ? [tooLarge(limits.measure.bytes)]
      : [
          ...validateAgainstSchema(toolResultSchema, result, { prefix: [], typeErrorCode: 'OUTPUT_SCHEMA_VIOLATION' }),
          ...validateAgainstSchema(manifest.output_schema, result.structured_output, { prefix: ['structured_output'], typeErrorCode: 'OUTPUT_SCHEMA_VIOLATION' }),
        ].map((problem): ToolError => ({ ...problem, code: 'OUTPUT_SCHEMA_VIOLATION' }));
  return problems.length > 0 ? violation(manifest, problems, warnings) : result;
}

/**
 * A checked result with the executor's own warnings (from validation) in front. A partial result
 * needs a warning saying what is missing, and the executor's warnings count: so that rule is
 * applied here, once all warnings are known.
 */
function completeCheckedResult(result: ToolResult, manifest: ToolManifest, runtimeWarnings: ToolWarning[]): ToolResult {
  const warnings = [...runtimeWarnings, ...result.warnings];
  if (result.status === 'partial' && warnings.length === 0) {
    return violation(manifest, [toolError('OUTPUT_SCHEMA_VIOLATION', 'warnings', 'status is partial but no warning explains what is missing')], warnings);
  }
  return { ...result, warnings };
}

/** Results are bounded by depth and bytes (`LIMITS.maxResultBytes`), not by value counts: a large analysis may list many items. */
const RESULT_LIMITS = { maxNodes: Number.MAX_SAFE_INTEGER, maxObjectKeys: Number.MAX_SAFE_INTEGER };

function tooLarge(bytes: number): ToolError {
  return toolError('OUTPUT_SCHEMA_VIOLATION', '', `The result is ${bytes} bytes; at most ${LIMITS.maxResultBytes} are accepted`);
}

function violation(manifest: ToolManifest, errors: ToolError[], warnings: ToolWarning[]): ToolResult {
  return failure(`${manifest.name} returned a result that breaks its contract.`, errors, warnings);
}

/** Sextant's own artifacts travel inline as `data:` URIs, with the SHA-256 of their bytes. */
async function encodeArtifact(artifact: ArtifactContent): Promise<ToolArtifact> {
  const bytes = typeof artifact.content === 'string' ? new TextEncoder().encode(artifact.content) : artifact.content;
  return {
    name: artifact.name,
    mime_type: artifact.mime_type,
    uri: `data:${artifact.mime_type};base64,${toBase64(bytes)}`,
    sha256: await sha256Hex(bytes),
  };
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  }
  return btoa(binary);
}
