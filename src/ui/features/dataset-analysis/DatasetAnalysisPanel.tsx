import { useEffect, useState } from 'react';
import { ANALYSIS_FILE, bleAddressAnalyzerManifest, type AnalysedWindowEntry, type DatasetAnalysisOverview, type ExecutionRecord } from '../../../core/index.ts';
import { formatCount } from '../../components/format.ts';
import { Metric } from '../../components/Metric.tsx';
import { ResultView } from '../../components/ResultView.tsx';
import { openDatasetAnalysis, useDatasetAnalysis, type DatasetAnalysisState } from '../../lib/runtime/dataset-analysis.ts';
import { filesUnderRoot } from '../../lib/runtime/picked-directory.ts';
import { StitchedDevicesBrowser } from './StitchedDevicesBrowser.tsx';
import { utcSeconds } from './utc.ts';

type Open = Extract<DatasetAnalysisState, { kind: 'open' }>;

/** What the window-result slot shows: a result, a refusal, or the wait for one. */
type ShownWindow = { title: string; record: ExecutionRecord } | { title: string; problem: { code: string; message: string } } | { title: string; loading: true };

/**
 * Opens what `sextant analyze-dataset DIR --out OUT` wrote: the run's summary and windows, the
 * devices stitched across the windows (searchable by address, paged), what travelled together
 * and the joins refused, and any window's own result in the analyzer's usual view. The analysis
 * ran on the analyst's machine; the browser reads its files where they are.
 */
export function DatasetAnalysisPanel() {
  const analysis = useDatasetAnalysis();
  const [shown, setShown] = useState<ShownWindow | null>(null);

  const pick = (list: FileList | null) => {
    setShown(null);
    const { name, files } = filesUnderRoot([...(list ?? [])], ANALYSIS_FILE);
    void openDatasetAnalysis(name || 'the directory', files);
  };

  return (
    <section className="panel dataset-analysis" aria-labelledby="dataset-analysis-heading">
      <h2 id="dataset-analysis-heading">Dataset analysis</h2>
      <p className="muted small">
        The output directory of <code>sextant analyze-dataset DIR --out OUT</code> (it holds {ANALYSIS_FILE}): the devices stitched across the windows, what
        travelled together, and each window&apos;s result. The files are read here; nothing is uploaded.
      </p>
      <label className="field">
        <span className="field__label">Analysis directory (holds {ANALYSIS_FILE})</span>
        <input
          type="file"
          data-testid="analysis.input"
          ref={(input) => input?.setAttribute('webkitdirectory', '')}
          onChange={(event) => {
            pick(event.target.files);
            event.target.value = '';
          }}
        />
      </label>
      {analysis.kind === 'opening' && (
        <p className="muted" role="status" data-testid="analysis.opening">
          Reading <code>{analysis.name}</code>… {analysis.linesRead > 0 ? `${formatCount(analysis.linesRead)} lines` : ''}
        </p>
      )}
      {analysis.kind === 'failed' && (
        <p className="field__error" role="alert" data-testid="analysis.problem">
          <span className="badge badge--error">{analysis.code}</span> {analysis.message}
        </p>
      )}
      {analysis.kind === 'open' && <OpenedAnalysis key={analysis.overview.dataset + analysis.name} analysis={analysis} shown={shown} setShown={setShown} />}
    </section>
  );
}

