import { TRACKER_NAMES, type TravelledTogetherRow } from './ble-output.ts';
import { travelSentence } from './view-model.ts';

interface Props {
  rows: ReadonlyArray<TravelledTogetherRow>;
}

/** The travelled-together relation: distinct devices that moved together, each with its probability and how long. */
export function TravelledTogether({ rows }: Props) {
  if (rows.length === 0) return null;
  return (
    <section className="ble-travel" aria-labelledby="ble-travel-heading" data-testid="ble.travel">
      <h3 id="ble-travel-heading">Travelled together</h3>
      <p className="muted small">Distinct devices on one path (a phone and its watch, earbuds or tag): not the same device.</p>
      <ul>
        {rows.map((row) => (
          <li key={`${row.addresses_a[0]}|${row.addresses_b[0]}`} data-testid="ble.travel.row">
            <span>{travelSentence(row)}</span>{' '}
            <span className="muted">
              (probability {row.probability.toFixed(3)}
              {row.same_device_probability !== undefined ? `, same device ${row.same_device_probability.toFixed(3)}` : ''}; {row.start_ts} – {row.end_ts})
            </span>
            {row.tracker_kind && (
              <p className="small" data-testid="ble.travel.tracker">
                A {TRACKER_NAMES[row.tracker_kind]} moved with another device: a tag near its carrier.
              </p>
            )}
            {row.separated_by && (
              <p className="small" data-testid="ble.travel.separated-by">
                Kept apart: {row.separated_by}
              </p>
            )}
            <details>
              <summary>Why</summary>
              <ul>
                {row.rationale.map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
              </ul>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
