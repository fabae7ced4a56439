import {
  ToolRegistry,
  builtinTools,
  createEndpointRunner,
  createExecutor,
  createMcpRunner,
  isJsonObject,
  mcpPlannerToolSet,
  readToolEntries,
  validationWarmUp,
  type McpConnection,
  type McpFailure,
  type McpRunBinding,
  type CaptureInfo,
  type CaptureLookup,
  type CaptureView,
  type CellValue,
  type Executor,
  type ToolImplementation,
  type ToolManifest,
  type ToolRunner,
} from '../../../core/index.ts';
import type { McpServerState } from './mcp-servers.ts';
import { loadSavedManifests } from '../stores/saved-manifests.ts';
import { getSettings, subscribeSettings } from '../stores/settings.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { WorkerPool } from './worker-pool.ts';

/** A capture under a filter, or why the filter was refused (with where in it, when known). */
export type CaptureViewAnswer = CaptureView | { error: string; position: number | null };

function createToolsWorker(): Worker {
  return new Worker(new URL('../../../../workers/tools.worker.ts', import.meta.url), { type: 'module', name: 'sextant-tools' });
}

/**
 * The app's one runtime: a pool of tools workers (where every analysis runs), the registry
 * the main thread validates against, and the catalog of capture descriptions.
 */
export class SextantRuntime {
  private readonly pool: WorkerPool;
  private registry: ToolRegistry;
  private captureInfos = new Map<string, CaptureInfo>();
  private executor: Executor;
  private capturesLoaded: Promise<CaptureInfo[]> | null = null;

  constructor() {
    const settings = getSettings();
    this.pool = new WorkerPool({ size: settings.workerCount, testTools: settings.testTools, createWorker: createToolsWorker });
    this.registry = new ToolRegistry();
    this.executor = this.buildExecutor();
    this.rebuild();
    void this.followSwitchedOnMcpServers();
    subscribeSettings(() => {
      const next = getSettings();
      this.pool.reconfigure({ size: next.workerCount, testTools: next.testTools });
      this.rebuild();
    });
  }

  manifests() {
    return this.registry.manifests();
  }

  /**
   * Whether an installed manifest can run here: a built-in tool, or a saved one bound to an
   * endpoint or an MCP server. A saved manifest with neither validates but can only end in
   * EXECUTION_ERROR, so the planner does not offer it to the model (issue 23).
   */
  canRun(manifest: Pick<ToolManifest, 'name' | 'version'>): boolean {
    const key = `${manifest.name}@${manifest.version}`;
    return this.builtinNames.has(manifest.name) || this.endpoints.has(key) || this.mcpBindings.has(key) || this.mcpOfferedBinding(manifest.name, manifest.version) !== null;
  }

  /** The saved manifests, loaded once; `loadSavedManifests` reloads them after a save. */
  savedManifestsReady(): Promise<void> {
    this.savedLoading ??= this.loadSavedManifests();
    return this.savedLoading;
  }

  private savedLoading: Promise<void> | null = null;

  /** Installs the manifests saved in the workspace beside the built-in tools. */
  async loadSavedManifests(): Promise<void> {
    const entries = await loadSavedManifests();
    this.saved = entries.map((entry) => entry.manifest);
    this.endpoints = new Map(entries.filter((entry) => entry.endpoint).map((entry) => [`${entry.manifest.name}@${entry.manifest.version}`, entry.endpoint!]));
    this.mcpBindings = new Map();
    for (const entry of entries) {
      // The SDK client loads only when an MCP-bound tool runs. The listed tool is checked again (it was checked when imported; the workspace file may have been edited).
      const tool = entry.mcp ? readToolEntries([entry.mcp.tool]).tools[0] : undefined;
      if (!entry.mcp || !tool) continue;
      const url = entry.mcp.url;
      this.mcpBindings.set(`${entry.manifest.name}@${entry.manifest.version}`, { tool, connect: async () => (await import('./mcp-servers.ts')).getMcpServers().connection(url) });
    }
    this.rebuild();
  }

  private saved: ToolManifest[] = [];
  /** Endpoint URLs of saved tools, by `name@version`. */
  private endpoints = new Map<string, string>();
  /** MCP bindings of saved tools, by `name@version`. */
  private mcpBindings = new Map<string, McpRunBinding>();

  private rebuild(): void {
    const builtins = builtinTools({ testTools: getSettings().testTools });
    this.builtinNames = new Set(builtins.map((tool) => tool.manifest.name));
    const saved = this.saved.filter((manifest) => !this.builtinNames.has(manifest.name));
    const taken = new Set([...this.builtinNames, ...saved.map((manifest) => manifest.name)]);
    const offered = this.mcpOffered.filter((manifest) => !taken.has(manifest.name));
    this.registry = new ToolRegistry([...builtins, ...saved.map(unboundTool), ...offered.map(unboundTool)]);
    this.executor = this.buildExecutor();
    this.warmUpValidation();
  }

  private cancelWarmUp: (() => void) | null = null;

