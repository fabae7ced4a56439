import { useState } from 'react';
import { exportCaseReport, exportRunDocument, type ReportSource } from '../../lib/report/report-export.ts';

/** "Export report": one self-contained HTML case report and its JSON twin, for the run shown. */
export function ExportReportButton({ source, withRunFile = false }: { source: ReportSource | (() => ReportSource); withRunFile?: boolean }) {
  const resolve = () => (typeof source === 'function' ? source() : source);
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'working' } | { kind: 'done'; captures: number } | { kind: 'failed'; message: string }>({ kind: 'idle' });
  const run = () => {
    setState({ kind: 'working' });
    exportCaseReport(resolve()).then(
      (report) => setState({ kind: 'done', captures: report.captures.length }),
      (error: unknown) => setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  };
  return (
    <span className="export-report">
      <button type="button" onClick={run} disabled={state.kind === 'working'} data-testid="report.export" title="A self-contained HTML report (with file hashes, images and caveats) and its JSON twin">
        Export report
      </button>
      {withRunFile && (
        <button type="button" onClick={() =>
            exportRunDocument(resolve()).catch((error: unknown) => setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }))
          } data-testid="report.export-run" title="The run as a sextant.run file, which `sextant report` turns into a report">
          Export run
        </button>
      )}
      <span role="status" className="muted small">
        {state.kind === 'working' && 'Writing the report…'}
        {state.kind === 'done' && `Report written (HTML and JSON, ${state.captures} capture${state.captures === 1 ? '' : 's'}).`}
        {state.kind === 'failed' && <span className="field__error">{state.message}</span>}
      </span>
    </span>
  );
}
