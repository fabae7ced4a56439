import { useMemo, type ReactNode } from 'react';
import { formatFieldPath, isJsonObject, type CaptureInfo, type JsonObject, type JsonValue, type ToolError, type ToolManifest } from '../../../core/index.ts';
import { formatCount } from '../../components/format.ts';
import { irksOf } from '../../lib/keyring/keyring-model.ts';
import { IrksField } from '../keyring/IrksField.tsx';
import {
  applyFormAction,
  applySelectionAction,
  argumentsForm,
  declaredSelectionShape,
  formProblems,
  readsNoCapture,
  inputText,
  selectionForCapture,
  selectionShapeOf,
  suggestedArguments,
  valueAt,
  type FieldPath,
  type FormAction,
  type FormNode,
  type SelectionAction,
} from './form-model.ts';

interface Props {
  invocation: JsonObject;
  manifests: ToolManifest[];
  captures: CaptureInfo[];
  /** Errors of the last run of this invocation, shown at their fields. */
  errors: ToolError[];
  onChange(next: JsonObject): void;
}

/**
 * A form over one invocation, built from the chosen tool's `input_schema` by the form model
 * (`form-model.ts`): every argument gets a structured input (objects as nested fieldsets, arrays
 * as item lists, enums as choices), the envelope's `capture_selection` is the Capture fieldset in
 * either shape, and what the executor would refuse is marked at its field as the user types.
 */
