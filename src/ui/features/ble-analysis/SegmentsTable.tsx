import { useState } from 'react';
import type { AddressActivity } from './view-model.ts';

/**
 * The timeline's text alternative: every segment as a row. Built only while open, since an
 * analysis of thousands of addresses has thousands of segments.
 */
export function SegmentsTable({ activity, clusterOf }: { activity: ReadonlyMap<string, AddressActivity>; clusterOf: (address: string) => string | null }) {
  const [open, setOpen] = useState(false);
  let count = 0;
  for (const entry of activity.values()) count += entry.segments.length;
  if (count === 0) return null;
  return (
    <details className="ble-segments" onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="ble.segments">
      <summary>Segments as a table ({count})</summary>
      {open && (
        <table className="data-table" aria-label="Timeline segments">
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Cluster</th>
              <th scope="col">Start</th>
              <th scope="col">End</th>
              <th scope="col">Activity score</th>
            </tr>
          </thead>
          <tbody>
            {[...activity.values()].flatMap((entry) =>
              entry.segments.map((segment) => (
                <tr key={`${entry.address}-${segment.startMs}`}>
                  <td>
                    <code>{entry.address}</code>
                  </td>
                  <td>{clusterOf(entry.address) ?? '—'}</td>
                  <td>{segment.startTs}</td>
                  <td>{segment.endTs}</td>
                  <td>{segment.activityScore.toFixed(3)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
    </details>
  );
}
