import { useState } from 'react';
import { getMcpHistory, MAX_HISTORY_ENTRIES, useMcpHistory, type McpHistoryEntry } from '../../lib/runtime/mcp-history.ts';
import { rerunRefusal } from '../../lib/runtime/mcp-history-model.ts';
import { useMcpServers } from '../../lib/runtime/mcp-servers.ts';
import type { ToolError } from '../../../core/index.ts';
import { CodedErrors } from './CodedErrors.tsx';
import { rerunFromHistory } from './mcp-actions.ts';

/** The calls made to this server from the page, newest first, kept across reloads; each can be re-run. */
export function HistoryTab({ url }: { url: string }) {
  const history = useMcpHistory();
  const servers = useMcpServers();
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<ToolError | null>(null);
  const entries = history.entries.filter((entry) => entry.serverUrl === url);

  const rerun = async (entry: McpHistoryEntry) => {
    setBusy(entry.id);
    const outcome = await rerunFromHistory(entry, servers);
    // A re-run that could not start is not a call: say why here (a sent one is the newest entry).
    setRefusal(outcome.ok ? null : outcome.error);
    setBusy(null);
  };

  return (
    <div data-testid="mcp.history">
      {history.problem && (
        <p className="notice notice--blocked" role="alert">
          {history.problem}
        </p>
      )}
      {refusal && <CodedErrors errors={[refusal]} testId="mcp.history-refused" />}
      {!history.loaded && <p className="muted">Reading the history…</p>}
      {history.loaded && entries.length === 0 && <p className="muted">No call to this server yet. Calls from the Tools tab are kept here, across reloads.</p>}
      {entries.length > 0 && (
        <>
          <p className="inline-inputs small">
            <span className="muted">
              {entries.length} call{entries.length === 1 ? '' : 's'}, newest first (the last {MAX_HISTORY_ENTRIES} calls of all servers are kept in the workspace).
            </span>
            <button type="button" onClick={() => void getMcpHistory().clear(url)} data-testid="mcp.history-clear">
              Clear this server's history
            </button>
          </p>
          <ol className="mcp-history" data-testid="mcp.history-list">
            {entries.map((entry) => {
              const cannotRerun = rerunRefusal(entry);
              return (
                <li key={entry.id} className="mcp-history__entry" data-testid="mcp.history-entry">
                  <div className="inline-inputs">
                    <span className={`badge badge--${entry.result.status}`} data-testid="mcp.history-status">
                      {entry.result.status}
                    </span>
                    <strong className="mono">{entry.toolName}</strong>
                    <time className="small" dateTime={entry.startedAt}>
                      {new Date(entry.startedAt).toLocaleString()}
                    </time>
                    <span className="small muted" data-testid="mcp.history-duration">
                      {entry.phase === 'validation' ? 'not sent' : `${entry.durationMs.toFixed(0)} ms`}
                    </span>
                    <span className="spacer" />
                    <button type="button" disabled={busy !== null || cannotRerun !== null} onClick={() => void rerun(entry)} data-testid="mcp.history-rerun">
                      {busy === entry.id ? 'Running…' : 'Re-run'}
                    </button>
                  </div>
                  {cannotRerun !== null && (
                    <p className="small muted" data-testid="mcp.history-not-rerunnable">
                      {cannotRerun}
                    </p>
                  )}
                  <p className="small" data-testid="mcp.history-summary">
                    {entry.result.summary}
                  </p>
                  {entry.result.errors.map((error, index) => (
                    <p key={index} className="small">
                      <span className="mono">{error.code}</span> <span className="mono">{error.field || '(call)'}</span> {error.message}
                    </p>
                  ))}
                  <details>
                    <summary className="small">Arguments and result</summary>
                    <pre className="mono small mcp-pre" tabIndex={0} data-testid="mcp.history-args">
                      {entry.argumentsText}
                      {entry.omittedArgumentsChars !== undefined && `\n… [truncated: ${entry.omittedArgumentsChars.toLocaleString('en')} more characters not kept]`}
                    </pre>
                    {entry.omittedOutputChars !== undefined && <p className="small muted">The structured output ({entry.omittedOutputChars} characters of JSON) is not kept in the history: re-run to see it.</p>}
                    <pre className="mono small mcp-pre" tabIndex={0}>
                      {JSON.stringify(entry.result, null, 2)}
                    </pre>
                  </details>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </div>
  );
}
