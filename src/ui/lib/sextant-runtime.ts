import {
  ToolRegistry,
  builtinTools,
  createExecutor,
  type CaptureInfo,
  type CaptureLookup,
  type Executor,
} from '../../core/index.ts';
import { getSettings, subscribeSettings } from './settings.ts';
import { WorkerPool } from './worker-pool.ts';

function createToolsWorker(): Worker {
  return new Worker(new URL('../../../workers/tools.worker.ts', import.meta.url), { type: 'module', name: 'sextant-tools' });
}

/**
 * The app's one runtime: a pool of tools workers (where every analysis runs), the registry
 * the main thread validates against, and the catalog of capture descriptions.
 */
export class SextantRuntime {
  readonly pool: WorkerPool;
  private registry: ToolRegistry;
  private captureInfos = new Map<string, CaptureInfo>();
  private executor: Executor;
  private capturesLoaded: Promise<CaptureInfo[]> | null = null;

  constructor() {
    const settings = getSettings();
    this.pool = new WorkerPool({ size: settings.workerCount, testTools: settings.testTools, createWorker: createToolsWorker });
    this.registry = new ToolRegistry(builtinTools({ testTools: settings.testTools }));
    this.executor = this.buildExecutor();
    subscribeSettings(() => {
      const next = getSettings();
      this.pool.reconfigure({ size: next.workerCount, testTools: next.testTools });
      this.registry = new ToolRegistry(builtinTools({ testTools: next.testTools }));
      this.executor = this.buildExecutor();
    });
  }

  manifests() {
    return this.registry.manifests();
  }

  /** The capture descriptions, loaded once from a worker (the data itself stays in the workers). */
  captures(): Promise<CaptureInfo[]> {
    this.capturesLoaded ??= this.pool.captureInfos().then((infos) => {
      this.captureInfos = new Map(infos.map((info) => [info.id, info]));
      return infos;
    });
    return this.capturesLoaded;
  }

  /** Makes an imported capture available to every worker and to validation. */
  async addCapture(arrow: Blob): Promise<CaptureInfo> {
    await this.captures();
    const info = await this.pool.addCapture(arrow);
    this.captureInfos.set(info.id, info);
    this.capturesLoaded = Promise.resolve([...this.captureInfos.values()]);
    return info;
  }

  async removeCapture(id: string): Promise<void> {
    await this.captures();
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
    return createExecutor({ registry: this.registry, catalog, runner: this.pool });
  }
}

let runtime: SextantRuntime | null = null;

export function getRuntime(): SextantRuntime {
  runtime ??= new SextantRuntime();
  return runtime;
}