  /**
   * Compiles the validators of the installed tools in idle time, one schema per idle callback,
   * so the first Run does not compile them all in one task (issue 15). Compiled once: the core
   * remembers each schema's validator.
   */
  private warmUpValidation(): void {
    this.cancelWarmUp?.();
    const steps = validationWarmUp(this.registry);
    let handle: number | null = null;
    const next = () => {
      const step = steps.shift();
      if (!step) return;
      step();
      handle = whenIdle(next);
    };
    handle = whenIdle(next);
    this.cancelWarmUp = () => {
      if (handle !== null) cancelWhenIdle(handle);
    };
  }

  private builtinNames = new Set<string>();
  /** The demo captures the workers carry (never stored in the workspace). */
  private builtinCaptureIds = new Set<string>();

  /** Manifests of the tools of switched-on MCP servers (`server__tool`), offered to the planner. */
  private mcpOffered: ToolManifest[] = [];
  /** Their bindings (the runner's `bindingFor`). */
  private mcpOfferedBinding: (name: string, version: string) => McpRunBinding | null = () => null;
  private mcpFollowed = false;
  private mcpSignature = '';

  /**
   * Follows the app's MCP servers: the tools of every server the analyst switched on (and that is
   * connected) join the registry as `server__tool` manifests, so the planner discovers them like
   * any installed tool; switched off, they leave it (issue 13).
   */
  followMcpServers(store: {
    subscribe(listener: () => void): () => void;
    snapshot(): McpServerState[];
    connection(url: string): Promise<{ ok: true; connection: McpConnection } | { ok: false; failure: McpFailure }>;
  }): void {
    if (this.mcpFollowed) return;
    this.mcpFollowed = true;
    const update = () => {
      const switchedOn = store.snapshot().filter((server) => server.enabled && server.status === 'connected');
      const signature = JSON.stringify(switchedOn.map((server) => [server.name, server.url, server.tools.map((tool) => tool.raw)]));
      if (signature === this.mcpSignature) return;
      this.mcpSignature = signature;
      // The same tool set as `sextant plan`'s mcpServers (core's mcpPlannerToolSet).
      const offered = mcpPlannerToolSet(switchedOn.map((server) => ({ name: server.name, tools: server.tools, connect: () => store.connection(server.url) })));
      this.mcpOffered = offered.manifests;
      this.mcpOfferedBinding = offered.bindingFor;
      this.rebuild();
    };
    store.subscribe(update);
    update();
  }

  /** At start, loads the MCP client only when the workspace has a switched-on server. */
  private async followSwitchedOnMcpServers(): Promise<void> {
    const workspace = await getWorkspace();
    // The key of src/ui/lib/runtime/mcp-servers.ts, read here without loading the SDK client.
    const stored = workspace ? await workspace.getSetting('mcp.servers.v1') : null;
    const anyOn = stored?.ok && Array.isArray(stored.value) && stored.value.some((entry) => isJsonObject(entry) && entry.enabled === true);
    if (anyOn) (await import('./mcp-servers.ts')).getMcpServers();
  }

  /**
   * The capture descriptions: the built-in ones from a worker, then every capture saved in the
   * workspace, loaded into the workers. Loaded once; the data itself stays in the workers.
   */
  captures(): Promise<CaptureInfo[]> {
    this.capturesLoaded ??= this.loadCaptures();
    return this.capturesLoaded;
  }

  /** Counts, histogram, summaries and addresses of a capture under a filter, computed in a tools worker. */
  selectRows(captureId: string, filter: string): Promise<CaptureViewAnswer> {
    // comlink's Remote<> distributes the union into a union of promises; it is one promise.
    return this.pool.query((api) => api.selectRows(captureId, filter) as Promise<CaptureViewAnswer>);
  }

  /** `limit` rows of a capture under a filter from row `offset`, every column, read in a tools worker. */
  readRows(captureId: string, filter: string, offset: number, limit: number): Promise<CellValue[][]> {
    return this.pool.query((api) => api.readRows(captureId, filter, offset, limit));
  }

  /** A capture's whole table as Arrow IPC file bytes (the Captures page's download). */
  exportArrow(captureId: string): Promise<Uint8Array> {
    return this.pool.query((api) => api.exportArrow(captureId));
  }

  /** A capture's whole table as a Parquet file (the Captures page's download). */
  exportParquet(captureId: string): Promise<Uint8Array> {
    return this.pool.query((api) => api.exportParquet(captureId));
  }

  /** SHA-256 and size of a built-in capture's Arrow IPC bytes (null for a capture that is not built in). */
  builtinFingerprint(captureId: string): Promise<{ sha256: string; bytes: number } | null> {
    return this.pool.query((api) => api.builtinFingerprint(captureId));
  }

  /** Import reports by capture id (captures imported here or restored from the workspace). */
  readonly importReports = new Map<string, unknown>();

  /** Saved captures that could not be restored, with why. */
  readonly restoreProblems: Array<{ id: string; message: string }> = [];

