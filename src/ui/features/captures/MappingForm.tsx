import { useState } from 'react';
import type { ColumnMapping, ColumnSchema, TimeUnitName } from '../../../core/index.ts';

const ROLES: Array<{ key: keyof Omit<ColumnMapping, 'timeUnit'>; label: string; required?: boolean }> = [
  { key: 'time', label: 'Timestamp', required: true },
  { key: 'channel', label: 'Channel' },
  { key: 'advertiser_addr', label: 'Advertiser address (AdvA)' },
  { key: 'initiator_addr', label: 'Initiator / target address' },
  { key: 'scanner_addr', label: 'Scanner address (ScanA)' },
];
const UNITS: TimeUnitName[] = ['ms', 's', 'us', 'ns'];

/** The column-mapping step: which columns are the timestamp, channel and addresses. */
export function MappingForm({ columns, suggestion, onApply, onCancel }: { columns: ColumnSchema[]; suggestion: ColumnMapping; onApply(mapping: ColumnMapping): void; onCancel(): void }) {
  const [mapping, setMapping] = useState<ColumnMapping>(suggestion);
  return (
    <form
      className="mapping-form"
      aria-label="Column mapping"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(mapping);
      }}
    >
      <p className="muted small">This file has no <code>ts_ms</code> column. Say which columns hold what:</p>
      {ROLES.map((role) => (
        <label className="field" key={role.key}>
          <span className="field__label">
            {role.label}
            {role.required ? ' *' : ''}
          </span>
          <select
            value={mapping[role.key] ?? ''}
            onChange={(event) => setMapping({ ...mapping, [role.key]: event.target.value || undefined })}
            data-testid={`mapping.${role.key}`}
          >
            <option value="">(none)</option>
            {columns.map((column) => (
              <option key={column.name} value={column.name}>
                {column.name} ({column.kind})
              </option>
            ))}
          </select>
        </label>
      ))}
      <label className="field">
        <span className="field__label">Timestamp unit (numeric timestamps)</span>
        <select value={mapping.timeUnit ?? 'ms'} onChange={(event) => setMapping({ ...mapping, timeUnit: event.target.value as TimeUnitName })} data-testid="mapping.time-unit">
          {UNITS.map((unit) => (
            <option key={unit}>{unit}</option>
          ))}
        </select>
      </label>
      <div className="inline-inputs">
        <button type="submit" className="primary" disabled={!mapping.time} data-testid="mapping.apply">
          Import with this mapping
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
