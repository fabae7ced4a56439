import { useState } from 'react';
import { generateConformanceCases, judgeConformance, type ConformanceRow, type ToolManifest } from '../../../core/index.ts';
import { useCaptures, useManifests } from '../../lib/runtime/queries.ts';
import { runInput } from '../../lib/runtime/run-input.ts';
import { getRun } from '../../lib/stores/run-store.ts';

/**
 * The contract's conformance cases for the manifest in the editor: one valid invocation and one
 * for each way to break it, run through the real executor, expected against actual.
 */
export function ConformancePanel({ manifest }: { manifest: ToolManifest | null }) {
  const manifests = useManifests();
  const captures = useCaptures();
  const [captureId, setCaptureId] = useState('');
  const [rows, setRows] = useState<ConformanceRow[] | null>(null);
  const [running, setRunning] = useState(false);
  const installed = manifest && (manifests.data ?? []).some((candidate) => candidate.name === manifest.name && candidate.version === manifest.version);
  const capture = (captures.data ?? []).find((candidate) => candidate.id === captureId) ?? captures.data?.[0];

  const check = async () => {
    if (!manifest || !capture) return;
    setRunning(true);
    const cases = generateConformanceCases(manifest, capture);
    const runId = await runInput(cases.map((entry) => entry.invocation));
    setRows(judgeConformance(cases, getRun(runId)?.records ?? []));
    setRunning(false);
  };

  const passed = rows?.filter((row) => row.passed).length ?? 0;
  return (
    <section className="panel" aria-label="Conformance check" data-testid="conformance">
      <h2>Conformance check</h2>
      {!manifest && <p className="muted">Fix the manifest's errors to check it.</p>}
      {manifest && !installed && <p className="muted">Only installed tools can be run; this manifest is not installed.</p>}
      {manifest && installed && (
        <div className="inline-inputs">
          <label>
            Capture{' '}
            <select value={capture?.id ?? ''} onChange={(event) => setCaptureId(event.target.value)}>
              {(captures.data ?? []).map((candidate) => (
                <option key={candidate.id}>{candidate.id}</option>
              ))}
            </select>
          </label>
          <button type="button" className="primary" onClick={() => void check()} disabled={running || !capture} data-testid="conformance.run">
            {running ? 'Running…' : 'Run the conformance cases'}
          </button>
        </div>
      )}
      {rows && (
        <>
          <p data-testid="conformance.summary">
            <span className={`badge badge--${passed === rows.length ? 'ok' : 'error'}`}>
              {passed} of {rows.length} passed
            </span>
          </p>
          <table className="data-table conformance-table" data-testid="conformance.table">
            <thead>
              <tr>
                <th scope="col">Case</th>
                <th scope="col">Expected</th>
                <th scope="col">Actual</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.case.id} className={row.passed ? undefined : 'is-failing'}>
                  <td className="summary-cell">{row.case.title}</td>
                  <td className="summary-cell">
                    {row.case.expected.status === 'ok' ? 'ok' : `${row.case.expected.code} at ${row.case.expected.field}`}
                  </td>
                  <td className="summary-cell">{row.actual.status === 'error' ? row.actual.codes.map((code, index) => `${code} at ${row.actual.fields[index]}`).join('; ') : row.actual.status}</td>
                  <td>{row.passed ? '✓' : `✗ ${row.reason ?? ''}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
