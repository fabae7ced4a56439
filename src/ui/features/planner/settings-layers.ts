/** Where an effective planner setting came from: defaults < workspace < this run (spec README decision 9). */
export type SettingLayer = 'default' | 'workspace' | 'run';

export interface LayeredValue<V> {
  value: V;
  layer: SettingLayer;
}

export type Layered<T> = { [K in keyof T]: LayeredValue<T[K]> };

/**
 * The effective settings and, for each, the layer that set it. A layer sets a key when it holds
 * a value for it that is not undefined; keys that the defaults do not know are ignored, so a
 * stale workspace entry cannot add settings.
 */
export function layerSettings<T extends object>(defaults: T, workspace: Partial<T>, run: Partial<T>): Layered<T> {
  const out = {} as Layered<T>;
  for (const key of Object.keys(defaults) as Array<keyof T>) {
    if (run[key] !== undefined) out[key] = { value: run[key] as T[typeof key], layer: 'run' };
    else if (workspace[key] !== undefined) out[key] = { value: workspace[key] as T[typeof key], layer: 'workspace' };
    else out[key] = { value: defaults[key], layer: 'default' };
  }
  return out;
}

/** The plain values of a layered settings object. */
export function effectiveSettings<T extends object>(layered: Layered<T>): T {
  const out = {} as T;
  for (const key of Object.keys(layered) as Array<keyof T>) out[key] = layered[key].value;
  return out;
}

/** How the settings form describes one field. */
export interface SettingField {
  key: string;
  label: string;
  hint: string;
  /** Numbers are integers (within [min, max] when given); choices list the allowed strings. */
  kind: { type: 'integer'; min?: number; max?: number } | { type: 'choice'; choices: ReadonlyArray<string> };
  /** The owner's own rule for a parsed value (the planner's: core's `checkPlannerSettings`); a message when it is refused. */
  check?: (value: number | string) => string | null;
}

/**
 * Parses what the user typed for one field: undefined for an empty box (the layer below
 * applies), else the value or a message saying what is wrong.
 */
export function parseSettingInput(field: SettingField, text: string): { ok: true; value: number | string | undefined } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  const checked = (value: number | string): { ok: true; value: number | string } | { ok: false; message: string } => {
    const problem = field.check?.(value) ?? null;
    return problem === null ? { ok: true, value } : { ok: false, message: problem };
  };
  if (field.kind.type === 'choice') {
    return field.kind.choices.includes(trimmed) ? checked(trimmed) : { ok: false, message: `${field.label} is one of ${field.kind.choices.join(', ')}` };
  }
  const number = Number(trimmed);
  if (!Number.isInteger(number)) return { ok: false, message: `${field.label} is a whole number` };
  const { min, max } = field.kind;
  if ((min !== undefined && number < min) || (max !== undefined && number > max)) return { ok: false, message: `${field.label} is between ${min ?? '−∞'} and ${max ?? '∞'}` };
  return checked(number);
}
