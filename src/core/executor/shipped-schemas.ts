import { bleCaptureSelectionSchema, genericCaptureSelectionSchema, toolInvocationSchema, toolManifestSchema, toolResultSchema } from '../contract/schemas.ts';
import type { JsonSchema } from '../contract/types.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { trustSchemas } from '../validation/schema-validator.ts';

/**
 * The schemas that ship with Sextant: the contract's and every built-in tool's. They compile
 * without a check against the meta-schema (see `trustSchemas`); `shipped-schemas.test.ts` checks
 * each against it instead. Imported for this effect by the modules that validate with them.
 */
export const SHIPPED_SCHEMAS: ReadonlyArray<JsonSchema> = [
  toolInvocationSchema,
  toolResultSchema,
  toolManifestSchema,
  genericCaptureSelectionSchema,
  bleCaptureSelectionSchema,
  ...builtinTools({ testTools: true }).flatMap((tool) => [tool.manifest.input_schema, tool.manifest.output_schema]),
];

trustSchemas(...SHIPPED_SCHEMAS);
