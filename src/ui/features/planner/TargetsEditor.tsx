import { useState } from 'react';
import type { ProviderKind } from '../../../core/index.ts';
import { keySlotOf, useKeyStore } from '../../lib/planner/keys.ts';
import { PROVIDER_LABELS, move, newTargetDraft, type TargetDraft } from './target-drafts.ts';

const KINDS = Object.keys(PROVIDER_LABELS) as ProviderKind[];

/** The ordered provider targets; on retries the loop cycles through them in this order. */
export function TargetsEditor({ targets, onChange }: { targets: TargetDraft[]; onChange: (next: TargetDraft[]) => void }) {
  const [adding, setAdding] = useState<ProviderKind>('openai');
  const update = (index: number, change: Partial<TargetDraft>) => onChange(targets.map((target, at) => (at === index ? { ...target, ...change } : target)));
  return (
    <fieldset className="planner-targets" data-testid="planner.targets">
      <legend>Provider targets</legend>
      <p className="muted small">Tried in this order; a retry moves to the next target (round-robin).</p>
      <ol className="planner-targets__list">
        {targets.map((target, index) => (
          <li key={target.uid} className="planner-target" data-testid="planner.target" data-provider={target.provider}>
            <div className="inline-inputs">
              <span className="planner-target__index">{index + 1}.</span>
              <select
                value={target.provider}
                aria-label="Provider"
                data-testid="planner.target.provider"
                onChange={(event) => {
                  const provider = event.target.value as ProviderKind;
                  const fresh = newTargetDraft(provider);
                  update(index, { provider, model: fresh.model, baseUrl: fresh.baseUrl });
                }}
              >
                {KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {PROVIDER_LABELS[kind]}
                  </option>
                ))}
              </select>
              <input value={target.model} onChange={(event) => update(index, { model: event.target.value })} aria-label="Model" placeholder="model" size={18} data-testid="planner.target.model" />
              <span className="spacer" />
              <button type="button" onClick={() => onChange(move(targets, index, -1))} disabled={index === 0} aria-label={`Move target ${index + 1} up`}>
                ↑
              </button>
              <button type="button" onClick={() => onChange(move(targets, index, 1))} disabled={index === targets.length - 1} aria-label={`Move target ${index + 1} down`}>
                ↓
              </button>
              <button type="button" onClick={() => onChange(targets.filter((_, at) => at !== index))} aria-label={`Remove target ${index + 1}`} data-testid="planner.target.remove">
                ✕
              </button>
            </div>
            {target.provider !== 'scripted' && (
              <label className="field">
                <span className="field__label small">{target.provider === 'openai-compatible' ? 'Base URL' : 'Base URL (optional override)'}</span>
                <input
                  value={target.baseUrl}
                  onChange={(event) => update(index, { baseUrl: event.target.value })}
                  placeholder={target.provider === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : 'the public endpoint'}
                  data-testid="planner.target.base-url"
                />
              </label>
            )}
            {target.provider !== 'scripted' && <KeyField target={target} />}
            {target.provider === 'scripted' && (
              <div className="field">
                <label className="checkbox small">
                  <input type="radio" checked={target.scriptSource === 'demo'} onChange={() => update(index, { scriptSource: 'demo' })} data-testid="planner.target.script-demo" /> the built-in demo
                  script
                </label>
                <label className="checkbox small">
                  <input type="radio" checked={target.scriptSource === 'pasted'} onChange={() => update(index, { scriptSource: 'pasted' })} data-testid="planner.target.script-pasted" /> a JSON
                  script pasted here
                </label>
                {target.scriptSource === 'pasted' && (
                  <textarea
                    className="json-editor json-editor--small"
                    spellCheck={false}
                    value={target.scriptText}
                    onChange={(event) => update(index, { scriptText: event.target.value })}
                    aria-label="Script JSON"
                    data-testid="planner.target.script"
                  />
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
      {targets.length === 0 && <p className="field__error">Add at least one target.</p>}
      <div className="inline-inputs">
        <select value={adding} onChange={(event) => setAdding(event.target.value as ProviderKind)} aria-label="Kind of target to add" data-testid="planner.add-target.kind">
          {KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {PROVIDER_LABELS[kind]}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => onChange([...targets, newTargetDraft(adding)])} data-testid="planner.add-target">
          Add target
        </button>
      </div>
    </fieldset>
  );
}

/**
 * The target's API key: kept in memory for this tab unless "remember on this device" is ticked.
 * The input never shows a stored key back, only that one is set.
 */
function KeyField({ target }: { target: TargetDraft }) {
  const keys = useKeyStore();
  const slot = keySlotOf({ provider: target.provider, baseUrl: target.baseUrl || undefined });
  const [draft, setDraft] = useState('');
  const [remember, setRemember] = useState(false);
  if (slot === null) return null;
  const stored = keys.get(slot);
  const remembered = keys.isRemembered(slot);
  return (
    <div className="field planner-key" data-testid="planner.target.key">
      <span className="field__label small">
        API key{' '}
        {stored ? (
          <span className="tag" data-testid="planner.target.key-state">
            {remembered ? 'set · remembered on this device' : 'set · this tab only'}
          </span>
        ) : (
          <span className="muted">(not set{target.provider === 'openai-compatible' ? '; local servers often need none' : ''})</span>
        )}
      </span>
      <div className="inline-inputs">
        <input
          type="password"
          autoComplete="off"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder={stored ? '•••••••• (enter a new key to replace it)' : 'paste the key'}
          aria-label="API key"
          data-testid="planner.target.key-input"
        />
        <label className="checkbox small" title="Stored in this browser's localStorage, never in the workspace or any export">
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} data-testid="planner.target.key-remember" />
          remember on this device
        </label>
        <button
          type="button"
          disabled={draft.trim() === ''}
          onClick={() => {
            keys.set(slot, draft, remember);
            setDraft('');
          }}
          data-testid="planner.target.key-save"
        >
          Use key
        </button>
        {stored && (
          <button type="button" onClick={() => keys.forget(slot)} data-testid="planner.target.key-forget">
            Forget
          </button>
        )}
      </div>
      <span className="field__hint">Sent only to this provider. Never saved with runs, never exported{remembered ? '; remembered in this browser until you press Forget' : ''}.</span>
    </div>
  );
}