export function InvocationForm({ invocation, manifests, captures, errors, onChange }: Props) {
  const toolName = typeof invocation.tool_name === 'string' ? invocation.tool_name : '';
  const manifest = manifests.find((candidate) => candidate.name === toolName && candidate.version === invocation.tool_version) ?? manifests.find((candidate) => candidate.name === toolName);
  const selection = isJsonObject(invocation.capture_selection) ? invocation.capture_selection : selectionForCapture('generic', undefined);
  const shape = selectionShapeOf(selection);
  const selectedIds = shape === 'ble' ? (Array.isArray(selection.capture_ids) ? selection.capture_ids.filter((id): id is string => typeof id === 'string') : []) : typeof selection.capture_id === 'string' ? [selection.capture_id] : [];
  const capture = captures.find((candidate) => candidate.id === selectedIds[0]);
  const args = isJsonObject(invocation.arguments) ? invocation.arguments : {};
  const root = useMemo(() => (manifest ? argumentsForm(manifest) : null), [manifest]);
  const live = useMemo(() => formProblems(invocation, manifest, captures), [invocation, manifest, captures]);
  // The last run's errors, and what would be refused now; one message per field and code.
  const problems = useMemo(() => {
    const seen = new Set<string>();
    return [...live, ...errors].filter((error) => {
      const key = `${error.code}\u0000${error.field}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }, [live, errors]);
  const errorAt = (field: string) => problems.filter((error) => error.field === field);
  const errorUnder = (field: string) => problems.filter((error) => error.field === field || error.field.startsWith(`${field}.`) || error.field.startsWith(`${field}[`));

  const set = (key: string, value: JsonValue | undefined) => {
    const next = { ...invocation };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const selectionAction = (action: SelectionAction) => set('capture_selection', applySelectionAction(selection, action, captures));
  const dispatch = (action: FormAction) => {
    if (root) set('arguments', applyFormAction(args, root, action));
  };
  const chooseTool = (name: string) => {
    const chosen = manifests.find((candidate) => candidate.name === name);
    const wanted = declaredSelectionShape(chosen);
    const nextSelection = wanted === shape ? selection : applySelectionAction(selection, { type: 'shape', shape: wanted }, captures);
    const { capture_selection: _dropped, ...withoutSelection } = invocation;
    const base = readsNoCapture(chosen) ? withoutSelection : { ...invocation, capture_selection: nextSelection };
    onChange({ ...base, tool_name: name, tool_version: chosen?.version ?? '', arguments: chosen ? suggestedArguments(chosen, capture) : {} });
  };
  const columns = capture?.columns.map((column) => column.name) ?? [];
  const timeRange = shape === 'ble' ? selection.time_window : isJsonObject(selection.selectors) ? selection.selectors.time_range : undefined;
  const start = isJsonObject(timeRange) ? inputText({ kind: 'number', integer: false, schema: {} }, timeRange.start_ms) : '';
  const end = isJsonObject(timeRange) ? inputText({ kind: 'number', integer: false, schema: {} }, timeRange.end_ms) : '';
  const selectors = isJsonObject(selection.selectors) ? selection.selectors : {};
  const timeField = shape === 'ble' ? 'capture_selection.time_window' : 'capture_selection.selectors.time_range';

  return (
    <form className="invocation-form" onSubmit={(event) => event.preventDefault()} aria-label="Invocation form">
      <fieldset>
        <legend>Tool</legend>
        <Field label="Tool" errors={errorAt('tool_name')}>
          <select value={toolName} onChange={(event) => chooseTool(event.target.value)} data-testid="invocation-form.tool">
            <option value="">choose…</option>
            {[...new Set(manifests.map((candidate) => candidate.name))].map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </Field>
        <Field label="Version" errors={errorAt('tool_version')}>
          <input value={String(invocation.tool_version ?? '')} onChange={(event) => set('tool_version', event.target.value)} />
        </Field>
        <Field label="Timeout (ms)" errors={errorAt('timeout_ms')}>
          <input type="number" value={String(invocation.timeout_ms ?? '')} onChange={(event) => set('timeout_ms', numberOrText(event.target.value))} />
        </Field>
      </fieldset>

      {readsNoCapture(manifest) ? (
        <p className="muted small" data-testid="invocation-form.no-capture">
          {manifest?.name} reads no capture: only its arguments are sent.
        </p>
      ) : (
        <fieldset data-testid="invocation-form.capture">
          <legend>Capture</legend>
          <div className="inline-inputs" role="radiogroup" aria-label="Selection shape">
            <label className="checkbox">
              <input type="radio" name="selection-shape" checked={shape === 'generic'} onChange={() => selectionAction({ type: 'shape', shape: 'generic' })} data-testid="invocation-form.shape.generic" />
              One capture <code className="small">{'{capture_id, selectors}'}</code>
            </label>
            <label className="checkbox">
              <input type="radio" name="selection-shape" checked={shape === 'ble'} onChange={() => selectionAction({ type: 'shape', shape: 'ble' })} data-testid="invocation-form.shape.ble" />
              Captures and a window <code className="small">{'{capture_ids, time_window}'}</code>
            </label>
          </div>
          {shape === 'generic' ? (
            <Field label="Capture" errors={errorUnder('capture_selection.capture_id')}>
              <select value={selectedIds[0] ?? ''} onChange={(event) => selectionAction({ type: 'captures', ids: [event.target.value] })} data-testid="invocation-form.capture-id">
                <option value="">choose…</option>
                {captures.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.id} ({formatCount(candidate.rowCount)} rows)
                  </option>
                ))}
              </select>
            </Field>
          ) : (
            <div className={`field${errorUnder('capture_selection.capture_ids').length > 0 ? ' field--invalid' : ''}`} role="group" aria-labelledby="invocation-form-captures">
              <span className="field__label" id="invocation-form-captures">
                Captures
              </span>
              <span className="inline-inputs">
                {captures.map((candidate) => (
                  <label key={candidate.id} className="checkbox">
                    <input
                      type="checkbox"
                      checked={selectedIds.includes(candidate.id)}
                      onChange={(event) => selectionAction({ type: 'captures', ids: event.target.checked ? [...selectedIds, candidate.id] : selectedIds.filter((id) => id !== candidate.id) })}
                    />
                    {candidate.id}
                  </label>
                ))}
              </span>
              <FieldErrors errors={errorUnder('capture_selection.capture_ids')} />
            </div>
          )}
          <div className={`field${errorUnder(timeField).length > 0 ? ' field--invalid' : ''}`} role="group" aria-labelledby="invocation-form-time">
            <span className="field__label" id="invocation-form-time">
              Time {shape === 'ble' ? 'window' : 'range'} (ms){capture ? `, capture supports ${capture.bounds.start_ms}–${capture.bounds.end_ms}` : ''}
            </span>
            <span className="inline-inputs">
              <input type="number" aria-label="start_ms" value={start} onChange={(event) => selectionAction({ type: 'time', start: event.target.value, end })} />
              <span>to</span>
              <input type="number" aria-label="end_ms" value={end} onChange={(event) => selectionAction({ type: 'time', start, end: event.target.value })} />
              {capture && (
                <button type="button" className="link-button" onClick={() => selectionAction({ type: 'time', start: String(Math.ceil(capture.bounds.start_ms)), end: String(Math.floor(capture.bounds.end_ms)) })}>
                  whole capture
                </button>
              )}
            </span>
            <FieldErrors errors={errorUnder(timeField)} />
          </div>
          {shape === 'generic' && capture && capture.channels.length > 0 && (
            <div className={`field${errorUnder('capture_selection.selectors.channels').length > 0 ? ' field--invalid' : ''}`} role="group" aria-labelledby="invocation-form-channels">
              <span className="field__label" id="invocation-form-channels">
                Channels
              </span>
              <span className="inline-inputs">
                {capture.channels.map((channel) => {
                  const chosen = Array.isArray(selectors.channels) ? selectors.channels.filter((value): value is string => typeof value === 'string') : [];
                  return (
                    <label key={channel} className="checkbox">
                      <input
                        type="checkbox"
                        checked={chosen.includes(channel)}
                        onChange={(event) => selectionAction({ type: 'channels', channels: event.target.checked ? [...chosen, channel] : chosen.filter((value) => value !== channel) })}
                      />
                      {channel}
                    </label>
                  );
                })}
              </span>
              <FieldErrors errors={errorUnder('capture_selection.selectors.channels')} />
            </div>
          )}
          {shape === 'generic' ? (
            <Field label="Filters (one per line, ANDed)" errors={errorUnder('capture_selection.selectors.filters')}>
              <textarea
                rows={2}
                value={Array.isArray(selectors.filters) ? selectors.filters.filter((line): line is string => typeof line === 'string').join('\n') : ''}
                onChange={(event) => selectionAction({ type: 'filters', text: event.target.value })}
              />
            </Field>
          ) : (
            <Field label="Filter expression" errors={errorAt('capture_selection.filter_expression')}>
              <input value={typeof selection.filter_expression === 'string' ? selection.filter_expression : ''} onChange={(event) => selectionAction({ type: 'filters', text: event.target.value })} />
            </Field>
          )}
          <FieldErrors errors={errorAt('capture_selection')} />
        </fieldset>
      )}

      {manifest && root && (
        <fieldset data-testid="invocation-form.arguments">
          <legend>Arguments of {manifest.name}</legend>
          {root.fields.map((field) =>
            field.key === 'irks' && manifest.name === 'bluetooth_address_analyzer' ? (
              // Not inside a <label>: the picker holds several buttons and checkboxes.
              <div key={field.key} className={`field${errorUnder('arguments.irks').length > 0 ? ' field--invalid' : ''}`}>
                <span className="field__label">{field.key}</span>
                <IrksField value={irksOf(args)} onChange={(value) => set('arguments', value === undefined ? withoutKey(args, 'irks') : { ...args, irks: value })} />
                {typeof field.node.schema.description === 'string' && <span className="field__hint">{field.node.schema.description}</span>}
                <FieldErrors errors={errorUnder('arguments.irks')} />
              </div>
            ) : (
              <NodeInput key={field.key} node={field.node} path={[field.key]} label={field.key} required={field.required} args={args} columns={columns} errorAt={errorAt} dispatch={dispatch} />
            ),
          )}
          <FieldErrors errors={problems.filter((error) => error.field === 'arguments' || (error.field.startsWith('arguments.') && !root.fields.some((field) => error.field === `arguments.${field.key}` || error.field.startsWith(`arguments.${field.key}.`) || error.field.startsWith(`arguments.${field.key}[`))))} />
        </fieldset>
      )}
    </form>
  );
}

function withoutKey(object: JsonObject, key: string): JsonObject {
  const { [key]: _removed, ...rest } = object;
  return rest;
}

function numberOrText(text: string): JsonValue {
  return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
}

/** A field of an object of column names (`address_columns.advertiser_addr`): a picker over the capture's own columns. */
function inColumnsObject(path: FieldPath): boolean {
  return path.slice(0, -1).some((segment) => typeof segment === 'string' && /columns$/.test(segment));
}

/** Bounds of a number input, in words. */
function boundsHint(schema: JsonObject): string {
  const parts: string[] = [];
  if (typeof schema.minimum === 'number') parts.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === 'number') parts.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === 'number') parts.push(`≤ ${schema.maximum}`);
  if (typeof schema.exclusiveMaximum === 'number') parts.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.multipleOf === 'number') parts.push(`multiple of ${schema.multipleOf}`);
  return parts.join(', ');
}

interface NodeProps {
  node: FormNode;
  path: FieldPath;
  label: string;
  required: boolean;
  args: JsonObject;
  columns: string[];
  errorAt(field: string): ToolError[];
  dispatch(action: FormAction): void;
}

/** One argument (or part of one) as its input; objects and lists nest. */
function NodeInput({ node, path, label, required, args, columns, errorAt, dispatch }: NodeProps) {
  const field = formatFieldPath(['arguments', ...path]);
  const value = valueAt(args, path);
  const errors = errorAt(field);
  const testId = `invocation-form.argument.${path.join('.')}`;
  const description = typeof node.schema.description === 'string' ? node.schema.description : undefined;
  const title = `${label}${required ? ' *' : ''}`;

  if (node.kind === 'object' || node.kind === 'list') {
    const items = node.kind === 'list' && Array.isArray(value) ? value : [];
    return (
      <fieldset className={`invocation-form__group${errors.length > 0 ? ' field--invalid' : ''}`} data-testid={testId}>
        <legend>{title}</legend>
        {description && <p className="field__hint">{description}</p>}
        <FieldErrors errors={errors} />
        {node.kind === 'object'
          ? node.fields.map((child) => (
              <NodeInput key={child.key} node={child.node} path={[...path, child.key]} label={child.key} required={child.required} args={args} columns={columns} errorAt={errorAt} dispatch={dispatch} />
            ))
          : items.map((_, index) => (
              <div key={index} className="invocation-form__item">
                <NodeInput node={node.item} path={[...path, index]} label={`${label}[${index}]`} required={false} args={args} columns={columns} errorAt={errorAt} dispatch={dispatch} />
                <button type="button" className="link-button" onClick={() => dispatch({ type: 'remove-item', path, index })} aria-label={`Remove ${label}[${index}]`}>
                  remove
                </button>
              </div>
            ))}
        {node.kind === 'list' && (
          <button type="button" onClick={() => dispatch({ type: 'add-item', path })} data-testid={`${testId}.add`}>
            Add {label} item
          </button>
        )}
      </fieldset>
    );
  }

  let input: ReactNode;
  if (node.kind === 'choice') {
    const index = node.options.findIndex((option) => JSON.stringify(option) === JSON.stringify(value));
    input = (
      <select data-testid={testId} value={index < 0 ? '' : String(index)} onChange={(event) => dispatch({ type: 'choose', path, option: event.target.value === '' ? null : Number(event.target.value) })}>
        <option value="">(not set)</option>
        {node.options.map((option, at) => (
          <option key={at} value={String(at)}>
            {typeof option === 'string' ? option : JSON.stringify(option)}
          </option>
        ))}
      </select>
    );
  } else if (node.kind === 'boolean') {
    const fallback = node.schema.default;
    input = (
      <select data-testid={testId} value={typeof value === 'boolean' ? String(value) : ''} onChange={(event) => dispatch({ type: 'check', path, value: event.target.value === '' ? null : event.target.value === 'true' })}>
        <option value="">(default{fallback !== undefined ? `: ${String(fallback)}` : ''})</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  } else if (node.kind === 'text' && columns.length > 0 && inColumnsObject(path)) {
    const current = typeof value === 'string' ? value : '';
    input = (
      <select data-testid={testId} value={current} onChange={(event) => dispatch({ type: 'input', path, text: event.target.value })}>
        <option value="">(not set)</option>
        {current !== '' && !columns.includes(current) && <option value={current}>{current} (not a column of this capture)</option>}
        {columns.map((column) => (
          <option key={column} value={column}>
            {column}
          </option>
        ))}
      </select>
    );
  } else if (node.kind === 'json') {
    input = <textarea data-testid={testId} rows={2} spellCheck={false} value={inputText(node, value)} onChange={(event) => dispatch({ type: 'input', path, text: event.target.value })} />;
  } else if (node.kind === 'text' && columns.length > 0) {
    // Any other text may name a column (`target`, `group_by`): the capture's columns are offered, free text allowed.
    input = (
      <>
        <input data-testid={testId} list={`${testId}.columns`} value={inputText(node, value)} onChange={(event) => dispatch({ type: 'input', path, text: event.target.value })} />
        <datalist id={`${testId}.columns`}>
          {columns.map((column) => (
            <option key={column} value={column} />
          ))}
        </datalist>
      </>
    );
  } else {
    const numeric = node.kind === 'number' && (value === undefined || typeof value === 'number');
    const hint = node.kind === 'number' ? boundsHint(node.schema) : '';
    input = (
      <input
        data-testid={testId}
        type={numeric ? 'number' : 'text'}
        step={node.kind === 'number' ? (node.integer ? 1 : 'any') : undefined}
        min={node.kind === 'number' && typeof node.schema.minimum === 'number' ? node.schema.minimum : undefined}
        max={node.kind === 'number' && typeof node.schema.maximum === 'number' ? node.schema.maximum : undefined}
        placeholder={hint || undefined}
        value={inputText(node, value)}
        onChange={(event) => dispatch({ type: 'input', path, text: event.target.value })}
      />
    );
  }
  const examples = Array.isArray(node.schema.examples) && node.schema.examples.length > 0 ? node.schema.examples : null;
  const hintText = [description, node.kind === 'number' ? boundsHint(node.schema) : '', examples ? `suggested: ${examples.map((example) => JSON.stringify(example)).join(', ')}` : '']
    .filter(Boolean)
    .join(' · ');
  return (
    <Field label={title} hint={hintText || undefined} errors={errors}>
      {input}
    </Field>
  );
}

function Field({ label, hint, errors, children }: { label: string; hint?: string; errors: ToolError[]; children: ReactNode }) {
  return (
    <label className={`field${errors.length > 0 ? ' field--invalid' : ''}`}>
      <span className="field__label">{label}</span>
      {children}
      {hint && <span className="field__hint">{hint}</span>}
      <FieldErrors errors={errors} />
    </label>
  );
}

function FieldErrors({ errors }: { errors: ToolError[] }) {
  return errors.map((error, index) => (
    <span key={index} className="field__error" role="alert">
      {error.code}: {error.message}
    </span>
  ));
}
