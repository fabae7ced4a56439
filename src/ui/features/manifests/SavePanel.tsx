import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ChangeClassification, ToolManifest } from '../../../core/index.ts';
import { saveManifest } from '../../lib/stores/saved-manifests.ts';

/**
 * Saves the manifest in the editor as a new version. A change whose version bump is smaller than
 * the compatibility policy requires is refused, with the changes that require more.
 */
export function SavePanel({ manifest, installed }: { manifest: ToolManifest | null; installed: ToolManifest[] }) {
  const queryClient = useQueryClient();
  const [endpoint, setEndpoint] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string; classification: ChangeClassification | null } | null>(null);
  const save = async () => {
    if (!manifest) return;
    const url = endpoint.trim();
    if (url !== '' && !/^https?:\/\/\S+$/.test(url)) {
      setOutcome({ ok: false, message: `The endpoint must be an http(s) URL, got '${url}'`, classification: null });
      return;
    }
    const result = await saveManifest(manifest, installed, url === '' ? undefined : url);
    if (result.ok) {
      const kind = result.classification ? `a ${result.classification.kind} change` : 'a new tool';
      setOutcome({ ok: true, message: `Saved ${manifest.name} ${manifest.version} (${kind}).`, classification: result.classification });
      await queryClient.invalidateQueries({ queryKey: ['manifests'] });
    } else {
      setOutcome({ ok: false, message: result.message, classification: result.classification });
    }
  };
  return (
    <div className="save-panel">
      <div className="inline-inputs">
        <button type="button" className="primary" disabled={!manifest} onClick={() => void save()} data-testid="manifest-save">
          Save as {manifest ? `${manifest.name} ${manifest.version}` : '…'}
        </button>
        <label className="endpoint-field">
          served by{' '}
          <input
            type="url"
            placeholder="https://… (optional endpoint that runs it)"
            value={endpoint}
            onChange={(event) => setEndpoint(event.target.value)}
            data-testid="manifest-save.endpoint"
          />
        </label>
      </div>
      {outcome && (
        <div className={outcome.ok ? 'notice' : 'notice notice--blocked'} role="status" data-testid="manifest-save.message" data-ok={outcome.ok}>
          <p>{outcome.message}</p>
          {outcome.classification && outcome.classification.reasons.length > 0 && (
            <ul className="small">
              {outcome.classification.reasons.map((reason, index) => (
                <li key={index}>
                  <strong>{reason.kind}</strong> <code>{reason.path}</code>: {reason.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
