import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANNER_SETTINGS } from '../../../core/index.ts';
import { plannerDefaults } from '../../features/planner/planner-defaults.ts';
import { PLANNER_SETTING_FIELDS } from '../../features/planner/setting-fields.ts';
import { parseSettingInput } from '../../features/planner/settings-layers.ts';
import { checkWorkspaceSettings } from './settings.ts';

const fieldOf = (key: string) => PLANNER_SETTING_FIELDS.find((field) => field.key === key)!;

describe('planner settings: core is the only validator and the only defaults', () => {
  it('the form accepts exactly what core accepts', () => {
    const bytes = fieldOf('toolResponseMaxBytes');
    expect(parseSettingInput(bytes, '128')).toEqual({ ok: true, value: 128 });
    expect(parseSettingInput(bytes, '127')).toEqual({
      ok: false,
      message: 'Tool response max bytes: must be an integer >= 128 (room for the whole [TRUNCATED] notice and the start of the response), got 127',
    });
    expect(parseSettingInput(fieldOf('contextWindowBufferTokens'), '0')).toEqual({ ok: true, value: 0 });
    expect(parseSettingInput(fieldOf('maxTurns'), '0').ok).toBe(false);
    expect(parseSettingInput(fieldOf('transport'), 'xml-final')).toEqual({ ok: true, value: 'xml-final' });
  });

  it('the defaults layer is core’s defaults', () => {
    const defaults = plannerDefaults();
    expect(defaults.toolResponseMaxBytes).toBe(DEFAULT_PLANNER_SETTINGS.toolResponseMaxBytes);
    expect(defaults.maxTurns).toBe(DEFAULT_PLANNER_SETTINGS.maxTurns);
    expect(defaults.contextWindow).toBe('auto');
  });

  it('stored or imported workspace settings are checked on load: valid ones apply, refused ones are reported', () => {
    const checked = checkWorkspaceSettings({ maxTurns: 4, toolResponseMaxBytes: -5, transport: 'smoke', bogus: 1 });
    expect(checked.values).toEqual({ maxTurns: 4 });
    expect(checked.problems.map((problem) => [problem.code, problem.field])).toEqual([
      ['INVALID_SETTING', 'toolResponseMaxBytes'],
      ['INVALID_SETTING', 'transport'],
      ['UNKNOWN_SETTING', 'bogus'],
    ]);
    expect(checkWorkspaceSettings('not an object').problems[0].code).toBe('INVALID_LAYER');
    expect(checkWorkspaceSettings(undefined)).toEqual({ values: {}, problems: [] });
  });
});
