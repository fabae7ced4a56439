import { type TimelineStep } from '../../../core/index.ts';
import { memo } from 'react';
import { ResultView } from '../../components/ResultView.tsx';
import { ErrorList } from '../../components/IssueList.tsx';
import { formatCount } from '../../components/format.ts';
import { InvocationDiff } from './InvocationDiff.tsx';
import { useLiveOutput, type LiveOutput } from './live-output.ts';
import { SafeMarkdown } from './SafeMarkdown.tsx';

// A result view (plots, tables) is costly to rebuild; its record keeps its identity between saves.
const StableResultView = memo(ResultView);

/**
 * The loop's steps in order. Every text that came from a model or a capture is rendered as text.
 * While running, a last pending item shows what the request in flight has streamed so far (`live`).
 */
export function Timeline({ steps, running, live }: { steps: ReadonlyArray<TimelineStep>; running: boolean; live?: LiveOutput }) {
  // An execution's result view needs the invocation it ran (the BLE view jumps to its packets).
  const invocations = new Map<string, unknown>();
  for (const step of steps) if (step.kind === 'invocation') invocations.set(step.callId, step.invocation);
  return (
    <ol className="timeline" data-testid="planner.timeline" aria-label="Planner steps">
      {steps.map((step, index) => (
        <li key={index} className={`timeline__step timeline__step--${step.kind}`} data-testid={`planner.step.${step.kind}`}>
          <StepView step={step} invocation={step.kind === 'execution' ? invocations.get(step.callId) : undefined} />
        </li>
      ))}
      {running && (
        <li className="timeline__step timeline__step--pending" data-testid="planner.step.pending">
          <PendingStep live={live} />
        </li>
      )}
    </ol>
  );
}

/** Its own component, so the stream re-renders this item only, not the whole timeline. */
function PendingStep({ live }: { live?: LiveOutput }) {
  const response = useLiveOutput(live);
  return (
    <>
      <div className="muted">Working…</div>
      {/* Model output in progress: text nodes only, never parsed as HTML. */}
      {response?.reasoning && (
        <>
          <p className="small">
            <span className="tag">Reasoning, streaming</span>
          </p>
          <pre className="model-text muted" data-testid="planner.live.reasoning">
            {response.reasoning}
          </pre>
        </>
      )}
      {response?.text && (
        <pre className="model-text" data-testid="planner.live.text">
          {response.text}
        </pre>
      )}
      {response?.toolCalls.map((call) => (
        <p key={call.id} className="small" data-testid="planner.live.tool-call">
          calling <code>{call.name || 'a tool'}</code>…
        </p>
      ))}
    </>
  );
}