  private async loadCaptures(): Promise<CaptureInfo[]> {
    const builtins = await this.pool.captureInfos();
    this.builtinCaptureIds = new Set(builtins.map((info) => info.id));
    this.captureInfos = new Map(builtins.map((info) => [info.id, info]));
    await this.restoreStoredCaptures(() => true);
    return [...this.captureInfos.values()];
  }

  /** Loads the workspace's captures that `wanted` picks into the workers; what cannot be loaded goes to `restoreProblems`. */
  private async restoreStoredCaptures(wanted: (id: string) => boolean): Promise<void> {
    const workspace = await getWorkspace();
    const stored = workspace ? await workspace.listCaptures() : null;
    if (!workspace || !stored?.ok) return;
    for (const summary of stored.value) {
      if (!wanted(summary.id)) continue;
      if (summary.report !== null) this.importReports.set(summary.id, summary.report);
      const blob = await workspace.loadCaptureBlob(summary.id);
      if (!blob.ok) {
        this.restoreProblems.push({ id: summary.id, message: blob.error.message });
        continue;
      }
      try {
        const info = await this.pool.addCapture(blob.value);
        this.captureInfos.set(info.id, info);
      } catch (error) {
        this.restoreProblems.push({ id: summary.id, message: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /**
   * Loads the workspace's captures this session does not have yet (after a workspace import),
   * and, when the import replaced entries, those it already had too: the workers then hold what
   * the workspace holds, without a reload.
   */
  async loadWorkspaceCaptures(options: { replaced: boolean }): Promise<CaptureInfo[]> {
    await this.captures();
    await this.restoreStoredCaptures((id) => !this.builtinCaptureIds.has(id) && (options.replaced || !this.captureInfos.has(id)));
    this.capturesLoaded = Promise.resolve([...this.captureInfos.values()]);
    return this.capturesLoaded;
  }

  /** Makes an imported capture available to every worker and to validation. */
  async addCapture(arrow: Blob, report?: unknown): Promise<CaptureInfo> {
    await this.captures();
    const info = await this.pool.addCapture(arrow);
    if (report !== undefined) this.importReports.set(info.id, report);
    this.captureInfos.set(info.id, info);
    this.capturesLoaded = Promise.resolve([...this.captureInfos.values()]);
    return info;
  }

  /** Removes a capture from the workers and from the workspace. */
  async removeCapture(id: string): Promise<void> {
    await this.captures();
    const workspace = await getWorkspace();
    await workspace?.deleteCapture(id);
    this.pool.removeCapture(id);
    this.captureInfos.delete(id);
    this.capturesLoaded = Promise.resolve([...this.captureInfos.values()]);
  }

  get currentExecutor(): Executor {
    return this.executor;
  }

  private buildExecutor(): Executor {
    const catalog: CaptureLookup = {
      get: (id) => this.captureInfos.get(id),
      ids: () => [...this.captureInfos.keys()].sort(),
    };
    // Saved manifests validate like any tool. Bound to an endpoint, they run there; unbound,
    // their runs answer at once instead of reaching a worker that does not know them.
    const local: ToolRunner = {
      run: (request, options) =>
        this.builtinNames.has(request.toolName)
          ? this.pool.run(request, options)
          : Promise.resolve({
              kind: 'completed',
              outcome: {
                status: 'error',
                summary: `${request.toolName} has no implementation in this browser.`,
                errors: [
                  {
                    code: 'EXECUTION_ERROR',
                    field: '',
                    message: `${request.toolName} ${request.toolVersion} is a saved manifest with no endpoint: bind it to the URL that serves it on the Manifests page`,
                  },
                ],
              },
            }),
    };
    const endpoints = createEndpointRunner({
      endpointFor: (name, version) => this.endpoints.get(`${name}@${version}`) ?? null,
      fetch: (input, init) => fetch(input, init),
      fallback: local,
    });
    const runner = createMcpRunner({
      bindingFor: (name, version) => this.mcpBindings.get(`${name}@${version}`) ?? this.mcpOfferedBinding(name, version),
      fallback: endpoints,
    });
    return createExecutor({ registry: this.registry, catalog, runner });
  }
}

/** A saved manifest as a tool: validated like any other, never run in a worker. */
function unboundTool(manifest: ToolManifest): ToolImplementation {
  return {
    manifest,
    run: () => ({ status: 'error', summary: 'No implementation.', errors: [{ code: 'EXECUTION_ERROR', field: '', message: `${manifest.name} has no implementation` }] }),
  };
}

/** requestIdleCallback where the browser has it (Safari lacks it), else a timeout. */
function whenIdle(callback: () => void): number {
  return typeof requestIdleCallback === 'function' ? requestIdleCallback(callback, { timeout: 2000 }) : window.setTimeout(callback, 50);
}

function cancelWhenIdle(handle: number): void {
  if (typeof cancelIdleCallback === 'function') cancelIdleCallback(handle);
  else window.clearTimeout(handle);
}

let runtime: SextantRuntime | null = null;

export function getRuntime(): SextantRuntime {
  runtime ??= new SextantRuntime();
  return runtime;
}
