import { useState } from 'react';
import { getKeyring, useKeyring } from '../../lib/keyring/keyring.ts';
import { maskIrk, sourceName } from '../../lib/keyring/keyring-model.ts';

/**
 * The workspace keyring: identity resolving keys found in imported captures and keys added by
 * hand. The analyzer's form offers them with one click. Keys are shown masked here.
 */
export function KeyringPanel() {
  const entries = useKeyring();
  const [label, setLabel] = useState('');
  const [irk, setIrk] = useState('');
  const [wiresharkOrder, setWiresharkOrder] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const add = async () => {
    const added = await getKeyring().addManual(label, irk, wiresharkOrder);
    if (!added.ok) return setMessage({ kind: 'error', text: added.error.message });
    setLabel('');
    setIrk('');
    setMessage({ kind: 'ok', text: `Added '${added.value.label}'` });
  };

  const remove = async (id: string) => {
    const removed = await getKeyring().remove(id);
    if (!removed.ok) setMessage({ kind: 'error', text: `${removed.error.code}: ${removed.error.message}` });
  };

  return (
    <section className="panel settings" aria-label="Identity keys" data-testid="keyring">
      <h2>Identity keys (keyring)</h2>
      <p className="muted small">
        Identity resolving keys (IRKs) found in imported captures and added by hand. The Bluetooth analyzer's form adds them to its <code>irks</code> with one click,
        so RPAs that resolve under a key link with probability 1. Keys stay in this browser; a workspace export includes them only when you tick it.
      </p>
      {entries.length === 0 ? (
        <p className="muted" data-testid="keyring.empty">
          No keys yet. Import an HCI log (btsnoop) that holds a pairing or a resolving list, or add one below.
        </p>
      ) : (
        <table data-testid="keyring.table">
          <thead>
            <tr>
              <th>Label</th>
              <th>From</th>
              <th>Key</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} data-testid="keyring.entry" data-key-id={entry.id}>
                <td>{entry.label}</td>
                <td>
                  {entry.origin === 'capture' && entry.source
                    ? `${entry.captureId}, frame ${entry.frameNumber}, ${sourceName(entry.source)}${entry.identityAddress ? `, ${entry.identityAddress}` : ''}`
                    : 'added by hand'}
                </td>
                <td>
                  <code>{maskIrk(entry.irk)}</code>
                </td>
                <td>
                  <button type="button" onClick={() => void remove(entry.id)} data-testid="keyring.remove">
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="inline-inputs"
        aria-label="Add an identity key"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <input placeholder="label" value={label} onChange={(event) => setLabel(event.target.value)} aria-label="Key label" data-testid="keyring.label" />
        <input
          placeholder="32 hex digits, most significant first"
          value={irk}
          onChange={(event) => setIrk(event.target.value)}
          aria-label="IRK"
          autoComplete="off"
          spellCheck={false}
          data-testid="keyring.irk"
        />
        <label className="checkbox">
          <input type="checkbox" checked={wiresharkOrder} onChange={(event) => setWiresharkOrder(event.target.checked)} data-testid="keyring.wireshark-order" />
          as Wireshark prints it (least significant first)
        </label>
        <button type="submit" data-testid="keyring.add">
          Add key
        </button>
      </form>
      {message && (
        <p className={message.kind === 'error' ? 'field__error' : 'muted'} role="status" data-testid="keyring.message">
          {message.text}
        </p>
      )}
    </section>
  );
}
