import { useMemo, useState } from 'react';
import { lintManifestText, safeParseJson, type ToolManifest } from '../../../core/index.ts';
import { useManifests } from '../../lib/runtime/queries.ts';
import { ConformancePanel } from './ConformancePanel.tsx';
import { SavePanel } from './SavePanel.tsx';
import { VersionDiff } from './VersionDiff.tsx';
import { ExportPanel } from './ExportPanel.tsx';
import { ImportDefinitionPanel } from './ImportDefinitionPanel.tsx';
import { PendingEndpointsPanel } from './PendingEndpointsPanel.tsx';
import { ManifestEditor, type EditorMarker } from './ManifestEditor.tsx';
import { locateJsonPath } from './json-locate.ts';

/**
 * Manifest authoring: Monaco with the ToolManifest schema, Sextant's semantic lint with positions,
 * import from any tool-definition format and export to every provider's.
 */
export default function ManifestsPage() {
  const manifests = useManifests();
  const [text, setText] = useState<string>('');
  const [markers, setMarkers] = useState<EditorMarker[]>([]);
  const [diff, setDiff] = useState<{ older: ToolManifest; newer: ToolManifest } | null>(null);
  const [reveal, setReveal] = useState<{ line: number; column: number } | null>(null);
  const current = text === '' && manifests.data?.[0] ? JSON.stringify(manifests.data[0], null, 2) : text;

  const problems = useMemo(() => lintManifestText(current), [current]);
  const clean = problems.every((problem) => problem.severity !== 'error');
  const parsed = safeParseJson(current);
  // Only a manifest with no lint errors is exported; the lint has checked its shape.
  const manifest = clean && parsed.ok ? (parsed.value as unknown as ToolManifest) : null;

  return (
    <div className="manifests-page">
      <aside className="panel tool-list" aria-label="Manifests">
        <h2>Installed manifests</h2>
        <ul>
          {(manifests.data ?? []).map((candidate, index, all) => {
            const older = all.find((other, otherIndex) => otherIndex > index && other.name === candidate.name);
            return (
              <li key={`${candidate.name}@${candidate.version}`}>
                <button type="button" className="link-button" onClick={() => setText(JSON.stringify(candidate, null, 2))} data-testid="manifest-list.item">
                  <strong>{candidate.name}</strong> <span className="muted">{candidate.version}</span>
                </button>
                {older && (
                  <button type="button" className="link-button muted small" onClick={() => setDiff({ older, newer: candidate })} data-testid="manifest-list.compare">
                    {' '}
                    compare with {older.version}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      </aside>
      <section className="panel" aria-label="Manifest editor">
        <h2>Manifest</h2>
        <SavePanel manifest={manifest} installed={manifests.data ?? []} />
        <ManifestEditor value={current} onChange={setText} onMarkers={setMarkers} reveal={reveal} />
        <div className="problems" data-testid="manifest-problems">
          {markers.length === 0 && problems.length === 0 && (
            <p className="badge badge--ok" data-testid="manifest-problems.clean">
              valid ToolManifest
            </p>
          )}
          <ul className="issue-list issue-list--errors">
            {markers.map((marker, index) => (
              <li key={`marker-${index}`} className="issue" data-testid="manifest-problems.item">
                <span className="issue__code">schema</span>
                <button type="button" className="issue__field link-button" onClick={() => setReveal({ line: marker.line, column: marker.column })}>
                  line {marker.line}:{marker.column}
                </button>
                <span className="issue__message">{marker.message}</span>
              </li>
            ))}
            {problems.map((problem, index) => {
              const at = locateJsonPath(current, problem.path);
              return (
                <li key={`lint-${index}`} className={`issue issue--${problem.severity}`} data-testid="manifest-problems.item" data-code={problem.code}>
                  <span className="issue__code">{problem.code}</span>
                  <button type="button" className="issue__field link-button" onClick={() => at && setReveal(at)} title={at ? `line ${at.line}:${at.column}` : undefined}>
                    {problem.path}
                  </button>
                  <span className="issue__message">{problem.message}</span>
                </li>
              );
            })}
          </ul>
        </div>
      </section>
      <div>
        <PendingEndpointsPanel />
        {diff && <VersionDiff older={diff.older} newer={diff.newer} />}
        <ImportDefinitionPanel onOpen={setText} />
        <ExportPanel manifest={manifest} />
        <ConformancePanel manifest={manifest} />
      </div>
    </div>
  );
}