function OpenedAnalysis({ analysis, shown, setShown }: { analysis: Open; shown: ShownWindow | null; setShown: (next: ShownWindow | null) => void }) {
  const { overview, stitched, api } = analysis;

  const showResult = async (path: string, title: string, durationMs: number) => {
    setShown({ title, loading: true });
    const outcome = await api.windowResult(path);
    if (!outcome.ok) {
      setShown({ title, problem: { code: outcome.code, message: outcome.message } });
      return;
    }
    const record: ExecutionRecord = {
      requestId: null,
      toolName: bleAddressAnalyzerManifest.name,
      resolvedVersion: bleAddressAnalyzerManifest.version,
      phase: 'execution',
      result: outcome.result,
      durationMs,
    };
    setShown({ title, record });
  };
  const showWindow = (window: AnalysedWindowEntry) => {
    if (window.result) void showResult(window.result, `Window ${window.index}: ${utcSeconds(window.from_ms)} – ${utcSeconds(window.to_ms)}`, window.duration_ms ?? 0);
  };
  const openWindow = (index: number) => {
    const window = overview.windows.find((entry) => entry.index === index);
    if (window) showWindow(window);
  };

  // A one-window run (no --window) has nothing stitched: its result is the whole answer. A
  // windowed run's result.json summarizes: its warnings (windows partial, empty or failed; joins refused) are shown by code.
  const oneWindow = stitched === null;
  const [runWarnings, setRunWarnings] = useState<{ groups: WarningGroup[] } | { problem: { code: string; message: string } } | null>(null);
  useEffect(() => {
    if (oneWindow) {
      void showResult(overview.result, `${analysis.name}: the whole range`, overview.windows[0]?.duration_ms ?? 0);
      return;
    }
    void api.windowResult(overview.result).then((outcome) => setRunWarnings(outcome.ok ? { groups: groupWarnings(outcome.result.warnings) } : { problem: outcome }));
    // Once per opened analysis.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [overview]);

  const packets = oneWindow ? overview.captures.reduce((sum, capture) => sum + capture.rows, 0) : overview.windows.reduce((sum, window) => sum + window.rows, 0);
  return (
    <div data-testid="analysis.open">
      <p data-testid="analysis.summary">{overview.summary}</p>
      <p className="muted small">
        <code>{analysis.name}</code> · dataset <code>{overview.dataset}</code> · {overview.captures.map((capture) => capture.capture_id).join(', ')}
        {overview.windowing && ` · windows of ${overview.windowing.window} overlapping by ${overview.windowing.overlap}`}
      </p>
      <dl className="metrics">
        <Metric label="Status" value={overview.status} />
        <Metric label="Windows" value={oneWindow ? '1 (no --window)' : formatCount(overview.windows.length)} />
        <Metric label={oneWindow ? 'Packets' : 'Packets in the windows (overlaps in both)'} value={formatCount(packets)} />
        {overview.stitched && (
          <>
            <Metric label="Devices" value={formatCount(overview.stitched.devices)} />
            <Metric label="With several addresses" value={formatCount(overview.stitched.multi_address_devices)} />
            <Metric label="Seen in several windows" value={formatCount(overview.stitched.spanning_devices)} />
            <Metric label="Refused joins" value={formatCount(overview.stitched.conflicts)} />
          </>
        )}
      </dl>
      {runWarnings && 'problem' in runWarnings && (
        <p className="field__error" role="alert" data-testid="analysis.result-problem">
          <span className="badge badge--error">{runWarnings.problem.code}</span> {runWarnings.problem.message}
        </p>
      )}
      {runWarnings && 'groups' in runWarnings && runWarnings.groups.length > 0 && (
        <ul className="issue-list issue-list--warnings" aria-label="Warnings of the run" data-testid="analysis.warnings">
          {runWarnings.groups.map((group) => (
            <li key={group.code} className="issue" data-code={group.code}>
              <span className="issue__code">
                {group.code}
                {group.count > 1 ? ` ×${formatCount(group.count)}` : ''}
              </span>
              <span className="issue__message">
                {group.first}
                {group.count > 1 ? ` (and ${formatCount(group.count - 1)} more like it)` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {!oneWindow && <WindowsTable overview={overview} onOpen={showWindow} />}
      {stitched && <StitchedDevicesBrowser api={api} counts={stitched} windowCount={overview.windows.length} dataset={overview.dataset} analysed={overview.captures} onOpenWindow={openWindow} />}
      {shown && (
        <section className="dataset-analysis__window" aria-label={shown.title} data-testid="analysis.window">
          <h3>{shown.title}</h3>
          {'loading' in shown && <p className="muted">Reading…</p>}
          {'problem' in shown && (
            <p className="field__error" role="alert" data-testid="analysis.window-problem">
              <span className="badge badge--error">{shown.problem.code}</span> {shown.problem.message}
            </p>
          )}
          {'record' in shown && <ResultView record={shown.record} title={shown.title} />}
        </section>
      )}
    </div>
  );
}

interface WarningGroup {
  code: string;
  count: number;
  /** The first warning's message: the others of its code say the same of other windows. */
  first: string;
}

/** Warnings by code, in order of first appearance: a week's 584 windows each partial are one line, not 584. */
function groupWarnings(warnings: ReadonlyArray<{ code: string; message: string }>): WarningGroup[] {
  const groups = new Map<string, WarningGroup>();
  for (const warning of warnings) {
    const group = groups.get(warning.code);
    if (group) group.count++;
    else groups.set(warning.code, { code: warning.code, count: 1, first: warning.message });
  }
  return [...groups.values()];
}

/** Every window of the run: its span, packets, status and what its analysis said; a button opens its result. */
function WindowsTable({ overview, onOpen }: { overview: DatasetAnalysisOverview; onOpen: (window: AnalysedWindowEntry) => void }) {
  const byStatus = new Map<string, number>();
  for (const window of overview.windows) byStatus.set(window.status, (byStatus.get(window.status) ?? 0) + 1);
  const statuses = [...byStatus].map(([status, count]) => `${formatCount(count)} ${status}`).join(', ');
  return (
    <details className="dataset-analysis__windows" open={overview.windows.length <= 12}>
      <summary data-testid="analysis.windows-summary">
        {formatCount(overview.windows.length)} windows: {statuses}
      </summary>
      <div className="table-scroll">
        <table className="data-table" data-testid="analysis.windows">
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col">From (UTC)</th>
              <th scope="col">To, with the overlap</th>
              <th scope="col">Packets</th>
              <th scope="col">Status</th>
              <th scope="col">Confidence</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {overview.windows.map((window) => (
              <tr key={window.index} data-testid="analysis.window-row">
                <th scope="row">{window.index}</th>
                <td>{utcSeconds(window.from_ms)}</td>
                <td>{utcSeconds(window.to_ms)}</td>
                <td>{formatCount(window.rows)}</td>
                <td>
                  <span className={`badge badge--${window.status === 'empty' ? 'running' : window.status}`}>{window.status}</span>
                </td>
                <td>{window.confidence === undefined ? '—' : window.confidence.toFixed(2)}</td>
                <td>
                  {window.result ? (
                    <button type="button" className="link-button" onClick={() => onOpen(window)} title={window.summary}>
                      Open window {window.index}
                    </button>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
