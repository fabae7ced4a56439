import { genericCaptureSelectionSchema } from '../../contract/schemas.ts';
import type { JsonSchema, ToolManifest } from '../../contract/types.ts';
import { toInternalToolDefinition, type InternalDefinitionProblem, type InternalToolDefinition } from '../../toolcanon/internal-definition.ts';
import { compareVersions } from '../../tools/semver.ts';
import { isJsonObject } from '../../util/json.ts';
import type { ReportFormat } from './planner-settings.ts';

/** The final summary step's tool name. */
export const FINAL_REPORT_TOOL = 'agent__final_report';

const utf8 = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8ByteLength(text: string): number {
  return utf8.encode(text).byteLength;
}

/**
 * The token estimator of the context guard and the discover step: ceil(UTF-8 bytes / 4). It is
 * deliberately simple and provider-neutral (about 4 bytes per token for English and JSON); the
 * guard corrects with the provider's own counts after every response.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8ByteLength(text) / 4);
}

/** Tokens of a value as its JSON text. */
export function estimateJsonTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value) ?? '');
}

/** What discovery found: one tool per installed manifest name, plus the final report tool. */
export interface ToolDiscovery {
  /** One definition per tool name (built from its newest installed version), in registry order. */
  definitions: InternalToolDefinition[];
  /** `agent__final_report` for the session's report format. */
  finalReport: InternalToolDefinition;
  /** The newest installed manifest of each offered tool, by name. */
  manifests: Record<string, ToolManifest>;
  /** Installed versions of each offered tool, newest first. */
  versions: Record<string, string[]>;
  /** Manifests that cannot become a tool definition (they are not offered). */
  problems: Array<{ tool: string; version: string; problems: InternalDefinitionProblem[] }>;
  /** Estimated tokens of every definition, final report included (`estimateTokens` of their JSON). */
  tokenEstimate: number;
}

const CAPTURE_SELECTION_HELP =
  'Which data the tool reads: {capture_id, selectors: {time_range: {start_ms, end_ms}, channels, filters}} ' +
  '(or {capture_ids, time_window: {start_ms, end_ms}, filter_expression}). Times are milliseconds in the capture time base and must lie inside its bounds.';

function withoutProperty(schema: JsonSchema, name: string): JsonSchema {
  const copy: JsonSchema = structuredClone(schema);
  if (isJsonObject(copy.properties)) delete copy.properties[name];
  if (Array.isArray(copy.required)) copy.required = copy.required.filter((key) => key !== name);
  return copy;
}

/**
 * A manifest as the tool the model sees: named as the manifest, its parameters the invocation
 * envelope without `tool_name` and `request_id` (the runtime fills those, a fresh `request_id`
 * per attempt). `tool_version` and `timeout_ms` are optional: the runtime fills the newest
 * installed version and the `toolTimeout` setting. A manifest that declares its own
 * `capture_selection` argument (the BLE analyzer) gets it at the envelope level only; a manifest
 * whose tool reads no capture (`execution_constraints.capture_selection: none`) gets none at all.
 */
