import { useState } from 'react';
import { MANIFEST_EXPORT_TARGETS, exportManifest, type ManifestExportTarget, type ToolManifest } from '../../../core/index.ts';

const LABELS: Record<ManifestExportTarget, string> = {
  internal: 'Internal tool definition',
  openai: 'OpenAI tools[]',
  anthropic: 'Anthropic tools[]',
  mcp: 'MCP tool',
  ollama: 'Ollama tools[]',
  json_schema: 'JSON Schema document',
};

/** The manifest in the editor as every provider's tool definition, to copy or download. */
export function ExportPanel({ manifest }: { manifest: ToolManifest | null }) {
  const [target, setTarget] = useState<ManifestExportTarget>('openai');
  const exported = manifest ? exportManifest(manifest, target) : null;
  const text = exported?.ok ? JSON.stringify(exported.value, null, 2) : null;
  const download = () => {
    if (!text || !manifest) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${manifest.name}-${target}.json`;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section className="panel" aria-label="Export" data-testid="manifest-export">
      <h2>Export</h2>
      {!manifest && <p className="muted">Fix the manifest's errors to export it.</p>}
      {manifest && (
        <>
          <div role="tablist" aria-label="Export format" className="inline-inputs">
            {MANIFEST_EXPORT_TARGETS.map((candidate) => (
              <button
                key={candidate}
                type="button"
                role="tab"
                aria-selected={candidate === target}
                className={candidate === target ? 'primary' : undefined}
                onClick={() => setTarget(candidate)}
                data-testid={`manifest-export.${candidate}`}
              >
                {LABELS[candidate]}
              </button>
            ))}
          </div>
          {exported && !exported.ok && (
            <ul className="issue-list issue-list--errors">
              {exported.error.map((problem, index) => (
                <li className="issue" key={index}>
                  <span className="issue__message">{problem.message}</span>
                </li>
              ))}
            </ul>
          )}
          {text && (
            <>
              <pre data-testid="manifest-export.output" tabIndex={0}>{text}</pre>
              <div className="inline-inputs">
                <button type="button" onClick={() => void navigator.clipboard.writeText(text)}>
                  Copy
                </button>
                <button type="button" onClick={download}>
                  Download
                </button>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
