import { classifyChange, type ToolManifest } from '../../../core/index.ts';

/** Two versions side by side, with the compatibility policy's verdict on the change between them. */
export function VersionDiff({ older, newer }: { older: ToolManifest; newer: ToolManifest }) {
  const classification = classifyChange(older, newer);
  const left = JSON.stringify(older, null, 2).split('\n');
  const right = JSON.stringify(newer, null, 2).split('\n');
  const rightSet = new Set(right);
  const leftSet = new Set(left);
  return (
    <section className="panel version-diff" aria-label="Version diff" data-testid="manifest-diff">
      <h2>
        {older.name}: {older.version} → {newer.version} <span className="tag">{classification.kind}</span>
      </h2>
      <p className="small">{classification.message}</p>
      <div className="version-diff__columns">
        <div className="diff-pane" aria-label={`Version ${older.version}`}>
          {left.map((line, index) => (
            <div key={index} className={rightSet.has(line) ? 'diff-line' : 'diff-line diff-removed'}>
              {line}
            </div>
          ))}
        </div>
        <div className="diff-pane" aria-label={`Version ${newer.version}`}>
          {right.map((line, index) => (
            <div key={index} className={leftSet.has(line) ? 'diff-line' : 'diff-line diff-added'}>
              {line}
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
