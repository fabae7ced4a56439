import type { ToolError } from '../../contract/tool-error.ts';
import type { ToolResult } from '../../contract/types.ts';
import { digestToolResultText, type DigestingTool } from '../../tools/result-digest.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../../util/json.ts';

/** What the model receives for a tool that ran out of time. */
export const TOOL_TIMEOUT_MESSAGE = '(tool failed: timeout)';

export function errorList(errors: ReadonlyArray<ToolError>): string {
  return errors.map((error) => `${error.code} at ${error.field || '(envelope)'}: ${error.message}`).join('; ');
}

export function failureResult(summary: string, errors: ToolError[]): ToolResult {
  return { status: 'error', summary, warnings: [], errors, confidence: 0 };
}

export function isTimeout(result: ToolResult): boolean {
  return result.status === 'error' && result.errors.some((error) => error.code === 'TIMEOUT');
}

/**
 * A result as the model reads it: the tool's digest of the ToolResult (compact JSON; the full
 * result stays in the record), with failures led by `(tool failed: ...)`.
 */
export function modelContentOf(result: ToolResult, tool?: DigestingTool): string {
  if (isTimeout(result)) return TOOL_TIMEOUT_MESSAGE;
  const shown = digestToolResultText(result, tool);
  return result.status === 'error' ? `(tool failed: ${errorList(result.errors)})\n${shown}` : shown;
}

/**
 * JSON with sorted keys: identical invocations compare equal whatever order the model wrote.
 * Iterative, with an explicit stack: a model's arguments can nest thousands deep before anything
 * has checked their depth (issue 24, D2), and recursion here overflowed the call stack.
 */
export function canonicalJson(value: JsonValue | undefined): string {
  const out: string[] = [];
  const stack: Array<{ value: JsonValue | undefined } | string> = [{ value }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (typeof task === 'string') {
      out.push(task);
      continue;
    }
    const current = task.value;
    if (Array.isArray(current)) {
      stack.push(']');
      for (let index = current.length - 1; index >= 0; index -= 1) {
        stack.push({ value: current[index] });
        if (index > 0) stack.push(',');
      }
      out.push('[');
    } else if (isJsonObject(current)) {
      const keys = Object.keys(current).sort();
      stack.push('}');
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        stack.push({ value: current[keys[index]] });
        stack.push(`${index > 0 ? ',' : ''}${JSON.stringify(keys[index])}:`);
      }
      out.push('{');
    } else {
      out.push(JSON.stringify(current ?? null));
    }
  }
  return out.join('');
}

/** What makes two invocations the same work (request ids and timeouts aside): the dedup key. */
export function invocationKey(invocation: JsonObject): string {
  return canonicalJson({
    tool_name: invocation.tool_name ?? null,
    tool_version: invocation.tool_version ?? null,
    capture_selection: invocation.capture_selection ?? null,
    arguments: invocation.arguments ?? null,
  });
}
