import type { JsonObject } from '../util/json.ts';
import type { ToolError, ToolWarning } from './tool-error.ts';

/** A JSON Schema document, kept as data (user-authored schemas have no static type). */
export type JsonSchema = JsonObject;

export type SideEffects = 'none' | 'read_only' | 'external_write';
export type CostUnit = 'call' | 'second' | 'record';

/** What a tool is, what it accepts and returns, and how it may be run (tool-contract.md §1). */
/** See `ToolManifest.execution_constraints.capture_selection`. */
export type CaptureSelectionRule = 'required' | 'none';

export interface ToolManifest {
  /** Stable lowercase snake_case identifier. */
  name: string;
  /** Semantic version `major.minor.patch`. */
  version: string;
  description: string;
  capabilities: string[];
  /** JSON Schema for `ToolInvocation.arguments`. */
  input_schema: JsonSchema;
  /** JSON Schema for `ToolResult.structured_output` when status is ok or partial. */
  output_schema: JsonSchema;
  execution_constraints: {
    /** Hard upper bound for a run's timeout, in milliseconds. */
    max_timeout_ms: number;
    /** Largest accepted serialized invocation, in UTF-8 bytes. */
    max_payload_bytes: number;
    supports_streaming: boolean;
    side_effects: SideEffects;
    /**
     * Whether an invocation carries a `capture_selection` (Sextant's extension; the contract is
     * silent on tools that read no capture). `required` (the default): it must, as tool-contract.md
     * §5.1 says. `none`: the tool reads no capture (an MCP server's tool), so the envelope must not
     * carry one and the planner does not ask the model for one.
     */
    capture_selection?: CaptureSelectionRule;
  };
  cost_hint: {
    unit: CostUnit;
    estimated_cost: number;
    /** ISO currency code or a pseudo-unit such as `credits`. */
    currency: string;
  };
  /** True when identical inputs give identical outputs. */
  deterministic: boolean;
}

/** Inclusive time bounds in milliseconds of the capture's own time base. */
export interface TimeRange {
  start_ms: number;
  end_ms: number;
}

/** The generic selection shape of tool-contract.md §2. */
export interface GenericCaptureSelection {
  capture_id: string;
  selectors?: {
    time_range?: TimeRange;
    channels?: string[];
    filters?: string[];
  };
}

/** The BLE selection shape of tool-contract.md §7.1. */
export interface BleCaptureSelection {
  capture_ids: string[];
  time_window: TimeRange;
  filter_expression?: string;
}

export type CaptureSelection = GenericCaptureSelection | BleCaptureSelection;

/** The request envelope an orchestrator sends to run a tool (tool-contract.md §2). */
export interface ToolInvocation {
  tool_name: string;
  tool_version: string;
  /** Required unless the tool reads no capture (`execution_constraints.capture_selection: none`). */
  capture_selection?: CaptureSelection;
  arguments: JsonObject;
  /** Caller's correlation id, unique per attempt. */
  request_id: string;
  /** Desired timeout in milliseconds; clamped to the manifest's `max_timeout_ms`. */
  timeout_ms: number;
}

export type ToolStatus = 'ok' | 'partial' | 'error';

export interface ToolArtifact {
  name: string;
  mime_type: string;
  /** Fetchable location; Sextant's own artifacts are `data:` URIs. */
  uri: string;
  /** SHA-256 of the artifact's bytes, 64 lowercase hex digits. */
  sha256: string;
}

/** The normalized response envelope (tool-contract.md §3). */
export interface ToolResult {
  status: ToolStatus;
  summary: string;
  structured_output?: JsonObject;
  artifacts?: ToolArtifact[];
  warnings: ToolWarning[];
  errors: ToolError[];
  /** In [0, 1]. */
  confidence: number;
}
