import type { ColumnSchema } from '../../../core/index.ts';

interface Props {
  columns: ReadonlyArray<ColumnSchema>;
  hidden: ReadonlySet<string>;
  onChange(hidden: ReadonlySet<string>): void;
}

/** Which record columns the table shows (Wireshark's column preferences, as a check list). */
export function ColumnChooser({ columns, hidden, onChange }: Props) {
  const toggle = (name: string) => {
    const next = new Set(hidden);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    onChange(next);
  };
  return (
    <details className="column-chooser" data-testid="capture.column-chooser">
      <summary>
        Columns ({columns.length - hidden.size} of {columns.length} shown)
      </summary>
      <div className="column-chooser__actions">
        <button type="button" onClick={() => onChange(new Set())}>
          Show all
        </button>
        <button type="button" onClick={() => onChange(new Set(columns.map((column) => column.name)))}>
          Hide all
        </button>
      </div>
      <ul className="column-chooser__list">
        {columns.map((column) => (
          <li key={column.name}>
            <label>
              <input type="checkbox" checked={!hidden.has(column.name)} onChange={() => toggle(column.name)} /> <code>{column.name}</code>
            </label>
          </li>
        ))}
      </ul>
    </details>
  );
}
