import { summarizeRun } from '../../../core/index.ts';
import { deletePlannerRun, type PlannerRunRecord } from '../../lib/planner/run-store.ts';

interface Props {
  runs: ReadonlyArray<PlannerRunRecord>;
  openId: string | null;
  onOpen: (id: string) => void;
  compare: ReadonlyArray<string>;
  onCompareChange: (ids: string[]) => void;
}

/** Saved planner runs, newest first: open one, pick two to compare, delete. */
export function RunHistory({ runs, openId, onOpen, compare, onCompareChange }: Props) {
  if (runs.length === 0) return <p className="muted">No planner runs yet.</p>;
  return (
    <table className="data-table planner-history" data-testid="planner.history">
      <thead>
        <tr>
          <th scope="col">Compare</th>
          <th scope="col">Started</th>
          <th scope="col">Question</th>
          <th scope="col">Status</th>
          <th scope="col" />
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => {
          const summary = summarizeRun(run);
          const picked = compare.includes(run.id);
          return (
            <tr key={run.id} className={run.id === openId ? 'is-selected' : undefined} data-testid="planner.history.row" data-run-id={run.id}>
              <td>
                <input
                  type="checkbox"
                  checked={picked}
                  aria-label="Compare this run"
                  data-testid="planner.history.compare"
                  onChange={() => onCompareChange(picked ? compare.filter((id) => id !== run.id) : [...compare, run.id].slice(-2))}
                />
              </td>
              <td>{new Date(run.startedAt).toLocaleTimeString()}</td>
              <td className="planner-history__question" title={run.question}>
                {run.kind === 'demo' ? <span className="tag">demo</span> : null} {run.question}
              </td>
              <td>
                <span className={`badge badge--${summary.status === 'success' ? 'ok' : summary.status === 'running' ? 'running' : 'error'}`}>{summary.status}</span>
              </td>
              <td className="actions">
                <button type="button" onClick={() => onOpen(run.id)} data-testid="planner.history.open">
                  Open
                </button>
                <button type="button" onClick={() => void deletePlannerRun(run.id)} disabled={run.state === 'running'}>
                  Delete
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
