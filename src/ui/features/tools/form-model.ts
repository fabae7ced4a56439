import {
  checkSelection,
  closedByDefault,
  isBleSelectionShape,
  isJsonObject,
  normalizeCaptureSelection,
  readCaptureSelection,
  validateAgainstSchema,
  type CaptureInfo,
  type ToolError, type JsonObject, type JsonValue, type ToolManifest } from '../../../core/index.ts';

/**
 * The invocation form's state model, pure and DOM-free: which input each argument gets (from the
 * tool's `input_schema`), what each input does to the invocation, and the arguments a tool
 * suggests. The form's components only render `FormNode`s and dispatch `FormAction`s, so
 * whatever the tests enter through `applyFormAction` is what a user can enter on the page.
 */

export type FieldPath = ReadonlyArray<string | number>;

/** One input of the form, built from one (sub)schema. */
export type FormNode =
  | { kind: 'text'; schema: JsonObject }
  | { kind: 'number'; integer: boolean; schema: JsonObject }
  | { kind: 'boolean'; schema: JsonObject }
  | { kind: 'choice'; options: JsonValue[]; schema: JsonObject }
  | { kind: 'object'; fields: ObjectField[]; schema: JsonObject }
  | { kind: 'list'; item: FormNode; schema: JsonObject }
  /** A schema no structured input can express (`anyOf`, several types, …): its JSON, in a text box at its field. */
  | { kind: 'json'; schema: JsonObject };

export interface ObjectField {
  key: string;
  required: boolean;
  node: FormNode;
}

/** What one input does. Paths are relative to `arguments`. */
export type FormAction =
  /** Text typed into a text, number or JSON input; '' clears the field. */
  | { type: 'input'; path: FieldPath; text: string }
  /** An option picked in a choice (its index), or null for "not set". */
  | { type: 'choose'; path: FieldPath; option: number | null }
  /** true / false, or null for "not set" (the schema's default then applies). */
  | { type: 'check'; path: FieldPath; value: boolean | null }
  | { type: 'add-item'; path: FieldPath }
  | { type: 'remove-item'; path: FieldPath; index: number };

function typesOf(schema: JsonObject): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** The input for a schema. `capture_selection` is never an argument input: the Capture fieldset edits it. */
export function formNodeFor(schema: JsonValue | undefined): FormNode {
  const node = isJsonObject(schema) ? schema : {};
  if (Array.isArray(node.enum) && node.enum.length > 0) return { kind: 'choice', options: node.enum, schema: node };
  if ('const' in node) return { kind: 'choice', options: [node.const], schema: node };
  if (node.anyOf !== undefined || node.oneOf !== undefined) return { kind: 'json', schema: node };
  const types = typesOf(node).filter((type) => type !== 'null');
  const type = types.length === 1 ? types[0] : types.length === 0 && isJsonObject(node.properties) ? 'object' : types.length === 0 && 'items' in node ? 'array' : undefined;
  switch (type) {
    case 'string':
      return { kind: 'text', schema: node };
    case 'number':
    case 'integer':
      return { kind: 'number', integer: type === 'integer', schema: node };
    case 'boolean':
      return { kind: 'boolean', schema: node };
    case 'array':
      return isJsonObject(node.items) ? { kind: 'list', item: formNodeFor(node.items), schema: node } : { kind: 'json', schema: node };
    case 'object': {
      // A map (`additionalProperties` as a schema) has keys the schema does not name: JSON.
      if (isJsonObject(node.additionalProperties) || !isJsonObject(node.properties)) return { kind: 'json', schema: node };
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      const fields = Object.entries(node.properties).map(([key, property]) => ({ key, required: required.has(key), node: formNodeFor(property) }));
      return { kind: 'object', fields, schema: node };
    }
    default:
      return { kind: 'json', schema: node };
  }
}

/** The argument inputs of a manifest: every property of its `input_schema` except `capture_selection`. */
export function argumentsForm(manifest: ToolManifest): Extract<FormNode, { kind: 'object' }> {
  const root = formNodeFor({ ...manifest.input_schema, type: 'object', additionalProperties: false, properties: manifest.input_schema.properties ?? {} });
  if (root.kind !== 'object') return { kind: 'object', fields: [], schema: manifest.input_schema };
  return { ...root, fields: root.fields.filter((field) => field.key !== 'capture_selection') };
}

