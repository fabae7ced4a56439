import { PLANNER_TRANSPORTS, REPORT_FORMATS, checkPlannerSettings } from '../../../core/index.ts';
import type { SettingField } from './settings-layers.ts';

/** Core's `checkPlannerSettings` is the only rule for a planner setting: the form asks it, value by value. */
function coreCheck(key: string, label: string): (value: number | string) => string | null {
  return (value) => {
    const checked = checkPlannerSettings({ [key]: value }, 'this run');
    return checked.ok ? null : `${label}: ${checked.error.message.replace(/^Layer '[^']*': \S+ /, '')}`;
  };
}

function field(key: string, label: string, hint: string, kind: SettingField['kind']): SettingField {
  return { key, label, hint, kind, check: coreCheck(key, label) };
}

/** The planner settings the app exposes (agent-contract §1; spec README decision 9); their defaults and rules are core's. */
export const PLANNER_SETTING_FIELDS: ReadonlyArray<SettingField> = [
  field('maxTurns', 'Max turns', 'LLM request/response cycles, each with its tool phase; retries do not count.', { type: 'integer' }),
  field('maxRetries', 'Max attempts per turn', 'Total attempts per turn (1 = no retry), cycling through the targets.', { type: 'integer' }),
  field('maxToolCallsPerTurn', 'Max tool calls per turn', 'Excess calls are dropped and the model is told.', { type: 'integer' }),
  field('toolTimeout', 'Tool timeout (ms)', 'The planner stops a tool still running this long after it started: "(tool failed: timeout)".', { type: 'integer' }),
  field('llmTimeout', 'LLM timeout (ms)', 'A model request still unfinished this long after it was sent fails and is retried.', { type: 'integer' }),
  field('llmIdleTimeout', 'LLM idle timeout (ms)', 'A model request that sends nothing for this long (keep-alive comments do not count) fails and is retried.', { type: 'integer' }),
  field('llmResponseMaxBytes', 'LLM answer max bytes', 'A longer answer is dropped unread and retried.', { type: 'integer' }),
  field('toolResponseMaxBytes', 'Tool response max bytes', 'The cap on what the model receives of a result (its digest); longer is truncated with a [TRUNCATED] notice.', { type: 'integer' }),
  field('contextWindow', 'Context window (tokens)', 'Model capacity for the context guard, when the target does not say.', { type: 'integer' }),
  field('contextWindowBufferTokens', 'Context buffer (tokens)', 'Safety margin subtracted from the context window.', { type: 'integer' }),
  field('maxOutputTokens', 'Max output tokens', 'Reserved for the reply, and sent to the provider.', { type: 'integer' }),
  field('transport', 'Transport', 'native tool calling, or the XML transport for models without it.', { type: 'choice', choices: PLANNER_TRANSPORTS }),
  field('reportFormat', 'Report format', 'The format agent__final_report must use.', { type: 'choice', choices: REPORT_FORMATS }),
];
