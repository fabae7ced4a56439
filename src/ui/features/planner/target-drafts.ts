import { safeParseJson, type JsonValue, type ProviderKind } from '../../../core/index.ts';
import type { PlannerTargetConfig } from '../../lib/planner/run-store.ts';

/** A provider target as the form edits it. */
export interface TargetDraft {
  /** Stable key for React lists and reordering. */
  uid: string;
  provider: ProviderKind;
  model: string;
  /** Required for `openai-compatible`; optional override otherwise. */
  baseUrl: string;
  /** Scripted targets: the built-in demo script, or JSON pasted by the user. */
  scriptSource: 'demo' | 'pasted';
  scriptText: string;
}

export const PROVIDER_LABELS: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible (base URL)',
  scripted: 'Scripted (JSON script)',
};

let counter = 0;
export function newTargetDraft(provider: ProviderKind = 'scripted'): TargetDraft {
  counter += 1;
  return {
    uid: `target-${counter}`,
    provider,
    model: provider === 'openai' ? 'gpt-4.1-mini' : provider === 'anthropic' ? 'claude-sonnet-4-5' : provider === 'scripted' ? 'script' : '',
    baseUrl: provider === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : '',
    scriptSource: 'demo',
    scriptText: '[]',
  };
}

/** Moves the item at `from` by `by` places (clamped); returns a new array. */
export function move<T>(items: ReadonlyArray<T>, from: number, by: number): T[] {
  const to = Math.max(0, Math.min(items.length - 1, from + by));
  const out = [...items];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

/**
 * The target a run uses (without its key), or what is wrong with the draft. `demoScript` is the
 * built-in script, used when the draft says so.
 */
export function targetFromDraft(draft: TargetDraft, demoScript: JsonValue): { ok: true; target: PlannerTargetConfig } | { ok: false; message: string } {
  const model = draft.model.trim();
  const baseUrl = draft.baseUrl.trim();
  if (model === '') return { ok: false, message: `${PROVIDER_LABELS[draft.provider]}: the model name is empty` };
  if (draft.provider === 'openai-compatible' && baseUrl === '') return { ok: false, message: 'OpenAI-compatible: the base URL is empty' };
  if (baseUrl !== '' && !/^https?:\/\/[^\s/]+/i.test(baseUrl)) return { ok: false, message: `${PROVIDER_LABELS[draft.provider]}: the base URL must start with http:// or https://` };
  const label = `${draft.provider}:${draft.provider === 'openai-compatible' ? `${baseUrl}#${model}` : model}`;
  if (draft.provider !== 'scripted') return { ok: true, target: { provider: draft.provider, model, ...(baseUrl ? { baseUrl } : {}), label } };
  if (draft.scriptSource === 'demo') return { ok: true, target: { provider: 'scripted', model, script: demoScript, label } };
  const parsed = safeParseJson(draft.scriptText);
  if (!parsed.ok) return { ok: false, message: `Scripted: the script is not JSON (${parsed.message})` };
  if (!Array.isArray(parsed.value)) return { ok: false, message: 'Scripted: the script must be a JSON array, one entry per request' };
  return { ok: true, target: { provider: 'scripted', model, script: parsed.value, label } };
}
