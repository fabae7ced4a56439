import { useState } from 'react';
import type { JsonValue } from '../../../core/index.ts';
import { useKeyring } from '../../lib/keyring/keyring.ts';
import { addToIrks, maskIrk, type IrkArgument } from '../../lib/keyring/keyring-model.ts';

/**
 * The analyzer's `irks` argument in the invocation form: the keys it holds (removable), and the
 * workspace keyring offered with one click — add the ticked keys, or all of them, with their
 * labels. Keys are shown masked; the JSON view holds them in full.
 */
export function IrksField({ value, onChange }: { value: IrkArgument[]; onChange(value: JsonValue | undefined): void }) {
  const keyring = useKeyring();
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const inUse = new Set(value.map((entry) => entry.irk.toLowerCase()));
  const offered = keyring.filter((entry) => !inUse.has(entry.irk.toLowerCase()));
  // Keyring entries under different labels may hold one key (found in two logs): each key is added once, and the form says so.
  const distinctKeys = new Set(offered.map((entry) => entry.irk.toLowerCase())).size;
  const merged = offered.length - distinctKeys;
  const set = (next: IrkArgument[]) => onChange(next.length === 0 ? undefined : next.map((entry) => ({ label: entry.label, irk: entry.irk })));

  return (
    <div className="irks-field" data-testid="invocation-form.irks">
      {value.length === 0 ? (
        <p className="muted small">No keys: RPAs are linked by behaviour only.</p>
      ) : (
        <ul data-testid="invocation-form.irks.list">
          {value.map((entry, index) => (
            <li key={`${entry.label}:${index}`} data-testid="invocation-form.irk">
              {entry.label} <code>{maskIrk(entry.irk)}</code>{' '}
              <button type="button" className="link-button" onClick={() => set(value.filter((_, at) => at !== index))}>
                remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {offered.length > 0 ? (
        <fieldset className="keyring-offer" data-testid="invocation-form.keyring">
          <legend>From the keyring</legend>
          {offered.map((entry) => (
            <label key={entry.id} className="checkbox">
              <input
                type="checkbox"
                checked={ticked.has(entry.id)}
                onChange={(event) => {
                  const next = new Set(ticked);
                  if (event.target.checked) next.add(entry.id);
                  else next.delete(entry.id);
                  setTicked(next);
                }}
                data-testid="invocation-form.keyring.key"
                data-key-id={entry.id}
              />
              {entry.label} <code>{maskIrk(entry.irk)}</code>
            </label>
          ))}
          <span className="inline-inputs">
            <button
              type="button"
              disabled={ticked.size === 0}
              onClick={() => {
                set(addToIrks(value, offered.filter((entry) => ticked.has(entry.id))));
                setTicked(new Set());
              }}
              data-testid="invocation-form.keyring.add-selected"
            >
              Add selected keys
            </button>
            <button type="button" onClick={() => set(addToIrks(value, offered))} data-testid="invocation-form.keyring.add-all">
              Add all {distinctKeys} keyring {distinctKeys === 1 ? 'key' : 'keys'}
            </button>
          </span>
          {merged > 0 && (
            <p className="muted small" data-testid="invocation-form.keyring.merged">
              {merged} keyring {merged === 1 ? 'entry holds a key' : 'entries hold keys'} also listed under another label: each key is added once, under its first label.
            </p>
          )}
        </fieldset>
      ) : (
        keyring.length === 0 && <p className="muted small">The keyring is empty (keys found in imported HCI logs appear there; Settings → Identity keys).</p>
      )}
    </div>
  );
}
