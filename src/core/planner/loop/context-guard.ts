import type { InternalToolDefinition } from '../../toolcanon/internal-definition.ts';
import type { ChatMessage, LlmProvider } from '../provider-types.ts';
import { contextWindowFor } from './planner-settings.ts';
import type { SessionCore } from './session-core.ts';
import { FINAL_REPORT_TOOL, estimateJsonTokens } from './tool-definitions.ts';
import { ephemeralMessages, providerTools } from './transports.ts';

/** The deterministic stub for a tool output the context guard dropped. */
export const CONTEXT_BUDGET_STUB = '(tool failed: context window budget exceeded)';

/** A target's budget: `contextWindow - contextWindowBufferTokens - maxOutputTokens`. */
export function limitFor(core: SessionCore, provider: LlmProvider): number {
  return contextWindowFor(provider.target, core.settings) - core.settings.contextWindowBufferTokens - core.settings.maxOutputTokens;
}

/** The smallest budget over the targets (a tool output must fit whichever answers next). */
export function tightestLimit(core: SessionCore): [number, string] {
  let best: [number, string] = [Number.POSITIVE_INFINITY, ''];
  for (const provider of core.options.targets) {
    const limit = limitFor(core, provider);
    if (limit < best[0]) best = [limit, core.label(provider)];
  }
  return best;
}

export interface TurnPlan {
  tools: InternalToolDefinition[];
  ephemeral: ChatMessage[];
  pendingTokens: number;
  schemaTokens: number;
}

/**
 * `turn_preflight`: projected = ctx + pending + schema must fit the target's budget; otherwise
 * the turn becomes the forced final one (tools cut to the final report, schema recomputed,
 * re-checked once, then best effort with a warning).
 */
export function turnPreflight(core: SessionCore, provider: LlmProvider, notices: ReadonlyArray<string>): TurnPlan {
  let ephemeral = ephemeralMessages(core, notices);
  let tools = providerTools(core);
  const measure = () => {
    const pendingTokens = core.pendingTokens + estimateJsonTokens(ephemeral);
    const schemaTokens = estimateJsonTokens(tools);
    return { pendingTokens, schemaTokens, projected: core.ctxTokens + pendingTokens + schemaTokens };
  };
  let numbers = measure();
  const limit = limitFor(core, provider);
  if (numbers.projected > limit) {
    const alreadyForced = core.forcedFinal !== null;
    core.emit({ type: 'context_guard', turn: core.turn, where: 'turn_preflight', projectedTokens: numbers.projected, limitTokens: limit, target: core.label(provider), action: alreadyForced ? 'proceed_best_effort' : 'forced_final' });
    if (!alreadyForced) {
      core.forcedFinal = 'context';
      ephemeral = ephemeralMessages(core, notices);
      tools = providerTools(core);
      numbers = measure();
      if (numbers.projected > limit) {
        core.emit({ type: 'context_guard', turn: core.turn, where: 'post_shrink', projectedTokens: numbers.projected, limitTokens: limit, target: core.label(provider), action: 'proceed_best_effort' });
        core.emit({ type: 'warning', turn: core.turn, message: `Context still over the limit after restricting tools to ${FINAL_REPORT_TOOL} (${numbers.projected} > ${limit} tokens); proceeding best effort.` });
      }
    }
  }
  return { tools, ephemeral, pendingTokens: numbers.pendingTokens, schemaTokens: numbers.schemaTokens };
}

/**
 * `tool_preflight`: a tool output that would push the next request over the tightest budget is
 * replaced by the stub, no new tool may start, and the next turn is the forced final one.
 */
export function toolPreflight(core: SessionCore, content: string): { content: string; dropped: boolean; tokens: number } {
  const tokens = estimateJsonTokens({ role: 'tool', content });
  const schemaTokens = estimateJsonTokens(providerTools(core));
  const projected = core.ctxTokens + core.pendingTokens + tokens + schemaTokens;
  const [limit, target] = tightestLimit(core);
  if (projected <= limit) return { content, dropped: false, tokens };
  core.toolBudgetExceeded = true;
  if (core.forcedFinal === null || core.forcedFinal === 'max_turns') core.forcedFinal = 'context';
  core.emit({ type: 'context_guard', turn: core.turn, where: 'tool_preflight', projectedTokens: projected, limitTokens: limit, target, action: 'tool_dropped' });
  return { content: CONTEXT_BUDGET_STUB, dropped: true, tokens };
}
