import { toolResultSchema } from '../contract/schemas.ts';
import { TOOL_ERROR_CODES } from '../contract/tool-error.ts';
import type { ToolResult } from '../contract/types.ts';
import { validateAgainstSchema } from '../validation/schema-validator.ts';
import { CaptureCatalog } from '../data/catalog.ts';
import { builtinCaptures } from '../demo/builtin-captures.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { ToolImplementation } from '../tools/tool.ts';
import { createExecutor, type Executor } from './executor.ts';
import { createInProcessRunner } from './in-process-runner.ts';

let demo: CaptureCatalog | undefined;

/** The built-in captures, generated once per test file. */
export function demoCatalog(): CaptureCatalog {
  demo ??= new CaptureCatalog(builtinCaptures());
  return demo;
}

/** An executor over the built-in tools (plus `extra`) and captures, running in process. */
export function testExecutor(extra: ToolImplementation[] = []): { executor: Executor; registry: ToolRegistry } {
  const registry = new ToolRegistry([...builtinTools({ testTools: true }), ...extra]);
  const catalog = demoCatalog();
  const runner = createInProcessRunner({ registry, capture: (id) => catalog.capture(id) });
  return { executor: createExecutor({ registry, catalog, runner }), registry };
}

/**
 * Why a result is not a well-formed ToolResult (settled decision 8, plus "no stack trace in a
 * message"), or an empty list. Used by the property and fuzz tests.
 */
export function resultProblems(result: ToolResult): string[] {
  const problems = validateAgainstSchema(toolResultSchema, result, { prefix: [], typeErrorCode: 'OUTPUT_SCHEMA_VIOLATION' }).map((error) => `${error.field}: ${error.message}`);
  if (!['ok', 'partial', 'error'].includes(result.status)) problems.push(`status ${String(result.status)}`);
  if (result.status === 'error' && result.errors.length === 0) problems.push('error without errors');
  if (result.status === 'partial' && result.warnings.length === 0) problems.push('partial without warnings');
  if (!(result.confidence >= 0 && result.confidence <= 1)) problems.push(`confidence ${result.confidence}`);
  for (const error of result.errors) {
    if (!(TOOL_ERROR_CODES as readonly string[]).includes(error.code)) problems.push(`unknown code ${error.code}`);
    if (typeof error.field !== 'string') problems.push('field is not a string');
    if (/\n\s+at /.test(error.message) || /Maximum call stack/.test(error.message)) problems.push(`stack trace in message: ${error.message.slice(0, 120)}`);
  }
  return problems;
}
