import {
  CaptureCatalog,
  ToolRegistry,
  builtinCaptures,
  builtinTools,
  createExecutor,
  generateConformanceCases,
  type Capture,
  type JsonObject,
  type JsonValue,
  type RunnerResponse,
  type ToolError,
  type ToolManifest,
  type ToolRunner,
} from '../../src/core/index.ts';
import { readCaptures } from '../capture-files.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { UsageError } from '../usage-error.ts';

export const TEMPLATE_USAGE = `Usage:
  sextant template TOOL [--capture ID=PATH] [--time-column NAME] [--enable-test-tools]

Prints an example ToolInvocation for an installed tool as JSON: the envelope, a capture
selection over the whole capture and the tool's required arguments filled with valid values (the
same valid call \`mcp check\` and the conformance suite start from), checked by the executor's
validator before it is printed. With --capture, the selection and the column arguments come from
that capture (its id, bounds and columns); without, from the first built-in capture the tool
accepts. Edit it and run it with \`sextant invoke FILE\`.

Exit codes: 0 printed; 4 bad arguments, an unknown tool or an unreadable capture; 5 the
invocation does not validate against the given capture (printed anyway, the errors on stderr).`;

/** A runner that runs nothing: the executor's validation step alone decides the outcome. */
const validateOnly: ToolRunner = { run: async (): Promise<RunnerResponse> => ({ kind: 'cancelled' }) };

/**
 * The conformance suite's valid invocation of the tool on the capture, with a template's request
 * id. A string argument named like one of the capture's columns (`address_columns.advertiser_addr`)
 * names that column when the suite filled it with something that is not a column.
 */
export function templateInvocation(manifest: ToolManifest, capture: Capture): JsonObject {
  const valid = generateConformanceCases(manifest, capture.info, { minTimeoutMs: 0 }).find((testCase) => testCase.id === 'valid');
  if (!valid) throw new Error(`no valid case for ${manifest.name}`);
  const columns = new Set(capture.info.columns.map((column) => column.name));
  const args = valid.invocation.arguments;
  return { ...valid.invocation, arguments: isObject(args) ? withSameNamedColumns(args, columns) : args ?? {}, request_id: `template-${manifest.name}` };
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withSameNamedColumns(args: JsonObject, columns: ReadonlySet<string>): JsonObject {
  const filled: JsonObject = {};
  for (const [key, value] of Object.entries(args)) {
    if (isObject(value)) filled[key] = withSameNamedColumns(value, columns);
    else filled[key] = typeof value === 'string' && columns.has(key) && !columns.has(value) ? key : value;
  }
  return filled;
}

/** The validation errors the executor reports for the invocation (none when it would run). */
export async function validationErrors(invocation: JsonObject, registry: ToolRegistry, catalog: CaptureCatalog): Promise<ToolError[]> {
  const record = await createExecutor({ registry, catalog, runner: validateOnly }).execute(invocation);
  return record.phase === 'validation' ? record.result.errors : [];
}

/** `sextant template TOOL`: returns the exit code. */
export async function runTemplate(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { capture: { type: 'string', multiple: true }, 'time-column': { type: 'string' }, 'enable-test-tools': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    TEMPLATE_USAGE,
  );
  if (values.help) {
    io.stdout(`${TEMPLATE_USAGE}\n`);
    return EXIT.ok;
  }
  const [toolName, ...extra] = positionals;
  const registry = new ToolRegistry(builtinTools({ testTools: values['enable-test-tools'] ?? false }));
  const installed = registry.manifests().map((manifest) => manifest.name);
  if (!toolName) throw new UsageError(`template needs a TOOL: one of ${installed.join(', ')}`, TEMPLATE_USAGE);
  expectNoMore(extra, TEMPLATE_USAGE);
  const manifest = registry.latest(toolName)?.manifest;
  if (!manifest) throw new UsageError(`no installed tool '${toolName}': one of ${installed.join(', ')}`, TEMPLATE_USAGE);
  const specs = values.capture ?? [];
  if (specs.length > 1) throw new UsageError('template takes one --capture', TEMPLATE_USAGE);
  const given = await readCaptures(specs, values['time-column']);
  const builtin = builtinCaptures();
  const catalog = new CaptureCatalog([...builtin, ...given]);

  if (given.length === 1) {
    const invocation = templateInvocation(manifest, given[0]);
    io.stdout(`${JSON.stringify(invocation, null, 2)}\n`);
    const errors = await validationErrors(invocation, registry, catalog);
    for (const error of errors) io.stderr(`sextant template: ${given[0].info.id} does not fit ${toolName}: [${error.code}] ${error.field}: ${error.message}\n`);
    return errors.length > 0 ? EXIT.validationFailure : EXIT.ok;
  }
  // Without --capture: the first built-in capture the tool accepts (a BLE tool needs a BLE capture).
  let first: { invocation: JsonObject; errors: ToolError[] } | null = null;
  for (const capture of builtin) {
    const invocation = templateInvocation(manifest, capture);
    const errors = await validationErrors(invocation, registry, catalog);
    if (errors.length === 0) {
      io.stdout(`${JSON.stringify(invocation, null, 2)}\n`);
      return EXIT.ok;
    }
    first ??= { invocation, errors };
  }
  if (!first) throw new Error('there are no built-in captures');
  io.stdout(`${JSON.stringify(first.invocation, null, 2)}\n`);
  for (const error of first.errors) io.stderr(`sextant template: no built-in capture fits ${toolName}: [${error.code}] ${error.field}: ${error.message}\n`);
  return EXIT.validationFailure;
}
