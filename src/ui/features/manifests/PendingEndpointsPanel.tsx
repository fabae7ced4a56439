import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { decidePendingEndpoint, loadSavedManifests, type PendingEndpointAction, type SavedManifest } from '../../lib/stores/saved-manifests.ts';

/**
 * Endpoints that came with an imported workspace file and were not enabled then. Each stays
 * disabled (the tool validates but cannot run) until the analyst enables it — after confirming
 * that invocations will go to that server — or discards it. URLs are shown as text only.
 */
export function PendingEndpointsPanel() {
  const queryClient = useQueryClient();
  // Under 'manifests' so a save or a decision here (which invalidates that key) refreshes it too.
  const saved = useQuery({ queryKey: ['manifests', 'pending-endpoints'], queryFn: loadSavedManifests, staleTime: Infinity });
  const [confirming, setConfirming] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const pending = (saved.data ?? []).filter((entry): entry is SavedManifest & { pendingEndpoint: string } => typeof entry.pendingEndpoint === 'string' && entry.pendingEndpoint !== '');
  if (pending.length === 0 && !message) return null;

  const decide = async (entry: SavedManifest, action: PendingEndpointAction) => {
    const { name, version } = entry.manifest;
    setConfirming(null);
    const outcome = await decidePendingEndpoint(name, version, action);
    setMessage(
      outcome.ok
        ? { ok: true, text: action === 'enable' ? `Enabled the endpoint of ${name} ${version}: its invocations now go to ${outcome.entry.endpoint ?? ''}.` : `Discarded the imported endpoint of ${name} ${version}.` }
        : { ok: false, text: outcome.message },
    );
    // The runtime rebinds endpoints when the manifests query reloads the saved list.
    await queryClient.invalidateQueries({ queryKey: ['manifests'] });
  };

  return (
    <section className="panel" aria-labelledby="pending-endpoints-heading" data-testid="pending-endpoints">
      <h2 id="pending-endpoints-heading">Imported endpoints</h2>
      <ul className="issue-list">
        {pending.map((entry) => {
          const { name, version } = entry.manifest;
          const key = `${name}@${version}`;
          const label = `${name} ${version}`;
          return (
            <li key={key} className="notice" data-testid="pending-endpoints.item" data-key={key}>
              <p>
                <strong>{label}</strong> — Imported endpoint, not enabled: <code data-testid="pending-endpoints.url">{entry.pendingEndpoint}</code>
              </p>
              {confirming === key ? (
                <div role="group" aria-label={`Confirm enabling the endpoint of ${label}`}>
                  <p>Every invocation of {label} will be sent to this server: {entry.pendingEndpoint}. Enable it?</p>
                  <div className="inline-inputs">
                    <button type="button" className="primary" onClick={() => void decide(entry, 'enable')} data-testid="pending-endpoints.confirm">
                      Send invocations there
                    </button>
                    <button type="button" onClick={() => setConfirming(null)} data-testid="pending-endpoints.cancel">
                      Cancel
                    </button>
                  </div>
                </div>
              ) : (
                <div className="inline-inputs">
                  <button type="button" onClick={() => setConfirming(key)} aria-label={`Enable endpoint of ${label}`} data-testid="pending-endpoints.enable">
                    Enable endpoint
                  </button>
                  <button type="button" onClick={() => void decide(entry, 'discard')} aria-label={`Discard imported endpoint of ${label}`} data-testid="pending-endpoints.discard">
                    Discard
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {message && (
        <p className={message.ok ? 'notice' : 'notice notice--blocked'} role="status" data-testid="pending-endpoints.message">
          {message.text}
        </p>
      )}
    </section>
  );
}
