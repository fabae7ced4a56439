import { useCaptures } from '../../lib/queries.ts';

/** The captures tools can select from, with what validation checks against. */
export function CapturesPage() {
  const captures = useCaptures();
  return (
    <div className="captures-page">
      {captures.isPending && <p className="muted">Loading captures…</p>}
      {captures.isError && <p className="field__error">Could not load captures: {String(captures.error)}</p>}
      {(captures.data ?? []).map((capture) => (
        <section className="panel" key={capture.id} data-testid="captures.card" aria-label={capture.id}>
          <h2>
            <code>{capture.id}</code> <span className="muted small">{capture.source}</span>
          </h2>
          {capture.description && <p>{capture.description}</p>}
          <dl className="metrics">
            <div className="metric">
              <dt>Rows</dt>
              <dd>{capture.rowCount.toLocaleString('en-US')}</dd>
            </div>
            <div className="metric">
              <dt>Time bounds ({capture.boundsSource})</dt>
              <dd>
                {capture.bounds.start_ms}–{capture.bounds.end_ms} ms
              </dd>
            </div>
            <div className="metric">
              <dt>Time origin</dt>
              <dd>{capture.timeOrigin ?? 'unknown'}</dd>
            </div>
            <div className="metric">
              <dt>Channels ({capture.channelColumn ?? 'no channel column'})</dt>
              <dd>{capture.channels.join(', ') || '—'}</dd>
            </div>
          </dl>
          <table className="data-table">
            <caption>Columns</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {capture.columns.map((column) => (
                <tr key={column.name}>
                  <td>
                    <code>{column.name}</code>
                  </td>
                  <td>{column.kind}</td>
                  <td>{column.name === capture.timeColumn ? 'time' : column.name === capture.channelColumn ? 'channel' : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