export function envelopeToolDefinition(
  manifest: ToolManifest,
  versions: ReadonlyArray<string>,
  toolTimeoutMs: number,
): { ok: true; value: InternalToolDefinition } | { ok: false; error: InternalDefinitionProblem[] } {
  const internal = toInternalToolDefinition(manifest);
  if (!internal.ok) return internal;
  // A tool that reads no capture (an MCP server's) is offered without one: a model never has to invent it.
  const readsCaptures = manifest.execution_constraints?.capture_selection !== 'none';
  const declared = readsCaptures && isJsonObject(internal.value.input_schema.properties) ? internal.value.input_schema.properties.capture_selection : undefined;
  const selectionSchema: JsonSchema = isJsonObject(declared) ? structuredClone(declared) : structuredClone(genericCaptureSelectionSchema);
  const argumentsSchema = declared === undefined ? internal.value.input_schema : withoutProperty(internal.value.input_schema, 'capture_selection');
  const maxTimeout = manifest.execution_constraints?.max_timeout_ms;
  const definition: InternalToolDefinition = {
    name: internal.value.name,
    description: internal.value.description,
    input_schema: {
      type: 'object',
      properties: {
        ...(readsCaptures ? { capture_selection: { ...selectionSchema, description: CAPTURE_SELECTION_HELP } } : {}),
        arguments: { ...argumentsSchema, description: `Arguments of ${manifest.name}.` },
        tool_version: {
          type: 'string',
          pattern: '^\\d+\\.\\d+\\.\\d+$',
          description: `Optional. Installed: ${versions.join(', ')}. Default: the newest, ${versions[0] ?? manifest.version}.`,
        },
        timeout_ms: {
          type: 'integer',
          minimum: 1,
          ...(typeof maxTimeout === 'number' ? { maximum: maxTimeout } : {}),
          description: `Optional time limit in ms. Default: ${toolTimeoutMs}.`,
        },
      },
      required: readsCaptures ? ['capture_selection', 'arguments'] : ['arguments'],
      additionalProperties: false,
    },
  };
  // No output_schema: no provider's wire format carries it, and the model reads each result's
  // digest (status, summary, the analysis in compact form), not the raw structured output.
  return { ok: true, value: definition };
}

/** `agent__final_report` for a report format: `report_content` (or `content_json` for JSON) and `encoding`. */
export function finalReportToolDefinition(format: ReportFormat): InternalToolDefinition {
  const content: Record<string, JsonSchema> =
    format === 'json'
      ? { content_json: { type: 'object', description: 'The report as a JSON object.' } }
      : { report_content: { type: 'string', description: `The report, in ${format}. Cite the tool results it rests on.` } };
  return {
    name: FINAL_REPORT_TOOL,
    description:
      'Finish the session with the report that answers the question, using the tool results gathered so far. Call it alone, once. ' +
      'The runtime records whether the session succeeded; there is no status to set.',
    input_schema: {
      type: 'object',
      properties: {
        report_format: { type: 'string', const: format, description: `Always "${format}".` },
        ...content,
        encoding: { type: 'string', enum: ['raw', 'base64'], default: 'raw', description: 'base64 when report_content is base64-encoded UTF-8.' },
        metadata: { type: 'object', description: 'Optional structured data about the report.' },
      },
      required: ['report_format', format === 'json' ? 'content_json' : 'report_content'],
      additionalProperties: false,
    },
  };
}

/**
 * Discover: each installed manifest name becomes one tool definition (from its newest version),
 * plus `agent__final_report`. The set is fixed here for the whole session: nothing a model or a
 * capture says can add to it.
 */
export function discoverTools(manifests: ReadonlyArray<ToolManifest>, options: { toolTimeoutMs: number; reportFormat: ReportFormat }): ToolDiscovery {
  const byName = new Map<string, ToolManifest[]>();
  for (const manifest of manifests) {
    const list = byName.get(manifest.name) ?? [];
    list.push(manifest);
    byName.set(manifest.name, list);
  }
  const discovery: ToolDiscovery = {
    definitions: [],
    finalReport: finalReportToolDefinition(options.reportFormat),
    manifests: {},
    versions: {},
    problems: [],
    tokenEstimate: 0,
  };
  for (const [name, list] of byName) {
    const sorted = [...list].sort((a, b) => compareVersions(b.version, a.version));
    const newest = sorted[0];
    if (name === FINAL_REPORT_TOOL) {
      discovery.problems.push({ tool: name, version: newest.version, problems: [{ field: '$.name', message: `${FINAL_REPORT_TOOL} is reserved for the final report` }] });
      continue;
    }
    const versions = sorted.map((manifest) => manifest.version);
    const definition = envelopeToolDefinition(newest, versions, options.toolTimeoutMs);
    if (!definition.ok) {
      discovery.problems.push({ tool: name, version: newest.version, problems: definition.error });
      continue;
    }
    discovery.definitions.push(definition.value);
    discovery.manifests[name] = newest;
    discovery.versions[name] = versions;
  }
  discovery.tokenEstimate = estimateJsonTokens([...discovery.definitions, discovery.finalReport]);
  return discovery;
}
