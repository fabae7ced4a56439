import { useQueryClient } from '@tanstack/react-query';
import { updateSettings, useSettings } from '../../lib/stores/settings.ts';
import { WorkspacePanel } from './WorkspacePanel.tsx';
import { KeyringPanel } from '../keyring/KeyringPanel.tsx';

/** Workspace settings: worker pool size and developer options. */
export function SettingsPage() {
  const settings = useSettings();
  const queryClient = useQueryClient();
  return (
    <>
    <section className="panel settings" aria-label="Settings">
      <h2>Settings</h2>
      <label className="field">
        <span className="field__label">Tools workers</span>
        <input
          type="number"
          min={1}
          max={16}
          value={settings.workerCount}
          onChange={(event) => {
            const count = Math.round(Number(event.target.value));
            if (count >= 1 && count <= 16) updateSettings({ workerCount: count });
          }}
          data-testid="settings.worker-count"
        />
        <span className="field__hint">Analyses run in this many Web Workers at once; a worker that overruns its timeout is replaced.</span>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={settings.testTools}
          onChange={(event) => {
            updateSettings({ testTools: event.target.checked });
            void queryClient.invalidateQueries({ queryKey: ['manifests'] });
          }}
          data-testid="settings.test-tools"
        />
        Developer: install the diagnostic <code>test_echo</code> tool
      </label>
    </section>
    <WorkspacePanel />
    <KeyringPanel />
    </>
  );
}
