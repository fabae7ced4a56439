import { useState } from 'react';
import type { JsonObject } from '../../../core/index.ts';
import { applyImportMapping, cancelImport, dismissImport, useImportJobs } from '../../lib/runtime/capture-import.ts';
import { MappingForm } from './MappingForm.tsx';

/** Drop or pick capture files; each import shows its progress and can be cancelled. */
export function ImportPanel({ onFiles }: { onFiles(files: File[]): void }) {
  const jobs = useImportJobs();
  const [over, setOver] = useState(false);
  return (
    <section className="panel import-panel" aria-label="Import captures">
      <h2>Import captures</h2>
      <label
        className={`drop-zone${over ? ' is-over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          onFiles([...event.dataTransfer.files]);
        }}
      >
        <span>Drop pcap, pcapng, btsnoop, Arrow, CSV or Parquet files here, or pick them</span>
        <input
          type="file"
          multiple
          data-testid="captures.file-input"
          onChange={(event) => {
            onFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </label>
      {jobs.length > 0 && (
        <ul className="import-jobs">
          {jobs.map((job) => (
            <li key={job.id} data-testid="captures.import-job" data-state={job.state}>
              <span className="import-jobs__name">{job.fileName}</span>
              {job.state === 'importing' && (
                <>
                  <progress max={1} value={job.progress} aria-label={`Importing ${job.fileName}`} />
                  <button type="button" onClick={() => cancelImport(job.id)}>
                    Cancel
                  </button>
                </>
              )}
              {job.state === 'needs-mapping' && job.mapping && (
                <>
                  {job.error && (
                    <span className="import-jobs__error" role="alert">
                      <span className="badge badge--error">{job.error.code}</span> {job.error.message}
                    </span>
                  )}
                  <MappingForm
                    columns={job.mapping.columns}
                    suggestion={job.mapping.suggestion}
                    onApply={(mapping) => void applyImportMapping(job.id, mapping)}
                    onCancel={() => cancelImport(job.id)}
                  />
                </>
              )}
              {job.state === 'done' && (
                <span className="import-jobs__done">
                  Imported as <code>{job.captureId}</code>
                </span>
              )}
              {job.state === 'done' && verdictOf(job.report) && (
                <span className="import-jobs__verdict" data-testid="captures.import-verdict">
                  {verdictOf(job.report)}
                </span>
              )}
              {job.state === 'done' && job.report?.partial === true && (
                <span className="badge badge--partial" data-testid="captures.import-partial">
                  partial{Array.isArray(job.report.warnings) && job.report.warnings.length > 0 ? `: ${job.report.warnings.length} warning${job.report.warnings.length === 1 ? '' : 's'}` : ''}
                </span>
              )}
              {job.state === 'done' && job.saveProblem && (
                <span className="import-jobs__error" role="alert" data-testid="captures.save-problem">
                  Not saved in the workspace: {job.saveProblem}
                </span>
              )}
              {job.state === 'cancelled' && <span className="badge badge--partial">cancelled</span>}
              {job.state === 'failed' && (
                <span className="import-jobs__error" role="alert">
                  <span className="badge badge--error">{job.error?.code}</span> {job.error?.message}
                </span>
              )}
              {job.state !== 'importing' && job.state !== 'needs-mapping' && (
                <button type="button" className="link-button muted" onClick={() => dismissImport(job.id)} aria-label={`Dismiss ${job.fileName}`}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The import's integrity verdict in words, when the report carries one. */
function verdictOf(report: JsonObject | undefined): string | null {
  const integrity = report?.integrity;
  if (typeof integrity !== 'object' || integrity === null || Array.isArray(integrity)) return null;
  return typeof integrity.verdict === 'string' ? integrity.verdict : null;
}
