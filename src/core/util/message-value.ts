import { LIMITS } from './limits.ts';

/**
 * How an offending value appears inside an error message: its JSON, cut to
 * `LIMITS.maxValueInMessage` characters. The work is O(limit), never O(value): a 100 MB string
 * is sliced before it is quoted, and arrays and objects are written only until the limit is
 * reached (issue 24, D6: a 100 MB argument used to give a 100 MB message).
 */
export function valueForMessage(value: unknown, limit: number = LIMITS.maxValueInMessage): string {
  const text = boundedJson(value, limit + 1);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** Text (a name, a server's words) inside a message, cut to the limit, without quotes. */
export function textForMessage(text: string, limit: number = LIMITS.maxValueInMessage): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
}

/** Most characters of any one error message: a guard behind every message of a ToolResult. */
export const MAX_ERROR_MESSAGE_CHARS = 2_000;

/** An error message cut to `MAX_ERROR_MESSAGE_CHARS`, saying how long it was. */
export function capMessage(message: string): string {
  return message.length > MAX_ERROR_MESSAGE_CHARS ? `${message.slice(0, MAX_ERROR_MESSAGE_CHARS)}… (message cut; ${message.length} characters)` : message;
}

/** JSON of `value`, stopped once it has at least `budget` characters. Iterative: any depth is fine. */
function boundedJson(value: unknown, budget: number): string {
  let out = '';
  const stack: Array<{ value: unknown } | string> = [{ value }];
  while (stack.length > 0 && out.length < budget) {
    const task = stack.pop()!;
    if (typeof task === 'string') {
      out += task;
      continue;
    }
    const current = task.value;
    if (typeof current === 'string') out += JSON.stringify(current.slice(0, budget - out.length + 1)).slice(0, current.length > budget ? -1 : undefined);
    else if (Array.isArray(current)) {
      out += '[';
      stack.push(']');
      // Only the items that can still show: a million-item array costs no more than a short one.
      const shown = Math.min(current.length, budget);
      for (let index = shown - 1; index >= 0; index -= 1) {
        stack.push({ value: current[index] });
        if (index > 0) stack.push(',');
      }
    } else if (typeof current === 'object' && current !== null) {
      out += '{';
      stack.push('}');
      const keys: string[] = [];
      for (const key in current) {
        if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
        keys.push(key);
        if (keys.length >= budget) break;
      }
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        stack.push({ value: (current as Record<string, unknown>)[keys[index]] });
        stack.push(`${index > 0 ? ',' : ''}${JSON.stringify(keys[index].slice(0, budget))}:`);
      }
    } else if (typeof current === 'number' || typeof current === 'boolean' || current === null) out += JSON.stringify(current);
    else out += String(current);
  }
  return out;
}
