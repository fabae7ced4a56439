import { builtinTools, type CaptureInfo, type DigestingTool, type Executor, type FetchFunction, type PlannerClock, type ToolManifest, timerClock } from '../../../core/index.ts';
import { getRuntime } from '../runtime/sextant-runtime.ts';

/**
 * What the planner loop needs from the browser, built at the edge so the core stays pure: the
 * real `fetch`, a clock on `setTimeout`, the app's executor (validation here, execution in the
 * worker pool) and the installed manifests.
 */
export interface PlannerEnvironment {
  fetch: FetchFunction;
  clock: PlannerClock;
  executor: Executor;
  manifests: ToolManifest[];
  /** The captures the planner may name (built-in, imported, restored). */
  captures: CaptureInfo[];
  /** This page's origin: it lets the adapters tell a CORS refusal from a network failure. */
  pageOrigin: string;
  /** A tool's own digest of its results (what the model reads); the generic digest when absent. */
  digestFor?: (toolName: string) => DigestingTool | undefined;
}

/** The built-in tools' digests by name (built-in names always win over saved manifests in the registry). */
let builtinDigests: Map<string, DigestingTool> | null = null;
export function builtinDigestFor(toolName: string): DigestingTool | undefined {
  builtinDigests ??= new Map(builtinTools({ testTools: true }).map((tool) => [tool.manifest.name, tool]));
  return builtinDigests.get(toolName);
}

/** `fetch` bound to the window (an unbound call throws "Illegal invocation" in some browsers). */
export const browserFetch: FetchFunction = (url, init) => fetch(url, init);

/** Wall-clock time and a sleep that ends early, without throwing, when the signal aborts. */
export const browserClock: PlannerClock = timerClock({ setTimeout, clearTimeout });

/** The environment of the app's runtime, once its captures and saved manifests are loaded. */
export async function plannerEnvironment(): Promise<PlannerEnvironment> {
  const runtime = getRuntime();
  const [captures] = await Promise.all([runtime.captures(), runtime.savedManifestsReady()]);
  // Only tools that can run are offered to the model: a saved manifest with no endpoint would only end in EXECUTION_ERROR.
  const manifests = runtime.manifests().filter((manifest) => runtime.canRun(manifest));
  return { fetch: browserFetch, clock: browserClock, executor: runtime.currentExecutor, manifests, captures, pageOrigin: window.location.origin, digestFor: builtinDigestFor };
}

/** Installed manifests the planner leaves out because they cannot run here (saved, with no endpoint or MCP server). */
export async function unrunnableManifests(): Promise<ToolManifest[]> {
  const runtime = getRuntime();
  await runtime.savedManifestsReady();
  return runtime.manifests().filter((manifest) => !runtime.canRun(manifest));
}