function StepView({ step, invocation }: { step: TimelineStep; invocation?: unknown }) {
  switch (step.kind) {
    case 'discover':
      return (
        <>
          <h3>Discover</h3>
          <p>
            {step.tools.length} tool definitions sent ({step.tools.map((tool) => tool.name).join(', ')}) · about{' '}
            <span data-testid="planner.discover.tokens">{formatCount(step.tokenEstimate)}</span> tokens
          </p>
          <details>
            <summary>Tool definitions as sent</summary>
            <pre data-testid="planner.discover.definitions" tabIndex={0}>{JSON.stringify(step.tools, null, 2)}</pre>
          </details>
        </>
      );
    case 'llm-request':
      return (
        <>
          <h3>
            LLM request · turn {step.turn}, attempt {step.attempt}{' '}
            <span className={`badge badge--${step.status === 'ok' ? 'ok' : step.status === 'pending' ? 'running' : 'error'}`} data-testid="planner.llm.status">
              {step.status}
            </span>
          </h3>
          <p className="small">
            <span data-testid="planner.llm.target">
              {step.provider}:{step.model}
            </span>{' '}
            · {step.latencyMs.toFixed(0)} ms · {formatCount(step.inputTokens)} in / {formatCount(step.outputTokens)} out
            {step.cachedTokens > 0 ? ` / ${formatCount(step.cachedTokens)} cached` : ''} tokens
            {step.expectedTokens !== undefined ? ` · guard estimate ${formatCount(step.expectedTokens)}` : ''}
            {step.toolCalls && step.toolCalls.length > 0 ? ` · called ${step.toolCalls.join(', ')}` : ''}
          </p>
          {(step.notices ?? []).map((notice, index) => (
            <p key={index} className="muted small">
              Sent with this attempt only: {notice}
            </p>
          ))}
          {step.ignored && <p className="muted small">The response was not used ({step.ignored}).</p>}
          {step.failure && (
            <p className="notice notice--blocked" data-testid="planner.llm.failure" data-kind={step.failure.kind}>
              <strong>{step.failure.kind}</strong>
              {step.failure.httpStatus !== undefined ? ` (HTTP ${step.failure.httpStatus})` : ''}: {step.failure.message}
              {step.failure.retryAfterMs !== undefined ? ` Retry-After ${step.failure.retryAfterMs} ms.` : ''}
              {step.failure.fatal ? ' Not retried: the session ends.' : ''}
            </p>
          )}
          {step.waitMs !== undefined && step.waitMs > 0 && (
            <p className="muted small" data-testid="planner.llm.wait">
              Waited {step.waitMs} ms before the next attempt.
            </p>
          )}
          {step.reasoning && (
            <details>
              <summary>Reasoning</summary>
              <pre className="model-text">{step.reasoning}</pre>
            </details>
          )}
          {step.text && <pre className="model-text" data-testid="planner.llm.text">{step.text}</pre>}
        </>
      );
    case 'invocation':
      return (
        <>
          <h3>
            Invocation <code>{step.toolName}</code>{' '}
            <span className={`badge badge--${step.valid ? 'ok' : 'error'}`} data-testid="planner.invocation.validation">
              {step.valid ? 'valid' : 'invalid'}
            </span>
            {step.source === 'offline-repairer' && <span className="tag tag--repairer">from the offline repairer</span>}
            {step.argumentsRepaired && (
              <span className="tag" title="The arguments were not valid JSON; jsonrepair fixed them and they were validated again">
                arguments repaired
              </span>
            )}
          </h3>
          <ErrorList errors={step.errors} />
          {step.rawArguments !== undefined && (
            <details>
              <summary>Arguments as the model sent them</summary>
              <pre tabIndex={0}>{step.rawArguments}</pre>
            </details>
          )}
          <details>
            <summary>Invocation as validated</summary>
            <pre tabIndex={0}>{JSON.stringify(step.invocation, null, 2)}</pre>
          </details>
        </>
      );
    case 'repair':
      return (
        <>
          <h3>Repair</h3>
          <InvocationDiff failed={step.failed} regenerated={step.regenerated} errors={step.errors} source={step.source} />
          {(step.reasons ?? []).length > 0 && (
            <ul className="small planner-repair-reasons">
              {step.reasons!.map((reason, index) => (
                <li key={index}>{reason}</li>
              ))}
            </ul>
          )}
        </>
      );
    case 'execution':
      return (
        <>
          <StableResultView record={step.record} invocation={invocation} title={`Execution · ${step.record.requestId ?? step.callId}`} />
          {(step.notes ?? []).map((note, index) => (
            <p key={index} className="muted small" data-testid="planner.execution.note">
              {note}
            </p>
          ))}
          {step.modelContent !== undefined && (
            <details className="planner-model-content" data-testid="planner.execution.model-content">
              <summary className="small">
                What the model received: <span data-testid="planner.execution.model-bytes">{formatBytes(step.modelBytes ?? 0)}</span>
                {step.fullBytes !== undefined && <span className="muted"> (the full result above: {formatBytes(step.fullBytes)})</span>}
              </summary>
              {/* Tool output is data: shown as text, never parsed as HTML. */}
              <pre className="model-text small">{step.modelContent}</pre>
            </details>
          )}
        </>
      );
    case 'notice':
      return (
        <p className="muted" data-testid="planner.notice">
          {step.text}
        </p>
      );
    case 'final-report':
      return (
        <>
          <h3>
            Final report{' '}
            <span className={`badge badge--${step.status === 'success' ? 'ok' : 'error'}`} data-testid="planner.final.status">
              {step.status}
            </span>{' '}
            <span className="tag">{step.format}</span>
            {step.source && <span className="muted small">from {step.source === 'synthetic' ? 'the runtime (synthetic)' : step.source.replaceAll('_', ' ')}</span>}
          </h3>
          {/* A model's text is data: markdown is rendered to elements and text only (SafeMarkdown), never parsed as HTML. */}
          {step.format === 'markdown' ? (
            <>
              <div className="model-text final-report final-report--markdown" data-testid="planner.final.content">
                <SafeMarkdown source={step.content} />
              </div>
              <details className="small">
                <summary>Markdown source</summary>
                <pre className="model-text">{step.content}</pre>
              </details>
            </>
          ) : (
            <pre className="model-text final-report" data-testid="planner.final.content">
              {step.content}
            </pre>
          )}
        </>
      );
    case 'session-error':
      return (
        <p className="notice notice--blocked" data-testid="planner.session-error">
          {step.message}
        </p>
      );
  }
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB (${bytes.toLocaleString('en')} bytes)`;
}
