// HTTP adapters for the planner's LLM providers: OpenAI, Anthropic, OpenAI-compatible servers.

export type { HttpProviderDeps } from './http-provider.ts';
export { createHttpProvider, describeWireRequest } from './http-provider.ts';
export type { OpenAIBodyOptions, OpenAIDialect, WireRequest } from './openai-wire.ts';
export { toOpenAIChatBody, toOpenAIChatMessages } from './openai-wire.ts';
export type { AnthropicBodyOptions } from './anthropic-wire.ts';
export { toAnthropicMessagesBody, toAnthropicMessages, ANTHROPIC_VERSION } from './anthropic-wire.ts';
export type { FailureContext, ProviderErrorInfo } from './failure.ts';
export { classifyHttpFailure, classifyFetchError, classifyProviderError, readErrorInfo, scrubSecrets } from './failure.ts';
export { parseRetryAfter, retryAfterMs } from './retry-after.ts';
export type { ModelPrice } from './pricing.ts';
export { estimateCostUsd, modelPrice, MODEL_PRICES, PRICES_AS_OF } from './pricing.ts';
