import { isJsonObject, type JsonObject } from '../util/json.ts';
import { own } from './json-value.ts';
import type { FormatConfidence, SourceFormat } from './types.ts';

/** The detector's answer: the format by priority, and a score for every format. */
export interface FormatDetection {
  format: SourceFormat;
  confidence: FormatConfidence;
}

const has = (definition: JsonObject, key: string) => Object.hasOwn(definition, key);

/** `{"type": "function", "function": …}`: the OpenAI tools[] wrapper. */
export function isOpenAIWrapper(definition: JsonObject): boolean {
  return own(definition, 'type') === 'function' && has(definition, 'function');
}

/** The structural signals of each format (toolcanon-api.md "Detection priority"). */
function matches(definition: JsonObject, format: Exclude<SourceFormat, 'raw'>): boolean {
  switch (format) {
    case 'openai':
      return isOpenAIWrapper(definition) || (has(definition, 'name') && has(definition, 'parameters'));
    case 'anthropic':
      return has(definition, 'name') && has(definition, 'input_schema');
    case 'mcp':
      return has(definition, 'name') && has(definition, 'inputSchema');
    case 'langchain':
      return has(definition, 'args_schema') || has(definition, 'schema') || (has(definition, 'properties') && has(definition, 'name'));
  }
}

/**
 * A score in [0, 1] per format (toolcanon-api.md `confidence`): 1.0 all definitive signals
 * (the OpenAI wrapper; `name` + `input_schema`; `name` + `inputSchema`), 0.7–0.9 strong signals
 * (OpenAI legacy `name` + `parameters` 0.7; LangChain `args_schema` or `schema` 0.9), 0.5–0.6 weak
 * (LangChain's loose `name` + `properties` 0.6), 0 none. `raw` is always 0.1, the floor.
 * Anything that is not a JSON object scores 0 everywhere but `raw`.
 */
export function formatConfidence(input: unknown): FormatConfidence {
  const scores: FormatConfidence = { openai: 0, anthropic: 0, mcp: 0, langchain: 0, raw: 0.1 };
  if (!isJsonObject(input)) return scores;
  if (isOpenAIWrapper(input)) scores.openai = 1;
  else if (has(input, 'parameters') && has(input, 'name')) scores.openai = 0.7;
  if (has(input, 'input_schema') && has(input, 'name')) scores.anthropic = 1;
  if (has(input, 'inputSchema') && has(input, 'name')) scores.mcp = 1;
  if (has(input, 'args_schema') || has(input, 'schema')) scores.langchain = 0.9;
  else if (has(input, 'properties') && has(input, 'name')) scores.langchain = 0.6;
  return scores;
}

/**
 * The most likely format of one tool definition, by the document's priority — not by the highest
 * score: 1. openai (wrapper, or `name` + `parameters`), 2. anthropic (`name` + `input_schema`),
 * 3. mcp (`name` + `inputSchema`), 4. langchain (`args_schema`, `schema`, or `name` +
 * `properties`), 5. raw. Never throws; a non-object is `raw`.
 */
export function detectFormat(input: unknown): FormatDetection {
  const confidence = formatConfidence(input);
  if (!isJsonObject(input)) return { format: 'raw', confidence };
  for (const format of ['openai', 'anthropic', 'mcp', 'langchain'] as const) {
    if (matches(input, format)) return { format, confidence };
  }
  return { format: 'raw', confidence };
}
