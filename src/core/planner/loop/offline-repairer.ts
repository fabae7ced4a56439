import type { ToolError } from '../../contract/tool-error.ts';
import type { JsonSchema, ToolManifest } from '../../contract/types.ts';
import type { CaptureInfo } from '../../data/capture.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../../util/json.ts';

/** One change a repair made, for the side-by-side diff and the conversation. */
export interface RepairChange {
  /** Dotted path from the envelope root, as in `errors[].field`. */
  field: string;
  /** The value before (null when it was missing). */
  from: JsonValue | null;
  /** The value after (null when the entry was removed). */
  to: JsonValue | null;
  /** Why, in one sentence. */
  reason: string;
}

/** A regenerated invocation. Its `request_id` is replaced by the loop (fresh per attempt). */
export interface RepairProposal {
  invocation: JsonObject;
  changes: RepairChange[];
}

/** What a repairer may look at besides the failed invocation and its errors. */
export interface RepairContext {
  /** The analyst's question: its words name columns, channels and captures. */
  question: string;
  /** The discovered captures. */
  captures: ReadonlyArray<CaptureInfo>;
  /** The newest installed manifest of the invocation's tool, when it is installed. */
  manifest: ToolManifest | undefined;
}

/**
 * Regenerates a failed invocation from its normalized errors without a model, or returns null
 * when it cannot fix every error (the failure then goes back to the model).
 */
export type InvocationRepairer = (failed: JsonObject, errors: ReadonlyArray<ToolError>, context: RepairContext) => RepairProposal | null;

type Segment = string | number;

function parsePath(field: string): Segment[] {
  const segments: Segment[] = [];
  for (const match of field.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) segments.push(match[1] ?? Number(match[2]));
  return segments;
}

function getAt(root: JsonValue, path: ReadonlyArray<Segment>): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const segment of path) {
    if (typeof segment === 'number') node = Array.isArray(node) ? node[segment] : undefined;
    else node = isJsonObject(node) ? node[segment] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function setAt(root: JsonObject, path: ReadonlyArray<Segment>, value: JsonValue): boolean {
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (typeof last === 'number' && Array.isArray(parent)) parent[last] = value;
  else if (typeof last === 'string' && isJsonObject(parent)) parent[last] = value;
  else return false;
  return true;
}

/** Lower-case words of a text, with `_` and `-` as separators too. */
function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word !== ''));
}

/** Name parts too generic to say anything about a column (units and the like). */
const UNIT_PARTS = new Set(['ms', 's', 'us', 'ns', 'db', 'dbm', 'hz', 'pct', 'id', 'ts', 'count', 'n']);

/** How strongly a question mentions a name: 2 for the whole name, 1 for a telling part of it, 0 not at all. */
function mentionScore(name: string, question: string, words: Set<string>): number {
  const lower = name.toLowerCase();
  const whole = new RegExp(`(^|[^a-z0-9_])${lower.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9_])`);
  if (words.has(lower) || whole.test(question.toLowerCase())) return 2;
  const parts = lower.split(/[^a-z0-9]+/).filter((part) => part.length >= 3 && !UNIT_PARTS.has(part));
  return parts.some((part) => words.has(part)) ? 1 : 0;
}

/** Every string inside a value (the columns an invocation already uses). */
function stringsIn(value: JsonValue | undefined, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out);
  else if (isJsonObject(value)) for (const item of Object.values(value)) stringsIn(item, out);
  return out;
}

function selectedCaptureIds(invocation: JsonObject): string[] {
  const selection = invocation.capture_selection;
  if (!isJsonObject(selection)) return [];
  if (typeof selection.capture_id === 'string') return [selection.capture_id];
  if (Array.isArray(selection.capture_ids)) return selection.capture_ids.filter((id): id is string => typeof id === 'string');
  return [];
}

