import { CaptureCatalog } from '../data/catalog.ts';
import { builtinCaptures } from '../demo/builtin-captures.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { ToolImplementation } from '../tools/tool.ts';
import { createExecutor, type Executor } from './executor.ts';
import { createInProcessRunner } from './in-process-runner.ts';

let demo: CaptureCatalog | undefined;

/** The built-in captures, generated once per test file. */
export function demoCatalog(): CaptureCatalog {
  demo ??= new CaptureCatalog(builtinCaptures());
  return demo;
}

/** An executor over the built-in tools (plus `extra`) and captures, running in process. */
export function testExecutor(extra: ToolImplementation[] = []): { executor: Executor; registry: ToolRegistry } {
  const registry = new ToolRegistry([...builtinTools({ testTools: true }), ...extra]);
  const catalog = demoCatalog();
  const runner = createInProcessRunner({ registry, capture: (id) => catalog.capture(id) });
  return { executor: createExecutor({ registry, catalog, runner }), registry };
}
