import { testEchoTool } from './diagnostics/test-echo.ts';
import { regressionTool } from './regression/index.ts';
import { bleAddressAnalyzerTool } from './ble-analyzer/index.ts';
import type { ToolImplementation } from './tool.ts';

export interface BuiltinToolOptions {
  /** Also install the diagnostic `test_echo` tool. */
  testTools?: boolean;
}

/** The tools every Sextant installation has. */
export function builtinTools(options: BuiltinToolOptions = {}): ToolImplementation[] {
  return options.testTools ? [regressionTool, bleAddressAnalyzerTool, testEchoTool] : [regressionTool, bleAddressAnalyzerTool];
}
