import { useEffect, useRef, useState } from 'react';
import { SPEC_EXAMPLES, isJsonObject, safeParseJson, selectedCaptureIds, selectionOfInvocation, type CaptureInfo, type JsonObject, type ToolManifest } from '../../../core/index.ts';
import { declaredSelectionShape, selectionForCapture, suggestedArguments } from './form-model.ts';
import { ResultView } from '../../components/ResultView.tsx';
import { useCaptures, useManifests } from '../../lib/runtime/queries.ts';
import { runInput } from '../../lib/runtime/run-input.ts';
import { useRun } from '../../lib/stores/run-store.ts';
import { clearDraftInvocation, peekDraftInvocation } from '../../lib/stores/draft-invocation.ts';
import { takeJourney } from '../../lib/stores/journey.ts';
import { ExportReportButton } from '../report/ExportReportButton.tsx';
import { InvocationForm } from './InvocationForm.tsx';

const PROGRESS_DELAY_MS = 500;

function blankInvocation(manifest: ToolManifest | undefined, capture: CaptureInfo | undefined): JsonObject {
  return {
    tool_name: manifest?.name ?? '',
    tool_version: manifest?.version ?? '',
    capture_selection: selectionForCapture(declaredSelectionShape(manifest), capture),
    arguments: manifest ? suggestedArguments(manifest, capture) : {},
    request_id: newRequestId(),
    timeout_ms: 30_000,
  };
}

/** The selection of an invocation in one line, for the folded invocation. */
function describeSelection(invocation: JsonObject | null): string {
  const selection = selectionOfInvocation(invocation);
  const ids = selection ? selectedCaptureIds(selection).join(', ') : '';
  return ids ? `on ${ids}` : '';
}

function newRequestId(): string {
  return `req-${crypto.randomUUID()}`;
}