/** The node at `path` under `root`, or null when the path leaves the form. */
export function nodeAt(root: FormNode, path: FieldPath): FormNode | null {
  let node: FormNode = root;
  for (const segment of path) {
    if (node.kind === 'object' && typeof segment === 'string') {
      const field = node.fields.find((candidate) => candidate.key === segment);
      if (!field) return null;
      node = field.node;
    } else if (node.kind === 'list' && typeof segment === 'number') {
      node = node.item;
    } else {
      return null;
    }
  }
  return node;
}

export function valueAt(value: JsonValue | undefined, path: FieldPath): JsonValue | undefined {
  let current = value;
  for (const segment of path) {
    if (typeof segment === 'number') current = Array.isArray(current) ? current[segment] : undefined;
    else current = isJsonObject(current) ? current[segment] : undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

/** `value` with the value at `path` replaced (undefined removes an object key); containers on the way are created. */
export function setAt(value: JsonValue | undefined, path: FieldPath, next: JsonValue | undefined): JsonValue | undefined {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(value) ? [...value] : [];
    const item = setAt(list[head], rest, next);
    if (item === undefined) list.splice(head, 1);
    else list[head] = item;
    return list;
  }
  const object: JsonObject = isJsonObject(value) ? { ...value } : {};
  const child = setAt(object[head], rest, next);
  if (child === undefined) delete object[head];
  else object[head] = child;
  return object;
}

/**
 * What typed text stands for in an input of this kind. Text that is not a value of the input's
 * type is kept as the string typed, so validation marks the field ("must be number, got string")
 * and nothing typed is lost.
 */
export function parseInput(node: FormNode, text: string): JsonValue | undefined {
  if (text === '') return undefined;
  if (node.kind === 'number') {
    const number = Number(text);
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  if (node.kind === 'json') {
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      return text;
    }
  }
  return text;
}

/** The text an input shows for a value. */
export function inputText(node: FormNode, value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (node.kind === 'json') return typeof value === 'string' ? value : JSON.stringify(value);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** A new list item's first value: an object starts with its required fields' suggestions, anything else empty. */
function newItem(node: FormNode): JsonValue {
  if (node.kind === 'object') return {};
  if (node.kind === 'list') return [];
  if (node.kind === 'boolean') return false;
  if (node.kind === 'choice') return node.options[0];
  if (node.kind === 'number') return 0;
  return '';
}

/** One input's effect on the arguments. */
export function applyFormAction(args: JsonObject, root: FormNode, action: FormAction): JsonObject {
  const node = nodeAt(root, action.path);
  if (!node) return args;
  let next: JsonValue | undefined;
  switch (action.type) {
    case 'input':
      next = setAt(args, action.path, parseInput(node, action.text));
      break;
    case 'choose':
      if (node.kind !== 'choice') return args;
      next = setAt(args, action.path, action.option === null ? undefined : node.options[action.option]);
      break;
    case 'check':
      next = setAt(args, action.path, action.value ?? undefined);
      break;
    case 'add-item': {
      if (node.kind !== 'list') return args;
      const current = valueAt(args, action.path);
      next = setAt(args, action.path, [...(Array.isArray(current) ? current : []), newItem(node.item)]);
      break;
    }
    case 'remove-item': {
      const current = valueAt(args, action.path);
      if (!Array.isArray(current)) return args;
      const rest = current.filter((_, index) => index !== action.index);
      next = setAt(args, action.path, rest.length === 0 && !isRequiredPath(root, action.path) ? undefined : rest);
      break;
    }
  }
  return isJsonObject(next) ? next : {};
}

function isRequiredPath(root: FormNode, path: FieldPath): boolean {
  if (path.length === 0) return true;
  const parent = nodeAt(root, path.slice(0, -1));
  const key = path[path.length - 1];
  return parent?.kind === 'object' && parent.fields.some((field) => field.key === key && field.required);
}

/**
 * The inputs a user makes to enter `value` at `path`, in order, or null when the form cannot
 * express it (a key the schema does not name, a value the input's kind cannot produce). The
 * property test replays them through `applyFormAction`.
 */
export function actionsToEnter(node: FormNode, value: JsonValue, path: FieldPath = []): FormAction[] | null {
  switch (node.kind) {
    case 'text':
      return typeof value === 'string' && value !== '' ? [{ type: 'input', path, text: value }] : null;
    case 'number':
      return typeof value === 'number' && Number(String(value)) === value ? [{ type: 'input', path, text: String(value) }] : null;
    case 'boolean':
      return typeof value === 'boolean' ? [{ type: 'check', path, value }] : null;
    case 'choice': {
      const index = node.options.findIndex((option) => JSON.stringify(option) === JSON.stringify(value));
      return index >= 0 ? [{ type: 'choose', path, option: index }] : null;
    }
    case 'json':
      // Only text that reads back as the value: a string that parses as other JSON would not.
      return [{ type: 'input', path, text: JSON.stringify(value) }];
    case 'list': {
      if (!Array.isArray(value)) return null;
      const actions: FormAction[] = [];
      for (let index = 0; index < value.length; index++) {
        actions.push({ type: 'add-item', path });
        const item = actionsToEnter(node.item, value[index], [...path, index]);
        if (!item) return null;
        actions.push(...item);
      }
      return actions;
    }
    case 'object': {
      if (!isJsonObject(value)) return null;
      const actions: FormAction[] = [];
      for (const [key, child] of Object.entries(value)) {
        const field = node.fields.find((candidate) => candidate.key === key);
        if (!field) return null;
        const entered = actionsToEnter(field.node, child, [...path, key]);
        if (!entered) return null;
        actions.push(...entered);
      }
      return actions;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Suggestions

/** Normalized BLE column names (docs/capture-schema.md) that an `address_columns` field of the same name takes. */
const COLUMN_FIELD = /(_addr|_column|^column)$/;

/**
 * The value a required argument starts with: the schema's `default`, else its first `examples`
 * entry, else (an object) its required fields' suggestions; for an object of column names, the
 * capture's column of the same name. Undefined when the manifest documents nothing.
 */
export function suggestedValue(schema: JsonValue | undefined, capture: CaptureInfo | undefined): JsonValue | undefined {
  if (!isJsonObject(schema)) return undefined;
  const columns = new Set(capture?.columns.map((column) => column.name) ?? []);
  if (isJsonObject(schema.properties) && typesOf(schema).includes('object')) {
    const example = Array.isArray(schema.examples) && isJsonObject(schema.examples[0]) ? schema.examples[0] : isJsonObject(schema.default) ? schema.default : {};
    const suggested: JsonObject = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const fromExample = example[name];
      // A column name is only suggested when this capture has that column.
      if (COLUMN_FIELD.test(name) && capture) {
        const column = typeof fromExample === 'string' && columns.has(fromExample) ? fromExample : columns.has(name) ? name : undefined;
        if (column !== undefined) suggested[name] = column;
        continue;
      }
      const value = fromExample ?? suggestedValue(property, capture);
      if (value !== undefined) suggested[name] = value;
    }
    return Object.keys(suggested).length > 0 ? suggested : undefined;
  }
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  return undefined;
}

/** Every required argument's suggestion (see `suggestedValue`), for a new invocation of `manifest`. */
export function suggestedArguments(manifest: ToolManifest, capture: CaptureInfo | undefined): JsonObject {
  const properties = isJsonObject(manifest.input_schema.properties) ? manifest.input_schema.properties : {};
  const required = Array.isArray(manifest.input_schema.required) ? manifest.input_schema.required : [];
  const args: JsonObject = {};
  for (const key of required) {
    if (typeof key !== 'string' || key === 'capture_selection') continue;
    const value = suggestedValue(properties[key], capture);
    if (value !== undefined) args[key] = value;
  }
  return args;
}

// ---------------------------------------------------------------------------------------------
// The Capture fieldset: `capture_selection` in either envelope shape

export type SelectionShape = 'generic' | 'ble';

/** What the Capture fieldset's inputs do to `capture_selection`. */
export type SelectionAction =
  /** Rewrites the selection in the other shape, keeping its captures, window and filters. */
  | { type: 'shape'; shape: SelectionShape }
  /** The chosen captures (the generic shape takes one). */
  | { type: 'captures'; ids: string[] }
  /** The window's start and end as typed; both '' removes the window (generic shape only). */
  | { type: 'time'; start: string; end: string }
  | { type: 'channels'; channels: string[] }
  /** One filter per line; the BLE shape's single `filter_expression` is the one text. */
  | { type: 'filters'; text: string };

export function selectionShapeOf(selection: JsonValue | undefined): SelectionShape {
  return isJsonObject(selection) && isBleSelectionShape(selection) ? 'ble' : 'generic';
}

/** Whether the tool reads no capture (`execution_constraints.capture_selection: none`, e.g. an MCP server's tool): its invocations carry no `capture_selection`. */
export function readsNoCapture(manifest: ToolManifest | undefined): boolean {
  return manifest?.execution_constraints.capture_selection === 'none';
}

/** The shape a manifest's declared `capture_selection` argument uses (the generic one when it declares none). */
export function declaredSelectionShape(manifest: ToolManifest | undefined): SelectionShape {
  const declared = isJsonObject(manifest?.input_schema.properties) ? manifest.input_schema.properties.capture_selection : undefined;
  if (!isJsonObject(declared)) return 'generic';
  const keys = [...(isJsonObject(declared.properties) ? Object.keys(declared.properties) : []), ...(Array.isArray(declared.required) ? declared.required : [])];
  return keys.includes('capture_ids') || keys.includes('time_window') ? 'ble' : 'generic';
}

/** A selection of one capture and its whole time span, in `shape`. */
export function selectionForCapture(shape: SelectionShape, capture: CaptureInfo | undefined): JsonObject {
  if (!capture) return shape === 'ble' ? { capture_ids: [], time_window: { start_ms: 0, end_ms: 0 } } : { capture_id: '', selectors: {} };
  // The BLE shape's window is whole milliseconds: round inwards, so it stays inside the bounds.
  const window = { start_ms: Math.ceil(capture.bounds.start_ms), end_ms: Math.floor(capture.bounds.end_ms) };
  return shape === 'ble' ? { capture_ids: [capture.id], time_window: window } : { capture_id: capture.id, selectors: { time_range: { ...capture.bounds } } };
}

function numberOrText(text: string): JsonValue {
  return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
}

/** One Capture-fieldset input's effect on `capture_selection`. */
export function applySelectionAction(selection: JsonValue | undefined, action: SelectionAction, captures: ReadonlyArray<CaptureInfo>): JsonObject {
  const current: JsonObject = isJsonObject(selection) ? selection : { capture_id: '', selectors: {} };
  const shape = selectionShapeOf(current);
  const selectors = isJsonObject(current.selectors) ? current.selectors : {};
  switch (action.type) {
    case 'shape': {
      if (action.shape === shape) return current;
      const read = readCaptureSelection(current);
      const ids = read?.captures.map((capture) => capture.id) ?? [];
      const filters = read?.filters.map((filter) => filter.expression) ?? [];
      if (action.shape === 'ble') {
        const fallback = selectionForCapture('ble', captures.find((capture) => capture.id === ids[0]));
        const next: JsonObject = { capture_ids: ids.filter((id) => id !== ''), time_window: read?.timeRange ? { ...read.timeRange.range } : fallback.time_window };
        if (filters.length > 0) next.filter_expression = filters.length === 1 ? filters[0] : filters.map((filter) => `(${filter})`).join(' AND ');
        return next;
      }
      const nextSelectors: JsonObject = {};
      if (read?.timeRange) nextSelectors.time_range = { ...read.timeRange.range };
      if (filters.length > 0) nextSelectors.filters = filters;
      return { capture_id: ids[0] ?? '', selectors: nextSelectors };
    }
    case 'captures':
      if (shape === 'ble') return { ...current, capture_ids: [...action.ids] };
      return { ...current, capture_id: action.ids[0] ?? '' };
    case 'time': {
      const range = action.start === '' && action.end === '' ? undefined : { start_ms: numberOrText(action.start), end_ms: numberOrText(action.end) };
      if (shape === 'ble') return range ? { ...current, time_window: range } : current;
      const { time_range: _old, ...rest } = selectors;
      return { ...current, selectors: range ? { ...rest, time_range: range } : rest };
    }
    case 'channels': {
      if (shape === 'ble') return current;
      const { channels: _old, ...rest } = selectors;
      return { ...current, selectors: action.channels.length > 0 ? { ...rest, channels: [...action.channels] } : rest };
    }
    case 'filters': {
      const lines = action.text.split('\n').filter((line) => line.trim() !== '');
      if (shape === 'ble') {
        const { filter_expression: _old, ...rest } = current;
        return action.text.trim() === '' ? rest : { ...rest, filter_expression: action.text };
      }
      const { filters: _old, ...rest } = selectors;
      return { ...current, selectors: lines.length > 0 ? { ...rest, filters: lines } : rest };
    }
  }
}

/** The Capture-fieldset inputs that enter `selection` from a new one in its shape, or null when they cannot. */
export function selectionActionsToEnter(selection: JsonValue): SelectionAction[] | null {
  if (!isJsonObject(selection)) return null;
  const shape = selectionShapeOf(selection);
  const read = readCaptureSelection(selection);
  if (!read) return null;
  const actions: SelectionAction[] = [{ type: 'shape', shape }, { type: 'captures', ids: read.captures.map((capture) => capture.id) }];
  if (read.timeRange) actions.push({ type: 'time', start: String(read.timeRange.range.start_ms), end: String(read.timeRange.range.end_ms) });
  if (read.channels) actions.push({ type: 'channels', channels: read.channels.values });
  if (read.filters.length > 0) actions.push({ type: 'filters', text: read.filters.map((filter) => filter.expression).join('\n') });
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Problems shown before Run

const argumentSchemas = new WeakMap<ToolManifest, JsonObject>();

/** The manifest's `input_schema` without `capture_selection` (the envelope's selection stands for it), closed as execution closes it. */
function argumentSchema(manifest: ToolManifest): JsonObject {
  let schema = argumentSchemas.get(manifest);
  if (!schema) {
    const { capture_selection: _selection, ...properties } = isJsonObject(manifest.input_schema.properties) ? manifest.input_schema.properties : {};
    const required = Array.isArray(manifest.input_schema.required) ? manifest.input_schema.required.filter((key) => key !== 'capture_selection') : [];
    schema = closedByDefault({ ...manifest.input_schema, properties, required });
    argumentSchemas.set(manifest, schema);
  }
  return schema;
}

/**
 * What the executor would refuse in this invocation's arguments and selection, at the fields
 * the form shows them (a value of the wrong shape, a missing required argument, a capture that
 * does not exist, a window outside the capture), computed as the user types.
 */
export function formProblems(invocation: JsonObject, manifest: ToolManifest | undefined, captures: ReadonlyArray<CaptureInfo>): ToolError[] {
  const problems: ToolError[] = [];
  const selection = normalizeCaptureSelection(invocation.capture_selection);
  if (manifest && readsNoCapture(manifest)) {
    if ('capture_selection' in invocation) problems.push({ code: 'UNKNOWN_ARGUMENT', field: 'capture_selection', message: `${manifest.name} reads no capture: leave capture_selection out of its invocations` });
  } else if (!selection.ok) problems.push(...selection.errors);
  else {
    const byId = new Map(captures.map((capture) => [capture.id, capture]));
    problems.push(...checkSelection(selection.value, { get: (id) => byId.get(id), ids: () => [...byId.keys()] }));
  }
  if (manifest) {
    const args = isJsonObject(invocation.arguments) ? invocation.arguments : {};
    problems.push(...validateAgainstSchema(argumentSchema(manifest), args, { prefix: ['arguments'], typeErrorCode: 'INVALID_TYPE' }));
  }
  return problems;
}
