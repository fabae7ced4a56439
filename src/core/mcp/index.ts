// MCP both ways (issue 13): Sextant's strict contract over any MCP server's tools, and what
// Sextant answers as an MCP server. Transports and the SDK client/server objects live at the edge.

export type { McpToolDefinition, McpToolProblem, McpToolList, McpFailure, McpAnswer, McpRequestOptions, McpConnection } from './mcp-types.ts';
export type { ListToolsOutcome } from './mcp-tools.ts';
export { readToolEntries, listMcpTools, MAX_TOOL_LIST_PAGES } from './mcp-tools.ts';
export { toolResultFromMcp, toolResultFromFailure, describeMcpFailure, contentText, DEFAULT_MAX_RESULT_BYTES, JSON_RPC_INVALID_PARAMS, JSON_RPC_METHOD_NOT_FOUND } from './mcp-result.ts';
export type { McpCallRecord, McpCallOptions } from './mcp-call.ts';
export { validateMcpArguments, callMcpTool } from './mcp-call.ts';
export type { McpCheckOutcome, McpCheckRow, McpCheckOptions } from './mcp-check.ts';
export { mcpCheckCases, checkMcpTool, formatCheckTable } from './mcp-check.ts';
export { createSdkConnection, failureFromError, MCP_CORS_HINT } from './sdk-connection.ts';
export type { McpListedTool, McpCallAnswer } from './sextant-server.ts';
export {
  mcpToolForManifest,
  invocationFromMcpCall,
  mcpTextContent,
  mcpAnswerFromToolResult,
  captureResourceUri,
  captureIdFromUri,
  captureResourceEntry,
  captureResourceContent,
  MCP_DEFAULT_TIMEOUT_MS,
} from './sextant-server.ts';
export type { McpRunBinding, McpRunnerOptions } from './mcp-runner.ts';
export { createMcpRunner } from './mcp-runner.ts';
export type { McpPlannerServer, McpPlannerTool, McpOfferedServer, McpPlannerToolSet } from './mcp-planner.ts';
export { mcpPlannerTools, mcpPlannerToolSet, MCP_PLANNER_TOOL_VERSION } from './mcp-planner.ts';
export type { McpServerConfig, McpStdioServerConfig, McpHttpServerConfig, McpServerConfigProblem } from './mcp-server-config.ts';
export { checkMcpServers, checkMcpServerEntry, describeMcpServerConfig } from './mcp-server-config.ts';