function selectedCaptures(invocation: JsonObject, context: RepairContext): CaptureInfo[] {
  const ids = selectedCaptureIds(invocation);
  const found = context.captures.filter((capture) => ids.includes(capture.id));
  return found.length > 0 ? found : [...context.captures];
}

function best<T>(candidates: ReadonlyArray<T>, score: (candidate: T) => number): T | undefined {
  let winner: T | undefined;
  let top = 0;
  for (const candidate of candidates) {
    const value = score(candidate);
    if (value > top) {
      top = value;
      winner = candidate;
    }
  }
  return winner;
}

function propertySchema(manifest: ToolManifest | undefined, name: string): JsonSchema | undefined {
  const properties = manifest?.input_schema.properties;
  const schema = isJsonObject(properties) ? properties[name] : undefined;
  return isJsonObject(schema) ? schema : undefined;
}

/** A value for a missing argument: its schema default, else what the question's words name. */
function valueForMissingArgument(name: string, invocation: JsonObject, context: RepairContext): { value: JsonValue; reason: string } | null {
  const schema = propertySchema(context.manifest, name);
  if (!schema) return null;
  if (schema.default !== undefined) return { value: structuredClone(schema.default), reason: `the schema default of arguments.${name}` };
  const question = context.question;
  const words = wordsOf(question);
  if (Array.isArray(schema.enum)) {
    const choice = best(schema.enum.filter((item): item is string => typeof item === 'string'), (item) => mentionScore(item, question, words));
    return choice === undefined ? null : { value: choice, reason: `the question mentions "${choice}"` };
  }
  const used = stringsIn(invocation.arguments);
  const captures = selectedCaptures(invocation, context);
  // The time and channel columns are selectors, not measurements; a schema asking for numeric columns gets only those.
  const numericOnly = typeof schema.description === 'string' && /numeric/i.test(schema.description);
  const columns = captures[0]?.columns.filter(
    (column) =>
      !used.has(column.name) &&
      (!numericOnly || column.kind === 'number') &&
      captures.every((capture) => capture.columns.some((other) => other.name === column.name)) &&
      captures.every((capture) => capture.timeColumn !== column.name && capture.channelColumn !== column.name),
  );
  if (!columns || columns.length === 0) return null;
  // A numeric column wins a tie: statistical arguments name measurements.
  const score = (column: { name: string; kind: string }) => mentionScore(column.name, question, words) * 2 + (column.kind === 'number' ? 1 : 0);
  if (schema.type === 'string') {
    const column = best(columns, (candidate) => (mentionScore(candidate.name, question, words) > 0 ? score(candidate) : 0));
    return column ? { value: column.name, reason: `the question's words name the column ${column.name}` } : null;
  }
  if (schema.type === 'array' && isJsonObject(schema.items) && schema.items.type === 'string') {
    const named = columns.filter((column) => mentionScore(column.name, question, words) > 0).map((column) => column.name);
    return named.length > 0 ? { value: named, reason: `the question's words name the columns ${named.join(', ')}` } : null;
  }
  return null;
}

function supportedRange(message: string): { start_ms: number; end_ms: number } | null {
  const match = /supports (-?\d+)-(-?\d+)ms/.exec(message);
  return match ? { start_ms: Number(match[1]), end_ms: Number(match[2]) } : null;
}

/** The range every selected capture supports (the intersection of their bounds). */
function commonBounds(captures: ReadonlyArray<CaptureInfo>): { start_ms: number; end_ms: number } | null {
  if (captures.length === 0) return null;
  const start = Math.max(...captures.map((capture) => capture.bounds.start_ms));
  const end = Math.min(...captures.map((capture) => capture.bounds.end_ms));
  return start <= end ? { start_ms: start, end_ms: end } : null;
}

