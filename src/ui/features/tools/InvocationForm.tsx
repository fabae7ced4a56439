import { formatCount } from '../../components/format.ts';
import type { ReactNode } from 'react';
import type { CaptureInfo, JsonObject, JsonValue, ToolError, ToolManifest } from '../../../core/index.ts';
import { irksOf } from '../../lib/keyring/keyring-model.ts';
import { IrksField } from '../keyring/IrksField.tsx';

interface Props {
  invocation: JsonObject;
  manifests: ToolManifest[];
  captures: CaptureInfo[];
  /** Errors of the last run of this invocation, shown at their fields. */
  errors: ToolError[];
  onChange(next: JsonObject): void;
}

type PropertySchema = { type?: string | string[]; enum?: JsonValue[]; description?: string; items?: { type?: string }; default?: JsonValue };

/**
 * A form over one invocation, built from the chosen tool's `input_schema`. It edits the same
 * JSON the text editor shows; anything it cannot express stays editable as JSON.
 */
export function InvocationForm({ invocation, manifests, captures, errors, onChange }: Props) {
  const toolName = typeof invocation.tool_name === 'string' ? invocation.tool_name : '';
  const manifest = manifests.find((candidate) => candidate.name === toolName);
  const selection = (invocation.capture_selection ?? {}) as JsonObject;
  const isGeneric = !('capture_ids' in selection);
  const selectors = (selection.selectors ?? {}) as JsonObject;
  const timeRange = (selectors.time_range ?? null) as { start_ms: number; end_ms: number } | null;
  const captureId = typeof selection.capture_id === 'string' ? selection.capture_id : '';
  const capture = captures.find((candidate) => candidate.id === captureId);
  const args = (invocation.arguments ?? {}) as JsonObject;
  const properties = ((manifest?.input_schema.properties ?? {}) as Record<string, PropertySchema>);
  const required = new Set((manifest?.input_schema.required ?? []) as string[]);
  const errorAt = (field: string) => errors.filter((error) => error.field === field || error.field.startsWith(`${field}[`));

  const set = (key: string, value: JsonValue | undefined) => {
    const next = { ...invocation };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const setSelectors = (change: JsonObject) => set('capture_selection', { ...selection, selectors: { ...selectors, ...change } });
  const setArgument = (key: string, value: JsonValue | undefined) => {
    const next = { ...args };
    if (value === undefined || value === '') delete next[key];
    else next[key] = value;
    set('arguments', next);
  };

  return (
    <form className="invocation-form" onSubmit={(event) => event.preventDefault()} aria-label="Invocation form">
      <fieldset>
        <legend>Tool</legend>
        <Field label="Tool" errors={errorAt('tool_name')}>
          <select
            value={toolName}
            onChange={(event) => {
              const chosen = manifests.find((candidate) => candidate.name === event.target.value);
              onChange({ ...invocation, tool_name: event.target.value, tool_version: chosen?.version ?? '', arguments: {} });
            }}
          >
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

      {isGeneric ? (
        <fieldset>
          <legend>Capture selection</legend>
          <Field label="Capture" errors={errorAt('capture_selection.capture_id')}>
            <select value={captureId} onChange={(event) => set('capture_selection', { ...selection, capture_id: event.target.value })}>
              <option value="">choose…</option>
              {captures.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.id} ({formatCount(candidate.rowCount)} rows)
                </option>
              ))}
            </select>
          </Field>
          <Field
            label={`Time range (ms)${capture ? `, capture supports ${capture.bounds.start_ms}–${capture.bounds.end_ms}` : ''}`}
            errors={errorAt('capture_selection.selectors.time_range')}
          >
            <span className="inline-inputs">
              <input
                type="number"
                aria-label="start_ms"
                value={timeRange ? String(timeRange.start_ms) : ''}
                onChange={(event) => setSelectors({ time_range: { start_ms: numberOrText(event.target.value), end_ms: timeRange?.end_ms ?? capture?.bounds.end_ms ?? 0 } })}
              />
              <span>to</span>
              <input
                type="number"
                aria-label="end_ms"
                value={timeRange ? String(timeRange.end_ms) : ''}
                onChange={(event) => setSelectors({ time_range: { start_ms: timeRange?.start_ms ?? capture?.bounds.start_ms ?? 0, end_ms: numberOrText(event.target.value) } })}
              />
            </span>
          </Field>
          {capture && capture.channels.length > 0 && (
            <Field label="Channels" errors={errorAt('capture_selection.selectors.channels')}>
              <span className="inline-inputs">
                {capture.channels.map((channel) => {
                  const chosen = Array.isArray(selectors.channels) ? (selectors.channels as string[]) : [];
                  return (
                    <label key={channel} className="checkbox">
                      <input
                        type="checkbox"
                        checked={chosen.includes(channel)}
                        onChange={(event) => setSelectors({ channels: event.target.checked ? [...chosen, channel] : chosen.filter((value) => value !== channel) })}
                      />
                      {channel}
                    </label>
                  );
                })}
              </span>
            </Field>
          )}
          <Field label="Filters (one per line, ANDed)" errors={errorAt('capture_selection.selectors.filters')}>
            <textarea
              rows={2}
              value={Array.isArray(selectors.filters) ? (selectors.filters as string[]).join('\n') : ''}
              onChange={(event) => setSelectors({ filters: event.target.value.split('\n').filter((line) => line.trim() !== '') })}
            />
          </Field>
        </fieldset>
      ) : (
        <p className="muted">This invocation uses the BLE selection shape; edit it as JSON.</p>
      )}

      {manifest && (
        <fieldset>
          <legend>Arguments of {manifest.name}</legend>
          {Object.entries(properties).map(([key, schema]) =>
            key === 'irks' && manifest.name === 'bluetooth_address_analyzer' ? (
              // Not inside a <label>: the picker holds several buttons and checkboxes.
              <div key={key} className={`field${errorAt(`arguments.${key}`).length > 0 ? ' field--invalid' : ''}`}>
                <span className="field__label">{key}</span>
                <IrksField value={irksOf(args)} onChange={(value) => setArgument(key, value)} />
                {schema.description && <span className="field__hint">{schema.description}</span>}
                <FieldErrors errors={errorAt(`arguments.${key}`)} />
              </div>
            ) : (
            <Field key={key} label={`${key}${required.has(key) ? ' *' : ''}`} hint={schema.description} errors={errorAt(`arguments.${key}`)}>
              <ArgumentInput
                testId={`invocation-form.argument.${key}`}
                schema={schema}
                value={args[key]}
                columns={capture?.columns.map((column) => column.name) ?? []}
                onChange={(value) => setArgument(key, value)}
              />
            </Field>
            ),
          )}
        </fieldset>
      )}
    </form>
  );
}

