import { useEffect, useMemo, useState } from 'react';
import { checkJsonLimits } from '../../../core/index.ts';
import { ResultView } from '../../components/ResultView.tsx';
import { restoreSavedRuns, runInput } from '../../lib/runtime/run-input.ts';
import { useRuns, type RunEntry } from '../../lib/stores/run-store.ts';
import { DatasetAnalysisPanel } from '../dataset-analysis/DatasetAnalysisPanel.tsx';
import { ExportReportButton } from '../report/ExportReportButton.tsx';
import { RunCompare } from './RunCompare.tsx';
import { formatStarted, runMatches, runName } from './run-name.ts';

/** When this page load began: runs started before it come from earlier sessions (restored from the workspace). */
const SESSION_STARTED = Date.now() - performance.now();

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
  // A conformance case keeps its `conf-<case>` prefix, so the re-run is still named a conformance run.
  const fresh = (previous: unknown) => (typeof previous === 'string' && previous.startsWith('conf-') ? `${previous.replace(/~.*$/, '')}~${crypto.randomUUID().slice(0, 8)}` : `req-${crypto.randomUUID()}`);
  const refresh = (step: unknown) =>
    typeof step === 'object' && step !== null && !Array.isArray(step) ? { ...step, request_id: fresh((step as { request_id?: unknown }).request_id) } : step;
  return Array.isArray(input) ? input.map(refresh) : refresh(input);
}

function statusOf(entry: RunEntry): string {
  if (entry.state === 'running') return 'running';
  const statuses = entry.records.map((record) => record.result.status);
  if (statuses.includes('error')) return 'error';
  return statuses.includes('partial') ? 'partial' : 'ok';
}

/** Every run saved in this workspace (this session's and earlier ones'): what was sent, what came back, how long it took. */
export function RunsPage() {
  const runs = useRuns();
  useEffect(() => void restoreSavedRuns(), []);
  const [openId, setOpenId] = useState<number | null>(null);
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const [comparing, setComparing] = useState<[number, number] | null>(null);
  const open = runs.find((entry) => entry.id === openId);
  const shown = useMemo(() => runs.filter((entry) => (status === '' || statusOf(entry) === status) && runMatches(entry, statusOf(entry), query)), [runs, query, status]);
  const earlier = runs.filter((entry) => entry.startedAt.getTime() < SESSION_STARTED).length;
  const compared = comparing && runs.find((entry) => entry.id === comparing[0]);
  const comparedWith = comparing && runs.find((entry) => entry.id === comparing[1]);
  const togglePick = (id: number) => setPicked((current) => (current.includes(id) ? current.filter((other) => other !== id) : [...current, id].slice(-2)));
  return (
    <div className="runs-page">
      <section className="panel" aria-labelledby="runs-heading">
        <h2 id="runs-heading">Runs</h2>
        <p className="muted small" data-testid="runs.scope">
          Every run saved in this workspace: {runs.length - earlier} from this session{earlier > 0 ? `, ${earlier} from earlier sessions` : ''}.
        </p>
        {runs.length === 0 && <p className="muted">No runs yet. Run an invocation on the Tools page.</p>}
        {runs.length > 0 && (
          <div className="runs-toolbar">
            <label className="field runs-toolbar__filter">
              <span className="field__label">Filter</span>
              <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder="tool, capture, operation, date…" data-testid="runs.filter" />
            </label>
            <label className="field">
              <span className="field__label">Status</span>
              <select value={status} onChange={(event) => setStatus(event.target.value)} data-testid="runs.status-filter">
                <option value="">any</option>
                <option value="ok">ok</option>
                <option value="partial">partial</option>
                <option value="error">error</option>
                <option value="running">running</option>
              </select>
            </label>
            <button type="button" disabled={picked.length !== 2} onClick={() => setComparing([picked[0], picked[1]])} data-testid="runs.compare-button">
              Compare {picked.length === 2 ? `#${picked[0]} and #${picked[1]}` : 'two runs'}
            </button>
            <span className="muted small" role="status">
              {shown.length === runs.length ? `${runs.length} ${runs.length === 1 ? 'run' : 'runs'}` : `${shown.length} of ${runs.length} runs`}
            </span>
          </div>
        )}
        {runs.length > 0 && (
          <table className="data-table runs-table" data-testid="runs.table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Compare</span>
                </th>
                <th scope="col">#</th>
                <th scope="col">Started</th>
                <th scope="col">What</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((entry) => (
                <tr key={entry.id} className={entry.id === openId ? 'is-selected' : undefined} data-testid="runs.row">
                  <td>
                    <input type="checkbox" checked={picked.includes(entry.id)} onChange={() => togglePick(entry.id)} aria-label={`Compare run ${entry.id}`} />
                  </td>
                  <td>{entry.id}</td>
                  <td>
                    <time dateTime={entry.startedAt.toISOString()}>{formatStarted(entry.startedAt)}</time>
                  </td>
                  <td className="runs-table__name" data-testid="runs.name">
                    {runName(entry)}
                  </td>
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
                    <button type="button" onClick={() => setOpenId(entry.id)} aria-label={`Open run ${entry.id}`}>
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
      {compared && comparedWith && <RunCompare left={compared} right={comparedWith} onClose={() => setComparing(null)} />}
      {open && (
        <section className="panel" aria-label={`Run ${open.id}`}>
          <div className="results__header">
            <h2>
              Run {open.id}: {runName(open)}
            </h2>
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
      <DatasetAnalysisPanel />
    </div>
  );
}
