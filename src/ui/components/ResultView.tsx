import { useEffect, useState } from 'react';
import type { ExecutionRecord, JsonValue } from '../../core/index.ts';
import { GenericOutputView } from './GenericOutputView.tsx';
import { ErrorList, WarningList } from './IssueList.tsx';
import { RegressionView, type RegressionOutput } from './RegressionView.tsx';
import { BleResultSection } from '../features/ble-analysis/BleResultSection.tsx';
import { BLE_ANALYZER_TOOL, isBleAnalyzerOutput } from '../features/ble-analysis/ble-output.ts';

/**
 * One ToolResult as people want to read it, with the raw JSON one click away. `invocation`: what
 * produced the record, when the caller has it (tool views that read captures use it).
 */
export function ResultView({ record, title, invocation }: { record: ExecutionRecord; title?: string; invocation?: unknown }) {
  const { result } = record;
  const output = result.structured_output as { [key: string]: JsonValue } | undefined;
  const hasOutput = output !== undefined && Object.keys(output).length > 0;
  return (
    <section className="result" data-testid="result" data-status={result.status} aria-label={title ?? 'Result'}>
      <header className="result__header">
        <span className={`badge badge--${result.status}`} data-testid="result.status">
          {result.status}
        </span>
        {title && <strong>{title}</strong>}
        <span className="result__meta">
          {record.toolName ?? 'unknown tool'}
          {record.resolvedVersion ? ` ${record.resolvedVersion}` : ''} · {record.durationMs.toFixed(0)} ms
          {result.status !== 'error' && ` · confidence ${result.confidence.toFixed(2)}`}
        </span>
      </header>
      {record.phase === 'validation' && (
        <p className="notice notice--blocked" data-testid="result.not-executed">
          Rejected by validation: nothing was executed.
        </p>
      )}
      <p className="result__summary" data-testid="result.summary">
        {result.summary}
      </p>
      <ErrorList errors={result.errors} />
      <WarningList warnings={result.warnings} />
      {/* The executor has checked this output against the tool's output_schema, which fixes these fields. */}
      {hasOutput && record.toolName === BLE_ANALYZER_TOOL && isBleAnalyzerOutput(output) ? (
        <BleResultSection output={output} requestId={record.requestId} invocation={invocation} />
      ) : hasOutput && output.model === 'linear_regression' ? (
        <RegressionView output={output as unknown as RegressionOutput} />
      ) : hasOutput ? (
        <GenericOutputView output={output} />
      ) : null}
      {(result.artifacts ?? []).length > 0 && (
        <ul className="artifacts" aria-label="Artifacts">
          {result.artifacts!.map((artifact) => (
            <li key={artifact.name}>
              <a href={artifact.uri} download={`${artifact.name}.${artifact.mime_type === 'text/csv' ? 'csv' : 'bin'}`}>
                {artifact.name}
              </a>{' '}
              <span className="muted">
                {artifact.mime_type} · sha256 <code>{artifact.sha256.slice(0, 16)}…</code>
              </span>
            </li>
          ))}
        </ul>
      )}
      <RawJson result={result} />
    </section>
  );
}

/**
 * The raw ToolResult, written out in a task of its own after the result's first paint: for a
 * large analysis (hundreds of linked addresses) the indented JSON is megabytes, and producing it
 * inside the mount would lengthen the main thread's longest task (issue 15).
 */
function RawJson({ result }: { result: ExecutionRecord['result'] }) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setText(JSON.stringify(result, null, 2)), 0);
    return () => clearTimeout(timer);
  }, [result]);
  return (
    <details className="raw-json">
      <summary>Raw ToolResult JSON</summary>
      {text !== null && (
        <pre data-testid="result.raw-json" tabIndex={0}>
          {text}
        </pre>
      )}
    </details>
  );
}
