import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANNER_SETTINGS, contextWindowFor, expandVariables, resolvePlannerConfig } from './planner-settings.ts';

describe('planner settings layers', () => {
  it('applies defaults < lower layers < higher layers, merging keys and replacing target lists', () => {
    const resolved = resolvePlannerConfig([
      { name: 'workspace', values: { maxTurns: 5, maxRetries: 2, providers: [{ provider: 'openai', model: 'gpt-4.1-mini' }], apiKeys: { openai: 'k1' } } },
      { name: 'run', values: { maxTurns: 7, providers: [{ provider: 'anthropic', model: 'claude-sonnet-4-5' }], apiKeys: { anthropic: 'k2' } } },
    ]);
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    expect(resolved.value.settings).toEqual({ ...DEFAULT_PLANNER_SETTINGS, maxTurns: 7, maxRetries: 2 });
    expect(resolved.value.providers).toEqual([{ provider: 'anthropic', model: 'claude-sonnet-4-5' }]);
    expect(resolved.value.apiKeys).toEqual({ openai: 'k1', anthropic: 'k2' });
  });

  it('expands ${VAR} from the layer first, then the environment', () => {
    const resolved = resolvePlannerConfig(
      [{ name: 'home', values: { apiKeys: { openai: '${OPENAI_API_KEY}', anthropic: 'pre-${SUFFIX}' } }, env: { SUFFIX: 'layer' } }],
      { OPENAI_API_KEY: 'sk-env', SUFFIX: 'env' },
    );
    expect(resolved.ok && resolved.value.apiKeys).toEqual({ openai: 'sk-env', anthropic: 'pre-layer' });
  });

  it('names the layer and the field when a variable is missing', () => {
    const resolved = resolvePlannerConfig([{ name: '~/.sextant/sextant.json', values: { providers: [{ provider: 'openai', model: 'm', apiKey: '${NOPE}' }] } }], {});
    expect(resolved).toEqual({
      ok: false,
      error: {
        code: 'MISSING_VARIABLE',
        layer: '~/.sextant/sextant.json',
        field: 'providers[0].apiKey',
        message: "Layer '~/.sextant/sextant.json': ${NOPE} in providers[0].apiKey is not set",
      },
    });
  });

  it.each([
    [{ maxTurns: 0 }, 'INVALID_SETTING', 'maxTurns'],
    [{ maxTurns: 2.5 }, 'INVALID_SETTING', 'maxTurns'],
    [{ transport: 'smoke-signals' }, 'INVALID_SETTING', 'transport'],
    [{ toolResponseMaxBytes: 0 }, 'INVALID_SETTING', 'toolResponseMaxBytes'],
    [{ maxTurn: 3 }, 'UNKNOWN_SETTING', 'maxTurn'],
    [{ providers: [{ provider: 'openai' }] }, 'INVALID_SETTING', 'providers[0].model'],
    [[1, 2], 'INVALID_LAYER', ''],
  ])('refuses %j with %s', (values, code, field) => {
    const resolved = resolvePlannerConfig([{ name: 'run', values }]);
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) expect(resolved.error).toMatchObject({ code, field, layer: 'run' });
  });

  it('leaves strings without placeholders alone', () => {
    expect(expandVariables({ a: ['x', 1, { b: '$HOME' }] }, 'l', {})).toEqual({ ok: true, value: { a: ['x', 1, { b: '$HOME' }] } });
  });

  it('takes the context window from the target, then the settings, then the provider default', () => {
    const settings = { ...DEFAULT_PLANNER_SETTINGS };
    expect(contextWindowFor({ provider: 'anthropic', model: 'm' }, settings)).toBe(200_000);
    expect(contextWindowFor({ provider: 'anthropic', model: 'm' }, { ...settings, contextWindow: 50_000 })).toBe(50_000);
    expect(contextWindowFor({ provider: 'anthropic', model: 'm', contextWindow: 8_000 }, { ...settings, contextWindow: 50_000 })).toBe(8_000);
  });
});
