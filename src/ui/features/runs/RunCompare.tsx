import type { RunEntry } from '../../lib/stores/run-store.ts';
import { diffInvocations } from '../planner/invocation-diff.ts';
import { runName } from './run-name.ts';

/** Most differing leaves shown per part before "and N more". */
const MAX_ROWS = 60;

/**
 * Two runs side by side, as promptfoo users compare evaluations: what each sent and what came
 * back, leaf by leaf, with only the leaves that differ listed (the same ones are counted).
 */
export function RunCompare({ left, right, onClose }: { left: RunEntry; right: RunEntry; onClose(): void }) {
  const results = (entry: RunEntry) => entry.records.map((record) => ({ status: record.result.status, summary: record.result.summary, errors: record.result.errors, structured_output: record.result.structured_output ?? null }));
  const parts = [
    { title: 'Sent', rows: diffInvocations(stripRequestIds(left.input), stripRequestIds(right.input)) },
    { title: 'Returned', rows: diffInvocations(results(left), results(right)) },
  ];
  return (
    <section className="panel run-compare" aria-labelledby="run-compare-heading" data-testid="runs.compare">
      <div className="results__header">
        <h2 id="run-compare-heading">
          Run {left.id} and run {right.id} compared
        </h2>
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="small">
        <strong>#{left.id}</strong> {runName(left)} · <strong>#{right.id}</strong> {runName(right)}
      </p>
      {parts.map(({ title, rows }) => {
        const changed = rows.filter((row) => row.kind !== 'same');
        return (
          <div key={title}>
            <h3 className="run-compare__title">
              {title}: {changed.length === 0 ? 'the same' : `${changed.length} of ${rows.length} values differ`}
            </h3>
            {changed.length > 0 && (
              <div className="run-compare__scroll">
                <table className="diff-table" aria-label={`${title}: differences`}>
                  <thead>
                    <tr>
                      <th scope="col">Path</th>
                      <th scope="col">Run {left.id}</th>
                      <th scope="col">Run {right.id}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {changed.slice(0, MAX_ROWS).map((row) => (
                      <tr key={row.path} className={`diff-row--${row.kind}`}>
                        <th scope="row">{row.path}</th>
                        <td className={row.before === undefined ? 'muted' : 'diff-removed'}>{row.before ?? '(absent)'}</td>
                        <td className={row.after === undefined ? 'muted' : 'diff-added'}>{row.after ?? '(absent)'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {changed.length > MAX_ROWS && <p className="muted small">and {changed.length - MAX_ROWS} more differences.</p>}
              </div>
            )}
          </div>
        );
      })}
    </section>
  );
}

/** Request ids differ between any two runs by design; they are not a difference worth showing. */
function stripRequestIds(input: unknown): unknown {
  const strip = (step: unknown) => {
    if (typeof step !== 'object' || step === null || Array.isArray(step)) return step;
    const { request_id: _ignored, ...rest } = step as Record<string, unknown>;
    return rest;
  };
  return Array.isArray(input) ? input.map(strip) : strip(input);
}
