/**
 * The runner's exit codes: agent-contract.md §2's categories, the one table every command uses.
 * 3 is the contract's "missing or failed MCP servers / initialization failures"; `report verify`
 * uses it for a report that does not verify.
 */
export const EXIT = {
  ok: 0,
  /** A tool or session failed, or an internal error. */
  executionFailure: 1,
  /** A configured MCP server is missing or failed to initialize. */
  mcpServerFailure: 3,
  /** `report verify`: a hash or a result differs, or a capture is missing. */
  verificationFailure: 3,
  /** Bad command-line arguments, configuration or unreadable files. */
  badArguments: 4,
  /** A validation failure (an invocation, a manifest, a call refused before sending). */
  validationFailure: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
