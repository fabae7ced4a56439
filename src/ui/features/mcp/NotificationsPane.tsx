import { useState } from 'react';
import { getMcpServers, useMcpNotifications } from '../../lib/runtime/mcp-servers.ts';
import { isLogLevel, LOG_LEVELS, passesLevel, type LogLevel } from '../../lib/runtime/mcp-inspector-results.ts';

/**
 * What the server sent on its own: logging messages, list changes, resource updates, and the
 * progress of calls made from the page. Text only. The level filter hides logging messages below
 * it and, when the server offers logging, asks it to send only those (logging/setLevel).
 */
export function NotificationsPane({ url, serverLogs }: { url: string; serverLogs: boolean }) {
  const log = useMcpNotifications(url);
  const [level, setLevel] = useState<LogLevel>('debug');
  const [problem, setProblem] = useState<string | null>(null);
  const shown = log.entries.filter((entry) => passesLevel(entry, level));

  const choose = async (next: string) => {
    if (!isLogLevel(next)) return;
    setLevel(next);
    setProblem(serverLogs ? await getMcpServers().setLogLevel(url, next) : null);
  };

  return (
    <section className="mcp-notifications" aria-label="Notifications from the server" data-testid="mcp.notifications">
      <div className="inline-inputs">
        <h3>Notifications</h3>
        <label className="small">
          Level from{' '}
          <select value={level} onChange={(event) => void choose(event.target.value)} data-testid="mcp.notifications-level">
            {LOG_LEVELS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <span className="small muted" data-testid="mcp.notifications-count">
          {shown.length} of {log.entries.length} shown{log.dropped > 0 ? `; ${log.dropped} older ones dropped` : ''}
        </span>
        <button type="button" disabled={log.entries.length === 0} onClick={() => getMcpServers().clearNotifications(url)}>
          Clear
        </button>
      </div>
      {problem && (
        <p className="notice notice--blocked" role="alert">
          {problem}
        </p>
      )}
      {log.entries.length === 0 ? (
        <p className="muted small">Nothing yet. Logging messages, list changes and the progress of calls appear here.</p>
      ) : (
        <div className="mcp-notifications__log mono small" role="log" tabIndex={0} aria-label="Notification log" data-testid="mcp.notifications-log">
          <ol>
            {shown.map((entry) => (
              <li key={entry.seq} data-level={entry.level ?? undefined} data-testid="mcp.notification">
                <time dateTime={entry.at}>{entry.at.slice(11, 23)}</time> <span className="mcp-notifications__kind">{entry.level ?? entry.method.replace(/^notifications\//, '')}</span> {entry.text}
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
