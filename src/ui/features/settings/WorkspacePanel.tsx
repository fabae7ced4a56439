import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatBytes, WORKSPACE_FILE_EXTENSION, type WorkspaceImportPreview } from '../../lib/workspace/index.ts';
import { getWorkspace, workspaceProblem } from '../../lib/stores/workspace-session.ts';
import { getKeyring } from '../../lib/keyring/keyring.ts';
import { getRuntime } from '../../lib/runtime/sextant-runtime.ts';
import { reloadSavedRuns } from '../../lib/runtime/run-input.ts';
import { getMcpHistory, MAX_HISTORY_ENTRIES } from '../../lib/runtime/mcp-history.ts';

/** Where the workspace lives, how much room it has, and moving it as one file. */
export function WorkspacePanel() {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [includeIdentityKeys, setIncludeIdentityKeys] = useState(false);
  const [pending, setPending] = useState<{ file: File; preview: WorkspaceImportPreview } | null>(null);
  const usage = useQuery({
    queryKey: ['storage-usage'],
    queryFn: async () => (await getWorkspace())?.storageEstimate() ?? null,
  });

  const exportAll = async () => {
    const workspace = await getWorkspace();
    if (!workspace) return;
    const file = await workspace.exportWorkspace({ includeIdentityKeys });
    if (!file.ok) return setMessage({ kind: 'error', text: `${file.error.code}: ${file.error.message}` });
    const url = URL.createObjectURL(file.value);
    const link = document.createElement('a');
    link.href = url;
    link.download = `sextant-workspace${WORKSPACE_FILE_EXTENSION}`;
    link.click();
    URL.revokeObjectURL(url);
    setMessage({ kind: 'ok', text: `Exported ${formatBytes(file.value.size)}${includeIdentityKeys ? ', identity keys included' : ', without identity keys'}` });
  };

  // Nothing is written until the analyst has seen what the file would add and replace.
  const reviewImport = async (file: File) => {
    const workspace = await getWorkspace();
    if (!workspace) return;
    setMessage(null);
    const preview = await workspace.previewImport(file);
    if (!preview.ok) return setMessage({ kind: 'error', text: `${preview.error.code}: ${preview.error.message}. Nothing stored was changed.` });
    setPending({ file, preview: preview.value });
  };

  const importAll = async (file: File, choices: { replace: boolean; enableEndpoints: string[] }) => {
    const workspace = await getWorkspace();
    if (!workspace) return;
    setPending(null);
    // A file's keyring would replace this browser's: keep both.
    const imported = await getKeyring().keepThrough(() => workspace.importWorkspace(file, { onConflict: choices.replace ? 'replace' : 'skip', enableEndpoints: choices.enableEndpoints }));
    if (!imported.ok) return setMessage({ kind: 'error', text: `${imported.error.code}: ${imported.error.message}. Nothing stored was changed.` });
    const { captures, runs, skipped } = imported.value;
    // What the file added is put to use at once: captures into the workers, runs into the list.
    await getRuntime().loadWorkspaceCaptures({ replaced: choices.replace });
    await reloadSavedRuns({ replace: choices.replace });
    await getMcpHistory().reload();
    const problems = getRuntime().restoreProblems;
    setMessage({
      kind: 'ok',
      text: `Imported ${captures} captures and ${runs} runs${skipped > 0 ? `; ${skipped} entries left as they were` : ''}. They are ready to use.${problems.length > 0 ? ` ${problems.length} saved captures could not be loaded: ${problems.map((problem) => `${problem.id} (${problem.message})`).join('; ')}` : ''}`,
    });
    await queryClient.invalidateQueries({ queryKey: ['storage-usage'] });
    await queryClient.invalidateQueries({ queryKey: ['captures'] });
    // Saved manifests and their imported endpoints (pending or enabled) show without a reload.
    await queryClient.invalidateQueries({ queryKey: ['manifests'] });
  };

  const persist = async () => {
    const result = await (await getWorkspace())?.requestPersistentStorage();
    setMessage({ kind: result === 'granted' ? 'ok' : 'error', text: `Persistent storage: ${result ?? 'unavailable'}` });
    await queryClient.invalidateQueries({ queryKey: ['storage-usage'] });
  };

  const problem = workspaceProblem();
  return (
    <section className="panel settings" aria-label="Workspace" data-testid="settings.workspace">
      <h2>Workspace</h2>
      <p className="muted small">Captures and runs are kept in this browser (IndexedDB) and are never uploaded.</p>
      {problem && <p className="field__error">{problem.message}</p>}
      {usage.data && (
        <p data-testid="settings.storage-usage">
          Using {formatBytes(usage.data.usageBytes)} of {formatBytes(usage.data.quotaBytes)}
          {usage.data.persisted === true ? ' · persistent' : usage.data.persisted === false ? ' · may be evicted under storage pressure' : ''}
        </p>
      )}
      <div className="inline-inputs">
        <button type="button" onClick={() => void persist()}>
          Ask to keep storage
        </button>
        <button type="button" onClick={() => void exportAll()} data-testid="settings.export-workspace">
          Export workspace
        </button>
        <label className="checkbox">
          <input type="checkbox" checked={includeIdentityKeys} onChange={(event) => setIncludeIdentityKeys(event.target.checked)} data-testid="settings.export-identity-keys" />
          include identity keys
        </label>
        <label className="button-like">
          Import workspace…
          <input type="file" accept={WORKSPACE_FILE_EXTENSION} hidden onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void reviewImport(file);
            }} data-testid="settings.import-workspace" />
        </label>
      </div>
      {pending && (
        <ImportReview
          preview={pending.preview}
          onImport={(choices) => void importAll(pending.file, choices)}
          onCancel={() => {
            setPending(null);
            setMessage({ kind: 'ok', text: 'Import cancelled; nothing was changed.' });
          }}
        />
      )}
      {message && (
        <p className={message.kind === 'error' ? 'field__error' : 'muted'} role="status" data-testid="settings.workspace-message">
          {message.text}
        </p>
      )}
    </section>
  );
}

