import { useIncrementalCount } from '../../components/ProgressiveMount.tsx';
import { TRACKER_NAMES, type ProbabilisticLink } from './ble-output.ts';
import { PacketsButton, type PacketsControl } from './PacketsButton.tsx';
import { clusterColor, probabilityRange } from './view-model.ts';

interface Props {
  links: ReadonlyArray<ProbabilisticLink>;
  selectedCluster: number | null;
  onSelectCluster(clusterIndex: number | null): void;
  packets: PacketsControl;
  /** Capture edge notes per cluster index (captureEdgeNotes): a chain the capture cut off, in words. */
  edgeNotes?: ReadonlyMap<number, string[]>;
}

/** Clusters mounted per turn under a `ProgressiveMount` (each holds its addresses and rationale: ~20–25 elements). */
const CLUSTERS_PER_TURN = 24;

/** The inferred clusters; choosing one highlights it in the table, matrix, timeline and traces. */
export function ClusterList({ links, selectedCluster, onSelectCluster, packets, edgeNotes }: Props) {
  const mounted = useIncrementalCount(links.length, CLUSTERS_PER_TURN);
  return (
    <section className="ble-section" aria-labelledby="ble-clusters-heading">
      <h3 id="ble-clusters-heading">Clusters ({links.length})</h3>
      {links.length === 0 && <p className="muted">No addresses were linked.</p>}
      <ul className="ble-clusters" aria-label="Clusters">
        {links.slice(0, mounted).map((link, clusterIndex) => {
          const range = probabilityRange(link);
          const selected = clusterIndex === selectedCluster;
          return (
            <li key={`${link.cluster_id}-${clusterIndex}`} className={`ble-cluster${selected ? ' is-selected' : ''}`} data-testid="ble.cluster">
              <button
                type="button"
                className="ble-cluster__select"
                aria-pressed={selected}
                onClick={() => onSelectCluster(selected ? null : clusterIndex)}
              >
                <span className="ble-swatch" style={{ background: clusterColor(clusterIndex) }} aria-hidden="true" />
                <strong>{link.cluster_id}</strong>
                {link.tracker_kind && <span className="ble-tracker-badge" data-testid="ble.cluster.tracker">{TRACKER_NAMES[link.tracker_kind]}</span>}
                <span className="muted small">
                  {' '}
                  · {link.addresses.length} addresses
                  {range && ` · p ${range.min === range.max ? range.min.toFixed(2) : `${range.min.toFixed(2)}–${range.max.toFixed(2)}`}`}
                </span>
              </button>
              <ol className="ble-cluster__addresses" aria-label={`Addresses of ${link.cluster_id}`}>
                {link.addresses.map((address) => (
                  <li key={address}>
                    <code>{address}</code> <PacketsButton address={address} control={packets} />
                  </li>
                ))}
              </ol>
              <ul className="ble-cluster__rationale" aria-label={`Rationale of ${link.cluster_id}`}>
                {link.rationale.map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
                {edgeNotes?.get(clusterIndex)?.map((line) => (
                  <li key={line} className="ble-capture-edge" data-testid="ble.capture-edge">
                    {line}
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
