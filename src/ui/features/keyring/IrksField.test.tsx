// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getKeyring } from '../../lib/keyring/keyring.ts';
import { IrksField } from './IrksField.tsx';

afterEach(cleanup);

const PHONE = '267483cba09b720412251bd6638d40b7';
const WATCH = 'c7fceac1cd0799aef2aa020d6f2f8208';

describe('IrksField: the keyring in the analyzer form', () => {
  it('adds the ticked keys (or all) to irks with their labels, once each; shows keys masked', async () => {
    // No IndexedDB under happy-dom: the keyring lives in memory, as in a private window.
    await getKeyring().addManual('phone', PHONE);
    await getKeyring().addManual('watch', WATCH);
    const onChange = vi.fn();
    const { rerender, container } = render(<IrksField value={[]} onChange={onChange} />);
    const offer = await screen.findByTestId('invocation-form.keyring');
    await waitFor(() => expect(within(offer).getAllByTestId('invocation-form.keyring.key')).toHaveLength(2));
    expect(container.textContent).not.toContain(PHONE);

    fireEvent.click(within(offer).getAllByTestId('invocation-form.keyring.key')[1]);
    fireEvent.click(screen.getByTestId('invocation-form.keyring.add-selected'));
    expect(onChange).toHaveBeenLastCalledWith([{ label: 'watch', irk: WATCH }]);

    // With the watch key in irks, only the phone key is offered; "add all" adds it.
    rerender(<IrksField value={[{ label: 'watch', irk: WATCH }]} onChange={onChange} />);
    expect(within(screen.getByTestId('invocation-form.keyring')).getAllByTestId('invocation-form.keyring.key')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('invocation-form.keyring.add-all'));
    expect(onChange).toHaveBeenLastCalledWith([
      { label: 'watch', irk: WATCH },
      { label: 'phone', irk: PHONE },
    ]);

    // Removing the last key clears the argument.
    fireEvent.click(within(screen.getByTestId('invocation-form.irk')).getByRole('button', { name: 'remove' }));
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('counts keys, not keyring entries, and says when two entries hold one key', async () => {
    // One log lists the phone's key in two frames: two keyring entries, one key.
    await getKeyring().addFromReport('hci', { identity_keys: [1, 2].map((frame_number) => ({ irk: PHONE, frame_number, source: 'smp_identity_information' })) });
    const onChange = vi.fn();
    render(<IrksField value={[]} onChange={onChange} />);
    const addAll = await screen.findByTestId('invocation-form.keyring.add-all');
    const entries = within(screen.getByTestId('invocation-form.keyring')).getAllByTestId('invocation-form.keyring.key').length;
    const merged = screen.queryByTestId('invocation-form.keyring.merged');
    fireEvent.click(addAll);
    const added = (onChange.mock.lastCall?.[0] as unknown[]).length;
    // The button promises what it adds; merged entries are said in words.
    expect(addAll.textContent).toBe(`Add all ${added} keyring ${added === 1 ? 'key' : 'keys'}`);
    expect([entries, added]).toEqual([4, 2]);
    expect(merged?.textContent).toContain('2 keyring entries hold keys also listed under another label');
  });
});
