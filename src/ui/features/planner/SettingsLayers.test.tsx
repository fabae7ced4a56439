// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsLayers, type SettingValues } from './SettingsLayers.tsx';
import { layerSettings, parseSettingInput, type SettingField } from './settings-layers.ts';

const fields: SettingField[] = [
  { key: 'maxTurns', label: 'Max turns', hint: '', kind: { type: 'integer', min: 1, max: 100 } },
  { key: 'maxRetries', label: 'Max retries', hint: '', kind: { type: 'integer', min: 1, max: 20 } },
  { key: 'transport', label: 'Transport', hint: '', kind: { type: 'choice', choices: ['native', 'xml', 'xml-final'] } },
];
const defaults: SettingValues = { maxTurns: 10, maxRetries: 3, transport: 'native' };

/** The page keeps both layers in state; so does this harness. */
function Harness({ onRunChange, onWorkspaceChange }: { onRunChange: (next: Partial<SettingValues>) => void; onWorkspaceChange: (next: Partial<SettingValues>) => void }) {
  const [run, setRun] = useState<Partial<SettingValues>>({});
  const [workspace, setWorkspace] = useState<Partial<SettingValues>>({});
  return (
    <SettingsLayers
      fields={fields}
      defaults={defaults}
      workspace={workspace}
      run={run}
      onRunChange={(next) => {
        setRun(next);
        onRunChange(next);
      }}
      onWorkspaceChange={(next) => {
        setWorkspace(next);
        onWorkspaceChange(next);
      }}
    />
  );
}

afterEach(cleanup);

describe('layerSettings', () => {
  it('takes each key from the highest layer that sets it', () => {
    const layered = layerSettings(defaults, { maxTurns: 5, transport: 'xml' }, { maxTurns: 2 });
    expect(layered).toEqual({
      maxTurns: { value: 2, layer: 'run' },
      maxRetries: { value: 3, layer: 'default' },
      transport: { value: 'xml', layer: 'workspace' },
    });
  });

  it('ignores keys the defaults do not know', () => {
    expect(Object.keys(layerSettings(defaults, { nonsense: 1 } as Partial<SettingValues>, {}))).toEqual(['maxTurns', 'maxRetries', 'transport']);
  });

  it('parses input: empty falls through, out-of-range and non-integers are refused with the bounds', () => {
    expect(parseSettingInput(fields[0], ' ')).toEqual({ ok: true, value: undefined });
    expect(parseSettingInput(fields[0], '7')).toEqual({ ok: true, value: 7 });
    expect(parseSettingInput(fields[0], '0')).toEqual({ ok: false, message: 'Max turns is between 1 and 100' });
    expect(parseSettingInput(fields[0], '2.5')).toEqual({ ok: false, message: 'Max turns is a whole number' });
    expect(parseSettingInput(fields[2], 'smoke')).toEqual({ ok: false, message: 'Transport is one of native, xml, xml-final' });
  });
});

describe('<SettingsLayers>', () => {
  it('shows the layer each effective value comes from', () => {
    render(<SettingsLayers fields={fields} defaults={defaults} workspace={{ maxRetries: 4 }} run={{ maxTurns: 2 }} onRunChange={() => {}} onWorkspaceChange={() => {}} />);
    expect(screen.getByTestId('planner.setting.maxTurns.layer').textContent).toBe('this run');
    expect(screen.getByTestId('planner.setting.maxRetries.layer').textContent).toBe('workspace');
    expect(screen.getByTestId('planner.setting.transport.layer').textContent).toBe('default');
    expect(screen.getByTestId('planner.setting.maxTurns').textContent).toContain('2');
  });

  it('commits a valid value to its layer, refuses an invalid one, and an empty box clears it', () => {
    const onRunChange = vi.fn();
    const onWorkspaceChange = vi.fn();
    render(<Harness onRunChange={onRunChange} onWorkspaceChange={onWorkspaceChange} />);
    fireEvent.change(screen.getByTestId('planner.setting.maxTurns.run'), { target: { value: '4' } });
    expect(onRunChange).toHaveBeenLastCalledWith({ maxTurns: 4 });
    expect(screen.getByTestId('planner.setting.maxTurns.layer').textContent).toBe('this run');
    fireEvent.change(screen.getByTestId('planner.setting.maxRetries.workspace'), { target: { value: '99' } });
    expect(onWorkspaceChange).not.toHaveBeenCalled();
    expect(screen.getByText('Max retries is between 1 and 20')).toBeTruthy();
    fireEvent.change(screen.getByTestId('planner.setting.transport.workspace'), { target: { value: 'xml' } });
    expect(onWorkspaceChange).toHaveBeenLastCalledWith({ transport: 'xml' });
    fireEvent.change(screen.getByTestId('planner.setting.maxTurns.run'), { target: { value: '' } });
    expect(onRunChange).toHaveBeenLastCalledWith({ maxTurns: undefined });
    expect(screen.getByTestId('planner.setting.maxTurns.layer').textContent).toBe('default');
    expect(screen.getByTestId('planner.setting.transport.layer').textContent).toBe('workspace');
  });
});
