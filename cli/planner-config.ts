import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { resolvePlannerConfig, safeParseJson, type PlannerConfig, type PlannerConfigError, type PlannerConfigLayer } from '../src/core/index.ts';

/** Where the command line looks for planner configuration, lowest priority first. */
export interface PlannerConfigSources {
  /** The `--config FILE` path (must exist when given). */
  configPath?: string;
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}

export type LoadedPlannerConfig = { ok: true; value: PlannerConfig; layers: string[] } | { ok: false; error: PlannerConfigError };

/** The file's text, or null when there is no such file. Other read errors propagate. */
async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The command line's configuration layers (settled decision 9): `~/.sextant/sextant.json` <
 * `./.sextant.json` < `--config FILE`, over the built-in defaults, with `${VAR}` expanded from
 * the environment. Missing optional files are skipped; a missing `--config` file, bad JSON or a
 * bad setting is an error naming the layer.
 */
export async function loadPlannerConfig(sources: PlannerConfigSources): Promise<LoadedPlannerConfig> {
  // The home and working-directory files are found, not named: they may not redirect a hosted
  // provider's key or expand variables outside its key (core's key-safety rule); --config may.
  // The working directory's file may not configure MCP servers either (it would choose programs to
  // start); the home file is the user's own.
  const candidates: Array<{ name: string; path: string; required: boolean; trusted: boolean; mcpServersAllowed: boolean }> = [
    { name: '~/.sextant/sextant.json', path: join(sources.home, '.sextant', 'sextant.json'), required: false, trusted: false, mcpServersAllowed: true },
    { name: './.sextant.json', path: join(sources.cwd, '.sextant.json'), required: false, trusted: false, mcpServersAllowed: false },
  ];
  if (sources.configPath !== undefined) {
    candidates.push({ name: `--config ${sources.configPath}`, path: resolve(sources.cwd, sources.configPath), required: true, trusted: true, mcpServersAllowed: true });
  }
  const layers: PlannerConfigLayer[] = [];
  for (const candidate of candidates) {
    let text: string | null;
    try {
      text = await readOptional(candidate.path);
    } catch (error) {
      return { ok: false, error: { code: 'INVALID_LAYER', layer: candidate.name, field: '', message: `Layer '${candidate.name}': cannot read ${candidate.path}: ${error instanceof Error ? error.message : String(error)}` } };
    }
    if (text === null) {
      if (candidate.required) return { ok: false, error: { code: 'INVALID_LAYER', layer: candidate.name, field: '', message: `Layer '${candidate.name}': no such file ${candidate.path}` } };
      continue;
    }
    const parsed = safeParseJson(text);
    if (!parsed.ok) return { ok: false, error: { code: 'INVALID_LAYER', layer: candidate.name, field: '', message: `Layer '${candidate.name}': not JSON: ${parsed.message}` } };
    layers.push({ name: candidate.name, values: parsed.value, trusted: candidate.trusted, mcpServersAllowed: candidate.mcpServersAllowed });
  }
  const resolved = resolvePlannerConfig(layers, sources.env);
  return resolved.ok ? { ok: true, value: resolved.value, layers: layers.map((layer) => layer.name) } : resolved;
}