function clampRange(range: JsonValue | undefined, bounds: { start_ms: number; end_ms: number }): { start_ms: number; end_ms: number } {
  const start = isJsonObject(range) && typeof range.start_ms === 'number' ? range.start_ms : bounds.start_ms;
  const end = isJsonObject(range) && typeof range.end_ms === 'number' ? range.end_ms : bounds.end_ms;
  const clamped = { start_ms: Math.min(Math.max(start, bounds.start_ms), bounds.end_ms), end_ms: Math.max(Math.min(end, bounds.end_ms), bounds.start_ms) };
  return clamped.start_ms <= clamped.end_ms ? clamped : { ...bounds };
}

function timeRangePath(invocation: JsonObject): Segment[] | null {
  const selection = invocation.capture_selection;
  if (!isJsonObject(selection)) return null;
  if (isJsonObject(selection.time_window)) return ['capture_selection', 'time_window'];
  if (isJsonObject(selection.selectors) && isJsonObject(selection.selectors.time_range)) return ['capture_selection', 'selectors', 'time_range'];
  return null;
}

/** A discovered capture to stand in for an unknown one: named by the question, else the one holding the columns the arguments use. */
function replacementCapture(invocation: JsonObject, context: RepairContext, exclude: ReadonlyArray<string>): CaptureInfo | undefined {
  const candidates = context.captures.filter((capture) => !exclude.includes(capture.id));
  const words = wordsOf(context.question);
  const used = stringsIn(invocation.arguments);
  const score = (capture: CaptureInfo) =>
    1 + mentionScore(capture.id, context.question, words) * 1000 + capture.columns.filter((column) => used.has(column.name)).length;
  return best(candidates, score);
}

/** A discovered channel to stand in for an unknown one: one the question names and the list lacks. */
function replacementChannel(captures: ReadonlyArray<CaptureInfo>, current: ReadonlyArray<JsonValue>, context: RepairContext): string | undefined {
  const words = wordsOf(context.question);
  const available = captures[0]?.channels.filter((channel) => captures.every((capture) => capture.channels.includes(channel))) ?? [];
  return available.find((channel) => !current.includes(channel) && mentionScore(channel, context.question, words) === 2);
}

/**
 * The offline repairer (no model): a missing required argument from its schema default or the
 * question's words; a time range clamped to the range the UNSUPPORTED_TIME_RANGE message names
 * (`... supports 0-120000ms`); an unknown capture or channel swapped for a discovered one; a
 * `capture_selection` removed from a call to a tool that reads no capture. It answers null
 * unless it can address every error.
 */
