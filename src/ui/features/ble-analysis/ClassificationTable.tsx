import { useMemo, useState } from 'react';
import { formatCount } from '../../components/format.ts';
import { useIncrementalCount } from '../../components/ProgressiveMount.tsx';
import type { AddressClassificationRow, AddressType, ProbabilisticLink } from './ble-output.ts';
import { PacketsButton, type PacketsControl } from './PacketsButton.tsx';
import { classificationRows, clusterColor, type SortKey, type SortOrder } from './view-model.ts';

const PAGE = 100;
/** Rows mounted per turn under a `ProgressiveMount`: an auto-layout table lays out all its rows again as rows arrive. */
const ROWS_PER_TURN = 25;
const TYPES: Array<AddressType | 'all'> = ['all', 'public', 'random_static', 'rpa', 'nrpa', 'unknown'];
const COLUMNS: Array<{ key: SortKey; label: string }> = [
  { key: 'address', label: 'Address' },
  { key: 'type', label: 'Type' },
  { key: 'confidence', label: 'Confidence' },
  { key: 'cluster', label: 'Cluster' },
  { key: 'evidence', label: 'Evidence' },
];

interface Props {
  rows: ReadonlyArray<AddressClassificationRow>;
  links: ReadonlyArray<ProbabilisticLink>;
  clusterOf: ReadonlyMap<string, number>;
  selectedCluster: number | null;
  onSelectCluster(clusterIndex: number | null): void;
  packets: PacketsControl;
}

/** Every classified address: sortable by any column, filterable by text and type. */
export function ClassificationTable({ rows, links, clusterOf, selectedCluster, onSelectCluster, packets }: Props) {
  const [text, setText] = useState('');
  const [type, setType] = useState<AddressType | 'all'>('all');
  const [order, setOrder] = useState<SortOrder>({ key: 'confidence', direction: 'descending' });
  const [shown, setShown] = useState(PAGE);
  const visible = useMemo(() => classificationRows(rows, { text, type }, order, clusterOf), [rows, text, type, order, clusterOf]);
  const mounted = useIncrementalCount(Math.min(shown, visible.length), ROWS_PER_TURN);

  const sortBy = (key: SortKey) =>
    setOrder((current) => ({ key, direction: current.key === key && current.direction === 'ascending' ? 'descending' : 'ascending' }));

  return (
    <section className="ble-section" aria-labelledby="ble-classification-heading">
      <h3 id="ble-classification-heading">Address classification</h3>
      <div className="ble-toolbar">
        <label className="field ble-field">
          <span className="field__label">Filter</span>
          <input
            type="search"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setShown(PAGE);
            }}
            placeholder="address or evidence"
            data-testid="ble.classification.filter"
          />
        </label>
        <label className="field ble-field">
          <span className="field__label">Type</span>
          <select value={type} onChange={(event) => setType(event.target.value as AddressType | 'all')} data-testid="ble.classification.type">
            {TYPES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
        <span className="muted small" data-testid="ble.classification.count">
          {formatCount(visible.length)} of {formatCount(rows.length)} addresses
        </span>
      </div>
      <div className="ble-scroll">
        <table
          className="data-table ble-classification"
          aria-label="Address classification"
          data-testid="ble.classification"
        >
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column.key} scope="col" aria-sort={order.key === column.key ? order.direction : 'none'}>
                  <button type="button" className="link-button ble-sort" onClick={() => sortBy(column.key)}>
                    {column.label}
                    <span aria-hidden="true">{order.key === column.key ? (order.direction === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {visible.slice(0, Math.min(shown, mounted)).map((row) => {
              const clusterIndex = clusterOf.get(row.address) ?? null;
              return (
                <tr key={row.address} className={clusterIndex !== null && clusterIndex === selectedCluster ? 'is-selected' : undefined} data-address={row.address}>
                  <td className="ble-address-cell">
                    <code>{row.address}</code> <PacketsButton address={row.address} control={packets} />
                  </td>
                  <td>{row.type}</td>
                  <td>{row.confidence.toFixed(2)}</td>
                  <td>
                    {clusterIndex === null ? (
                      <span className="muted">—</span>
                    ) : (
                      <button
                        type="button"
                        className="link-button ble-cluster-chip"
                        onClick={() => onSelectCluster(clusterIndex === selectedCluster ? null : clusterIndex)}
                        aria-pressed={clusterIndex === selectedCluster}
                      >
                        <span className="ble-swatch" style={{ background: clusterColor(clusterIndex) }} aria-hidden="true" />
                        {links[clusterIndex].cluster_id}
                      </button>
                    )}
                  </td>
                  <td className="ble-evidence-cell">
                    <ul className="ble-evidence">
                      {row.evidence.map((line, index) => (
                        <li key={index}>{line}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              );
            })}
          </tbody>
          {visible.length > shown && (
            <tfoot>
              <tr>
                <td colSpan={COLUMNS.length}>
                  <button type="button" onClick={() => setShown((count) => count + PAGE)}>
                    Show {Math.min(PAGE, visible.length - shown)} more
                  </button>
                </td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </section>
  );
}
