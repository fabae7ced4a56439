import { useEffect, useState } from 'react';
import { checkJsonLimits } from '../../../core/index.ts';
import { ResultView } from '../../components/ResultView.tsx';
import { restoreSavedRuns, runInput } from '../../lib/runtime/run-input.ts';
import { useRuns, type RunEntry } from '../../lib/stores/run-store.ts';
import { ExportReportButton } from '../report/ExportReportButton.tsx';

function download(entry: RunEntry): void {
  const results = entry.records.map((record) => record.result);
  const blob = new Blob([JSON.stringify(entry.isPlan ? results : results[0], null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `sextant-run-${entry.id}.json`;
  link.click();
  URL.revokeObjectURL(url);
}

/** A re-run is a new attempt, and the contract wants a fresh `request_id` per attempt. */
/** The run's input as text; one the executor refused for its depth (issue 14) is described, not printed (JSON.stringify recurses). */
function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  const limits = checkJsonLimits(input);
  return limits.ok ? JSON.stringify(input, null, 2) : `(not shown: the input ${limits.violation.message})`;
}

function withFreshRequestIds(input: unknown): unknown {
  const refresh = (step: unknown) =>
    typeof step === 'object' && step !== null && !Array.isArray(step) ? { ...step, request_id: `req-${crypto.randomUUID()}` } : step;
  return Array.isArray(input) ? input.map(refresh) : refresh(input);
}

function statusOf(entry: RunEntry): string {
  if (entry.state === 'running') return 'running';
  const statuses = entry.records.map((record) => record.result.status);
  if (statuses.includes('error')) return 'error';
  return statuses.includes('partial') ? 'partial' : 'ok';
}

function describe(entry: RunEntry): string {
  const names = entry.records.map((record) => record.toolName ?? '?');
  return entry.isPlan ? `plan of ${entry.records.length}: ${names.join(', ')}` : names[0] ?? '';
}

/** Every run of this session: what was sent, what came back, how long it took. */
export function RunsPage() {
  const runs = useRuns();
  useEffect(() => void restoreSavedRuns(), []);
  const [openId, setOpenId] = useState<number | null>(null);
  const open = runs.find((entry) => entry.id === openId);
  return (
    <div className="runs-page">
      <section className="panel">
        <h2>Runs this session</h2>
        {runs.length === 0 && <p className="muted">No runs yet. Run an invocation on the Tools page.</p>}
        {runs.length > 0 && (
          <table className="data-table" data-testid="runs.table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Started</th>
                <th scope="col">What</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {runs.map((entry) => (
                <tr key={entry.id} className={entry.id === openId ? 'is-selected' : undefined}>
                  <td>{entry.id}</td>
                  <td>{entry.startedAt.toLocaleTimeString()}</td>
                  <td>{describe(entry)}</td>
                  <td>
                    <span className={`badge badge--${statusOf(entry)}`}>{statusOf(entry)}</span>
                  </td>
                  <td>
                    {entry.state === 'done' ? `${entry.durationMs.toFixed(0)} ms` : '…'}
                    {entry.saveProblem && (
                      <span className="field__error" title={entry.saveProblem}>
                        {' '}
                        not saved
                      </span>
                    )}
                  </td>
                  <td className="actions">
                    <button type="button" onClick={() => setOpenId(entry.id)}>
                      Open
                    </button>
                    <button type="button" onClick={() => void runInput(withFreshRequestIds(entry.input)).then(setOpenId)} disabled={entry.state === 'running'}>
                      Re-run
                    </button>
                    <button type="button" onClick={() => download(entry)} disabled={entry.state === 'running'}>
                      Download JSON
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {open && (
        <section className="panel" aria-label={`Run ${open.id}`}>
          <div className="results__header">
            <h2>Run {open.id}</h2>
            <span className="spacer" />
            {open.state === 'done' && <ExportReportButton source={{ kind: 'tool-run', run: open }} withRunFile />}
          </div>
          <details>
            <summary>{open.isPlan ? 'Plan' : 'Invocation'} as sent</summary>
            <pre tabIndex={0}>{inputText(open.input)}</pre>
          </details>
          {open.records.map((record, index) => (
            <ResultView key={index} record={record} title={open.isPlan ? `Step ${index + 1}` : undefined} />
          ))}
        </section>
      )}
    </div>
  );
}
