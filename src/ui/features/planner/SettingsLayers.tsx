import { useState } from 'react';
import { layerSettings, parseSettingInput, type SettingField, type SettingLayer } from './settings-layers.ts';

export type SettingValues = Record<string, number | string>;

const LAYER_LABEL: Record<SettingLayer, string> = { default: 'default', workspace: 'workspace', run: 'this run' };

interface Props {
  fields: ReadonlyArray<SettingField>;
  defaults: SettingValues;
  workspace: Partial<SettingValues>;
  run: Partial<SettingValues>;
  onRunChange: (next: Partial<SettingValues>) => void;
  /** Saves a value (undefined: clears it) in the workspace layer. */
  onWorkspaceChange: (next: Partial<SettingValues>) => void;
}

/**
 * The planner settings as three layers, defaults < workspace < this run, each row saying which
 * layer its effective value comes from. Empty boxes fall through to the layer below.
 */
export function SettingsLayers({ fields, defaults, workspace, run, onRunChange, onWorkspaceChange }: Props) {
  const layered = layerSettings(defaults, workspace, run);
  return (
    <table className="data-table planner-settings" data-testid="planner.settings" tabIndex={0}>
      <thead>
        <tr>
          <th scope="col">Setting</th>
          <th scope="col">Default</th>
          <th scope="col">Workspace</th>
          <th scope="col">This run</th>
          <th scope="col">Effective</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => {
          const effective = layered[field.key];
          return (
            <tr key={field.key} data-testid={`planner.setting.${field.key}`} data-layer={effective?.layer}>
              <th scope="row" title={field.hint}>
                {field.label}
              </th>
              <td className="muted">{String(defaults[field.key])}</td>
              <td>
                <SettingInput field={field} value={workspace[field.key]} testId={`planner.setting.${field.key}.workspace`} onChange={(value) => onWorkspaceChange({ ...workspace, [field.key]: value })} />
              </td>
              <td>
                <SettingInput field={field} value={run[field.key]} testId={`planner.setting.${field.key}.run`} onChange={(value) => onRunChange({ ...run, [field.key]: value })} />
              </td>
              <td>
                <strong>{String(effective?.value)}</strong>{' '}
                <span className={`tag layer-tag layer-tag--${effective?.layer}`} data-testid={`planner.setting.${field.key}.layer`}>
                  {effective ? LAYER_LABEL[effective.layer] : ''}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** One box; it commits a value only when it parses, and shows why when it does not. */
function SettingInput({ field, value, testId, onChange }: { field: SettingField; value: number | string | undefined; testId: string; onChange: (value: number | string | undefined) => void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [problem, setProblem] = useState<string | null>(null);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // The layer changed from outside (loaded from the workspace, cleared): show it.
    setShown(value);
    setText(value === undefined ? '' : String(value));
    setProblem(null);
  }
  const commit = (next: string) => {
    setText(next);
    const parsed = parseSettingInput(field, next);
    if (!parsed.ok) return setProblem(parsed.message);
    setProblem(null);
    setShown(parsed.value);
    onChange(parsed.value);
  };
  if (field.kind.type === 'choice') {
    return (
      <select value={text} onChange={(event) => commit(event.target.value)} data-testid={testId} aria-label={`${field.label} (${testId.endsWith('.run') ? 'this run' : 'workspace'})`}>
        <option value="">—</option>
        {field.kind.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  }
  return (
    <>
      <input
        type="text"
        inputMode="numeric"
        size={9}
        placeholder="—"
        value={text}
        className={problem ? 'is-invalid' : undefined}
        onChange={(event) => commit(event.target.value)}
        data-testid={testId}
        aria-label={`${field.label} (${testId.endsWith('.run') ? 'this run' : 'workspace'})`}
        aria-invalid={problem !== null}
        title={problem ?? undefined}
      />
      {problem && <span className="field__error small">{problem}</span>}
    </>
  );
}
