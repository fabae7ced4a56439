import { DEFAULT_PLANNER_SETTINGS } from '../../../core/index.ts';
import { PLANNER_SETTING_FIELDS } from './setting-fields.ts';

/**
 * The built-in defaults layer: core's planner defaults (the only ones) for every setting the form
 * shows. A null default (the context window: per provider) shows as `auto`.
 */
export function plannerDefaults(): Record<string, number | string> {
  const core: Record<string, unknown> = { ...DEFAULT_PLANNER_SETTINGS };
  const out: Record<string, number | string> = {};
  for (const field of PLANNER_SETTING_FIELDS) {
    const value = core[field.key];
    out[field.key] = typeof value === 'number' || typeof value === 'string' ? value : 'auto';
  }
  return out;
}
