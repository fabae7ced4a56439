import type { JsonValue } from '../../core/index.ts';
import { formatNumber } from './format.ts';

const isRecord = (value: JsonValue | undefined): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Any structured output as tables: scalars as a list of metrics, arrays of objects and
 * objects of objects as tables, anything deeper as JSON text. Values are always text.
 */
export function GenericOutputView({ output }: { output: { [key: string]: JsonValue } }) {
  const scalars = Object.entries(output).filter(([, value]) => !isRecord(value) && !Array.isArray(value));
  const nested = Object.entries(output).filter(([, value]) => isRecord(value) || Array.isArray(value));
  return (
    <div className="generic-output">
      {scalars.length > 0 && (
        <dl className="metrics">
          {scalars.map(([key, value]) => (
            <div className="metric" key={key}>
              <dt>{key}</dt>
              <dd>{formatNumber(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {nested.map(([key, value]) => (
        <NestedTable key={key} title={key} value={value} />
      ))}
    </div>
  );
}

function NestedTable({ title, value }: { title: string; value: JsonValue }) {
  const rows: Array<[string, JsonValue]> = Array.isArray(value) ? value.map((item, index) => [String(index + 1), item]) : Object.entries(value as object);
  const objectRows = rows.filter(([, row]) => isRecord(row)) as Array<[string, { [key: string]: JsonValue }]>;
  if (rows.length > 0 && objectRows.length === rows.length) {
    const columns = [...new Set(objectRows.flatMap(([, row]) => Object.keys(row)))];
    return (
      <table className="data-table" tabIndex={0}>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col" />
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {objectRows.map(([label, row]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {columns.map((column) => (
                <td key={column}>{cell(row[column])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  return (
    <table className="data-table" tabIndex={0}>
      <caption>{title}</caption>
      <tbody>
        {rows.map(([label, row]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{cell(row)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function cell(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'number')) return value.map((item) => formatNumber(item)).join(' – ');
  return JSON.stringify(value);
}
