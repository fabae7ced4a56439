import { bleAddressAnalyzerManifest, isJsonObject, regressionManifest, type CaptureInfo, type JsonObject, type ToolManifest } from '../../../core/index.ts';
import { declaredSelectionShape, selectionForCapture, suggestedArguments } from './form-model.ts';

/**
 * Whether the BLE analyzer can read this capture: it has every address column the analyzer's
 * `address_columns` requires (the normalized BLE record columns, docs/capture-schema.md). Decided
 * from the columns, never from the capture's name or file type.
 */
export function fitsBleAnalyzer(info: CaptureInfo): boolean {
  const properties = bleAddressAnalyzerManifest.input_schema.properties;
  const schema = isJsonObject(properties) ? properties.address_columns : undefined;
  const required = isJsonObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  const strings = new Set(info.columns.filter((column) => column.kind === 'string').map((column) => column.name));
  return required.length > 0 && required.every((name) => typeof name === 'string' && strings.has(name)) && info.columns.some((column) => column.name === info.timeColumn);
}

/** The tool "Use in a tool" opens for a capture: the BLE analyzer for BLE records, the regression tool (summary statistics) otherwise. */
export function toolForCapture(info: CaptureInfo): ToolManifest {
  return fitsBleAnalyzer(info) ? bleAddressAnalyzerManifest : regressionManifest;
}

/**
 * The invocation "Use in a tool" opens: the tool for the capture, the capture and its whole time
 * span selected in the shape the tool's manifest declares, the page's valid filter kept, and the
 * tool's suggested arguments (the BLE analyzer's columns taken from the capture's own).
 */
export function invocationForCapture(info: CaptureInfo, filter: string, requestId: string): JsonObject {
  const manifest = toolForCapture(info);
  const shape = declaredSelectionShape(manifest);
  const selection = selectionForCapture(shape, info);
  const trimmed = filter.trim();
  if (trimmed !== '') {
    if (shape === 'ble') selection.filter_expression = trimmed;
    else selection.selectors = { ...(isJsonObject(selection.selectors) ? selection.selectors : {}), filters: [trimmed] };
  }
  const suggested = suggestedArguments(manifest, info);
  return {
    tool_name: manifest.name,
    tool_version: manifest.version,
    capture_selection: selection,
    // The regression tool has no documented default operation; summary statistics read any numeric capture.
    arguments: manifest === regressionManifest ? { operation: 'summary_stats', ...suggested } : suggested,
    request_id: requestId,
    timeout_ms: manifest === regressionManifest ? 30_000 : Math.min(120_000, manifest.execution_constraints.max_timeout_ms),
  };
}