export const repairInvocationOffline: InvocationRepairer = (failed, errors, context) => {
  const invocation = structuredClone(failed);
  const changes: RepairChange[] = [];
  const channelFixes = new Map<number, string | null>();
  for (const error of errors) {
    const path = parsePath(error.field);
    switch (error.code) {
      case 'MISSING_REQUIRED_ARGUMENT': {
        if (path.length === 2 && path[0] === 'arguments' && typeof path[1] === 'string') {
          const found = valueForMissingArgument(path[1], invocation, context);
          if (!found || !isJsonObject(invocation.arguments)) return null;
          invocation.arguments[path[1]] = found.value;
          changes.push({ field: error.field, from: null, to: found.value, reason: `Filled from ${found.reason}.` });
        } else if (error.field === 'tool_version' && context.manifest) {
          invocation.tool_version = context.manifest.version;
          changes.push({ field: 'tool_version', from: null, to: context.manifest.version, reason: 'The newest installed version.' });
        } else {
          return null;
        }
        break;
      }
      case 'UNSUPPORTED_TIME_RANGE': {
        const bounds = supportedRange(error.message) ?? commonBounds(selectedCaptures(invocation, context));
        const rangePath = path.length > 0 && getAt(invocation, path) !== undefined ? path : timeRangePath(invocation);
        if (!bounds || !rangePath) return null;
        const before = getAt(invocation, rangePath) ?? null;
        const after = clampRange(before ?? undefined, bounds);
        setAt(invocation, rangePath, after);
        changes.push({
          field: error.field,
          from: before === null ? null : structuredClone(before),
          to: after,
          reason: `Clamped to the supported range ${bounds.start_ms}-${bounds.end_ms}ms.`,
        });
        break;
      }
      case 'INVALID_CAPTURE_SELECTION': {
        const last = path[path.length - 1];
        const isCapture = error.field === 'capture_selection.capture_id' || (path[1] === 'capture_ids' && typeof last === 'number');
        if (isCapture && /Unknown capture/.test(error.message)) {
          const before = getAt(invocation, path);
          const replacement = replacementCapture(invocation, context, selectedCaptureIds(invocation));
          if (!replacement) return null;
          setAt(invocation, path, replacement.id);
          changes.push({ field: error.field, from: before ?? null, to: replacement.id, reason: `Unknown capture; swapped for the discovered capture ${replacement.id}.` });
        } else if (path[1] === 'selectors' && path[2] === 'channels' && typeof last === 'number' && /Unknown channel/.test(error.message)) {
          if (!channelFixes.has(last)) channelFixes.set(last, null);
        } else {
          return null;
        }
        break;
      }
      case 'UNKNOWN_ARGUMENT': {
        // A selection given to a tool that reads no capture (an MCP server's) is left out: the habit of the other tools' envelopes.
        if (error.field !== 'capture_selection' || context.manifest?.execution_constraints.capture_selection !== 'none' || !('capture_selection' in invocation)) return null;
        const before = invocation.capture_selection;
        delete invocation.capture_selection;
        changes.push({ field: 'capture_selection', from: before, to: null, reason: `${context.manifest.name} reads no capture; the selection is left out.` });
        break;
      }
      default:
        return null;
    }
  }
  if (channelFixes.size > 0 && !applyChannelFixes(invocation, channelFixes, context, changes)) return null;
  clampToSelectedCaptures(invocation, context, changes);
  return changes.length > 0 ? { invocation, changes } : null;
};

/** Swaps each unknown channel for one the question names, else drops it (no channels left: every channel). */
function applyChannelFixes(invocation: JsonObject, fixes: Map<number, string | null>, context: RepairContext, changes: RepairChange[]): boolean {
  const selection = invocation.capture_selection;
  const selectors = isJsonObject(selection) ? selection.selectors : undefined;
  if (!isJsonObject(selectors) || !Array.isArray(selectors.channels)) return false;
  const captures = selectedCaptures(invocation, context);
  const channels = [...selectors.channels];
  const next: JsonValue[] = [];
  channels.forEach((channel, index) => {
    if (!fixes.has(index)) {
      next.push(channel);
      return;
    }
    const replacement = replacementChannel(captures, [...channels, ...next], context);
    const field = `capture_selection.selectors.channels[${index}]`;
    if (replacement) {
      next.push(replacement);
      changes.push({ field, from: channel, to: replacement, reason: `Unknown channel; swapped for the discovered channel ${replacement} that the question names.` });
    } else {
      changes.push({ field, from: channel, to: null, reason: 'Unknown channel; removed.' });
    }
  });
  if (next.length > 0) selectors.channels = next;
  else delete selectors.channels;
  return true;
}

/** After a capture swap the window may lie outside the new capture: clamp it quietly, recording the change. */
function clampToSelectedCaptures(invocation: JsonObject, context: RepairContext, changes: RepairChange[]): void {
  const rangePath = timeRangePath(invocation);
  const ids = selectedCaptureIds(invocation);
  const captures = context.captures.filter((capture) => ids.includes(capture.id));
  const bounds = commonBounds(captures);
  if (!rangePath || !bounds || captures.length !== ids.length) return;
  const before = getAt(invocation, rangePath);
  if (!isJsonObject(before)) return;
  const after = clampRange(before, bounds);
  if (after.start_ms === before.start_ms && after.end_ms === before.end_ms) return;
  setAt(invocation, rangePath, after);
  changes.push({ field: rangePath.join('.'), from: structuredClone(before), to: after, reason: `Clamped to the bounds ${bounds.start_ms}-${bounds.end_ms}ms of the selected captures.` });
}
