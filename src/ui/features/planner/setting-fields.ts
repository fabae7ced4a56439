import type { SettingField } from './settings-layers.ts';

/** The planner settings the app exposes (agent-contract §1; spec README decision 9). */
export const PLANNER_SETTING_FIELDS: ReadonlyArray<SettingField> = [
  { key: 'maxTurns', label: 'Max turns', hint: 'LLM request/response cycles, each with its tool phase; retries do not count.', kind: { type: 'integer', min: 1, max: 200 } },
  { key: 'maxRetries', label: 'Max attempts per turn', hint: 'Total attempts per turn (1 = no retry), cycling through the targets.', kind: { type: 'integer', min: 1, max: 50 } },
  { key: 'maxToolCallsPerTurn', label: 'Max tool calls per turn', hint: 'Excess calls are dropped and the model is told.', kind: { type: 'integer', min: 1, max: 256 } },
  { key: 'toolTimeout', label: 'Tool timeout (ms)', hint: 'A tool still running after this is stopped: "(tool failed: timeout)".', kind: { type: 'integer', min: 1, max: 3_600_000 } },
  { key: 'toolResponseMaxBytes', label: 'Tool response max bytes', hint: 'Longer tool output is truncated with a [TRUNCATED] notice.', kind: { type: 'integer', min: 64, max: 100_000_000 } },
  { key: 'contextWindow', label: 'Context window (tokens)', hint: 'Model capacity for the context guard, when the target does not say.', kind: { type: 'integer', min: 1_000, max: 10_000_000 } },
  { key: 'contextWindowBufferTokens', label: 'Context buffer (tokens)', hint: 'Safety margin subtracted from the context window.', kind: { type: 'integer', min: 0, max: 1_000_000 } },
  { key: 'maxOutputTokens', label: 'Max output tokens', hint: 'Reserved for the reply, and sent to the provider.', kind: { type: 'integer', min: 1, max: 1_000_000 } },
  { key: 'transport', label: 'Transport', hint: 'native tool calling, or the XML transport for models without it.', kind: { type: 'choice', choices: ['native', 'xml', 'xml-final'] } },
  { key: 'reportFormat', label: 'Report format', hint: 'The format agent__final_report must use.', kind: { type: 'choice', choices: ['markdown', 'text', 'json'] } },
];

/** Used only when the core's defaults do not name a setting. */
export const FALLBACK_PLANNER_DEFAULTS: Record<string, number | string> = {
  maxTurns: 10,
  maxRetries: 3,
  maxToolCallsPerTurn: 10,
  toolTimeout: 60_000,
  toolResponseMaxBytes: 65_536,
  contextWindow: 128_000,
  contextWindowBufferTokens: 8_192,
  maxOutputTokens: 4_096,
  transport: 'native',
  reportFormat: 'markdown',
};