/** What a workspace file would change; replacing and endpoint bindings are opt-in. */
function ImportReview({
  preview,
  onImport,
  onCancel,
}: {
  preview: WorkspaceImportPreview;
  onImport(choices: { replace: boolean; enableEndpoints: string[] }): void;
  onCancel(): void;
}) {
  const [replace, setReplace] = useState(false);
  const [enabled, setEnabled] = useState<ReadonlySet<string>>(new Set());
  const replacing =
    preview.captures.filter((capture) => capture.replaces).length +
    preview.runs.replacing +
    preview.plannerRuns.replacing +
    preview.settings.filter((setting) => setting.replaces).length +
    preview.manifests.filter((manifest) => manifest.replaces && manifest.problems.length === 0).length;
  const toggle = (key: string, on: boolean) => {
    const next = new Set(enabled);
    if (on) next.add(key);
    else next.delete(key);
    setEnabled(next);
  };
  return (
    <div className="import-review" role="dialog" aria-label="Review workspace import" data-testid="settings.import-review">
      <h3>Import a workspace exported {preview.exportedAt}</h3>
      <ul>
        <li>
          {preview.captures.length} captures
          {preview.captures.length > 0 && `: ${preview.captures.map((capture) => `${capture.id}${capture.replaces ? ' (replaces yours)' : ''}`).join(', ')}`}
        </li>
        <li>
          {preview.runs.count} runs ({preview.runs.replacing} replace yours), {preview.plannerRuns.count} planner runs ({preview.plannerRuns.replacing} replace yours)
        </li>
        <li>
          {preview.settings.length} settings{preview.settings.some((setting) => setting.replaces) && ` (${preview.settings.filter((setting) => setting.replaces).map((setting) => setting.key).join(', ')} replace yours)`}
        </li>
        {preview.mcpHistory.count > 0 && (
          <li data-testid="settings.import-mcp-history">
            {preview.mcpHistory.count} MCP calls for the call history ({preview.mcpHistory.new} new; merged with yours, newest {MAX_HISTORY_ENTRIES} kept)
          </li>
        )}
      </ul>
      {preview.manifests.length > 0 && (
        <table className="import-review__manifests" data-testid="settings.import-manifests">
          <thead>
            <tr>
              <th>Saved manifest</th>
              <th>Lint</th>
              <th>Endpoint in the file</th>
            </tr>
          </thead>
          <tbody>
            {preview.manifests.map((manifest) => (
              <tr key={manifest.key} data-testid="settings.import-manifest">
                <td>
                  {manifest.key}
                  {manifest.replaces && ' (replaces yours)'}
                </td>
                <td>{manifest.problems.length === 0 ? 'clean' : `not imported: ${manifest.problems.join('; ')}`}</td>
                <td>
                  {manifest.endpoint === null ? (
                    '—'
                  ) : (
                    <label>
                      <input
                        type="checkbox"
                        disabled={manifest.problems.length > 0}
                        checked={enabled.has(manifest.key)}
                        onChange={(event) => toggle(manifest.key, event.target.checked)}
                        data-testid="settings.import-endpoint"
                      />{' '}
                      bind to <code>{manifest.endpoint}</code> (left disabled unless ticked)
                    </label>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {replacing > 0 && (
        <label>
          <input type="checkbox" checked={replace} onChange={(event) => setReplace(event.target.checked)} data-testid="settings.import-replace" /> Replace {replacing} of
          my entries with the file's (otherwise mine are kept)
        </label>
      )}
      <div className="inline-inputs">
        <button type="button" onClick={() => onImport({ replace, enableEndpoints: [...enabled] })} data-testid="settings.import-confirm">
          Import
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