function numberOrText(text: string): JsonValue {
  return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
}

function ArgumentInput({
  testId,
  schema,
  value,
  columns,
  onChange,
}: {
  testId: string;
  schema: PropertySchema;
  value: JsonValue | undefined;
  columns: string[];
  onChange(value: JsonValue | undefined): void;
}) {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum) {
    return (
      <select data-testid={testId} value={value === undefined ? '' : String(value)} onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}>
        <option value="">(not set)</option>
        {schema.enum.map((option) => (
          <option key={String(option)}>{String(option)}</option>
        ))}
      </select>
    );
  }
  if (type === 'boolean') {
    return (
      <select data-testid={testId} value={value === undefined ? '' : String(value)} onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value === 'true')}>
        <option value="">(default{schema.default !== undefined ? `: ${String(schema.default)}` : ''})</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  }
  if (type === 'number' || type === 'integer') {
    return <input data-testid={testId} type="number" step="any" value={value === undefined ? '' : String(value)} onChange={(event) => onChange(event.target.value === '' ? undefined : numberOrText(event.target.value))} />;
  }
  if (type === 'array') {
    return (
      <input
        data-testid={testId}
        placeholder="comma-separated"
        value={Array.isArray(value) ? value.join(', ') : ''}
        onChange={(event) => {
          const items = event.target.value.split(',').map((item) => item.trim()).filter((item) => item !== '');
          onChange(items.length === 0 ? undefined : schema.items?.type === 'number' ? items.map(Number) : items);
        }}
      />
    );
  }
  if (type === 'string' && columns.length > 0) {
    return (
      <>
        <input data-testid={testId} list={`${testId}.columns`} value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value)} />
        <datalist id={`${testId}.columns`}>
          {columns.map((column) => (
            <option key={column} value={column} />
          ))}
        </datalist>
      </>
    );
  }
  return <input data-testid={testId} value={value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)} onChange={(event) => onChange(event.target.value)} />;
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

