import { classifyChange, type ToolManifest } from '../../../core/index.ts';
import { diffInvocations } from '../planner/invocation-diff.ts';

/**
 * Two versions compared, with the compatibility policy's verdict on the change between them: only
 * the JSON leaves that differ, by path (issue 23: two 160-px JSON columns kept the change out of
 * sight), each with its old and new value; the full manifests stay a click away.
 */
export function VersionDiff({ older, newer }: { older: ToolManifest; newer: ToolManifest }) {
  const classification = classifyChange(older, newer);
  const rows = diffInvocations(older, newer).filter((row) => row.kind !== 'same');
  const mark = { changed: '~', added: '+', removed: '−', same: '' } as const;
  return (
    <section className="panel version-diff" aria-label="Version diff" data-testid="manifest-diff">
      <h2>
        {older.name}: {older.version} → {newer.version} <span className="tag">{classification.kind}</span>
      </h2>
      <p className="small">{classification.message}</p>
      {rows.length === 0 ? (
        <p className="muted">The two versions have the same content.</p>
      ) : (
        <ul className="version-diff__list" aria-label={`${rows.length} differences`}>
          {rows.map((row) => (
            <li key={row.path} className={`version-diff__row version-diff__row--${row.kind}`} data-testid="manifest-diff.row" data-kind={row.kind}>
              <code className="version-diff__path">
                <span aria-hidden="true">{mark[row.kind]} </span>
                {row.path}
                <span className="visually-hidden"> ({row.kind})</span>
              </code>
              {row.before !== undefined && (
                <code className="diff-removed version-diff__value">
                  <span className="visually-hidden">{older.version}: </span>
                  {row.before}
                </code>
              )}
              {row.after !== undefined && (
                <code className="diff-added version-diff__value">
                  <span className="visually-hidden">{newer.version}: </span>
                  {row.after}
                </code>
              )}
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>Both manifests in full</summary>
        {[older, newer].map((manifest) => (
          <div key={manifest.version}>
            <h3 className="small">Version {manifest.version}</h3>
            <pre tabIndex={0} aria-label={`Version ${manifest.version}`}>
              {JSON.stringify(manifest, null, 2)}
            </pre>
          </div>
        ))}
      </details>
    </section>
  );
}
