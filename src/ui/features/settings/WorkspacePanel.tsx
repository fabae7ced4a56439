import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatBytes, WORKSPACE_FILE_EXTENSION } from '../../lib/workspace/index.ts';
import { getWorkspace, workspaceProblem } from '../../lib/workspace-session.ts';
import { getKeyring } from '../../lib/keyring/keyring.ts';

/** Where the workspace lives, how much room it has, and moving it as one file. */
export function WorkspacePanel() {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [includeIdentityKeys, setIncludeIdentityKeys] = useState(false);
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

  const importAll = async (file: File) => {
    const workspace = await getWorkspace();
    if (!workspace) return;
    // A file's keyring would replace this browser's: keep both.
    const imported = await getKeyring().keepThrough(() => workspace.importWorkspace(file, { onConflict: 'replace' }));
    if (!imported.ok) return setMessage({ kind: 'error', text: `${imported.error.code}: ${imported.error.message}. Nothing stored was changed.` });
    setMessage({ kind: 'ok', text: `Imported ${imported.value.captures} captures and ${imported.value.runs} runs. Reload to use them.` });
    await queryClient.invalidateQueries({ queryKey: ['storage-usage'] });
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
          <input type="file" accept={WORKSPACE_FILE_EXTENSION} hidden onChange={(event) => event.target.files?.[0] && void importAll(event.target.files[0])} data-testid="settings.import-workspace" />
        </label>
      </div>
      {message && (
        <p className={message.kind === 'error' ? 'field__error' : 'muted'} role="status" data-testid="settings.workspace-message">
          {message.text}
        </p>
      )}
    </section>
  );
}