/** Installed tools, an invocation editor (form or JSON), and the result of the last run. */
export function ToolsPage() {
  const manifests = useManifests();
  const captures = useCaptures();
  const [text, setText] = useState(() => JSON.stringify(peekDraftInvocation() ?? SPEC_EXAMPLES[0].value, null, 2));
  const [view, setView] = useState<'form' | 'json'>('form');
  const [runId, setRunId] = useState<number | null>(null);
  const [showProgress, setShowProgress] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const run = useRun(runId);
  const running = run?.state === 'running';

  useEffect(clearDraftInvocation, []);
  // With a result shown, the invocation can fold to one line so the result gets the page's width.
  const [invocationOpen, setInvocationOpen] = useState(true);

  // The start page's "Analyse the BLE demo captures": the §7.4 invocation, run on arrival.
  useEffect(() => {
    if (!takeJourney('ble-analysis')) return;
    const example = SPEC_EXAMPLES.find((entry) => entry.id === 'ble-analyzer')?.value;
    if (!isJsonObject(example)) return;
    const invocation = { ...example, request_id: newRequestId() };
    setText(JSON.stringify(invocation, null, 2));
    setInvocationOpen(false);
    void runInput(invocation, undefined, setRunId);
  }, []);

  useEffect(() => {
    if (!running) {
      setShowProgress(false);
      return;
    }
    const timer = setTimeout(() => setShowProgress(true), PROGRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [running]);

  const parsed = safeParseJson(text);
  const single = parsed.ok && isJsonObject(parsed.value) ? parsed.value : null;
  const lastErrors = run && !run.isPlan && run.state === 'done' ? run.records[0]?.result.errors ?? [] : [];

  const start = () => {
    const controller = new AbortController();
    abort.current = controller;
    // Text that is not JSON still goes to the executor, which answers INVALID_INVOCATION.
    const input = parsed.ok ? parsed.value : text;
    void runInput(input, controller.signal, setRunId);
  };

  const folded = Boolean(run) && !invocationOpen;
  return (
    <div className={`tools-page${run ? ' tools-page--has-result' : ''}${folded ? ' tools-page--folded' : ''}`}>
      {folded && (
        <section className="panel invocation-summary" aria-label="Invocation" data-testid="invocation-summary">
          <span>
            <strong>{single ? `${String(single.tool_name)} ${String(single.tool_version)}` : 'Plan'}</strong>{' '}
            <span className="muted small">{describeSelection(single)}</span>
          </span>
          <span className="spacer" />
          <button type="button" onClick={() => setInvocationOpen(true)} aria-expanded={false} data-testid="invocation-summary.edit">
            Edit invocation
          </button>
          <button type="button" className="primary" onClick={start} disabled={running}>
            Run again
          </button>
        </section>
      )}
      <aside className="panel tool-list" aria-label="Installed tools" hidden={folded}>
        <h2>Installed tools</h2>
        {manifests.isPending && <p className="muted">Loading…</p>}
        <ul>
          {(manifests.data ?? []).map((manifest) => (
            <li key={`${manifest.name}@${manifest.version}`}>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setText(JSON.stringify(blankInvocation(manifest, captures.data?.[0]), null, 2));
                  setView('form');
                }}
              >
                <strong>{manifest.name}</strong> <span className="muted">{manifest.version}</span>
              </button>
              <p className="muted small">{manifest.description}</p>
              <p className="tags">
                {manifest.capabilities.map((capability) => (
                  <span className="tag" key={capability}>
                    {capability}
                  </span>
                ))}
              </p>
            </li>
          ))}
        </ul>
        <h2>Specification examples</h2>
        <ul className="examples">
          {SPEC_EXAMPLES.map((example) => (
            <li key={example.id}>
              <button
                type="button"
                data-testid={`examples.${example.id}`}
                onClick={() => {
                  setText(JSON.stringify(example.value, null, 2));
                  setView(Array.isArray(example.value) ? 'json' : 'form');
                }}
              >
                {example.title}
              </button>
            </li>
          ))}
        </ul>
      </aside>

      <section className="panel editor" aria-label="Invocation" hidden={folded}>
        <div className="editor__toolbar">
          <div role="tablist" aria-label="Editor view">
            <button type="button" role="tab" aria-selected={view === 'form'} onClick={() => setView('form')} data-testid="invocation-editor.form-tab">
              Form
            </button>
            <button type="button" role="tab" aria-selected={view === 'json'} onClick={() => setView('json')} data-testid="invocation-editor.json-tab">
              JSON
            </button>
          </div>
          <span className="spacer" />
          {single && (
            <button type="button" onClick={() => setText(JSON.stringify({ ...single, request_id: newRequestId() }, null, 2))}>
              New request id
            </button>
          )}
          <button type="button" className="primary" onClick={start} disabled={running} data-testid="invocation-editor.run">
            {Array.isArray(parsed.ok ? parsed.value : null) ? 'Run plan' : 'Run'}
          </button>
          <button type="button" onClick={() => abort.current?.abort()} disabled={!running} data-testid="invocation-editor.cancel">
            Cancel
          </button>
          {run && (
            <button type="button" onClick={() => setInvocationOpen(false)} aria-expanded={true} data-testid="invocation-editor.fold">
              Fold
            </button>
          )}
        </div>
        {showProgress && run && (
          <div className="progress" data-testid="run.progress">
            <progress max={1} value={run.progress} aria-label="Run progress" /> <span>{Math.round(run.progress * 100)}%</span>
          </div>
        )}
        {view === 'form' && single ? (
          <InvocationForm
            invocation={single}
            manifests={manifests.data ?? []}
            captures={captures.data ?? []}
            errors={lastErrors}
            onChange={(next) => setText(JSON.stringify(next, null, 2))}
          />
        ) : (
          <>
            {view === 'form' && <p className="muted">{parsed.ok ? 'This is a plan (an array of invocations): edit it as JSON.' : 'The text is not valid JSON; fix it here.'}</p>}
            <textarea
              className="json-editor"
              spellCheck={false}
              value={text}
              onChange={(event) => setText(event.target.value)}
              aria-label="Invocation JSON"
              data-testid="invocation-editor.json"
            />
            {!parsed.ok && <p className="field__error">JSON: {parsed.message}</p>}
          </>
        )}
      </section>

      <section className="panel results" aria-label="Results" data-testid="results">
        <div className="results__header">
          <h2>Result</h2>
          <span className="spacer" />
          {run?.state === 'done' && <ExportReportButton source={{ kind: 'tool-run', run }} />}
        </div>
        {!run && <p className="muted">Run an invocation to see its ToolResult here.</p>}
        {run?.state === 'running' && run.records.length === 0 && <p className="muted">Running…</p>}
        {run?.records.map((record, index) => (
          <ResultView key={index} record={record} title={run.isPlan ? `Step ${index + 1}${record.requestId ? ` · ${record.requestId}` : ''}` : undefined} />
        ))}
      </section>
    </div>
  );
}
