import type { ToolManifest } from '../contract/types.ts';
import { toolError, type ToolError } from '../contract/tool-error.ts';
import { compareSemVer, parseSemVer, resolveVersion } from './semver.ts';
import type { ToolImplementation } from './tool.ts';

export type ToolResolution = { ok: true; tool: ToolImplementation; warning?: { code: string; message: string } } | { ok: false; error: ToolError };

/** The installed tools, by name and version. */
export class ToolRegistry {
  private readonly byName = new Map<string, Map<string, ToolImplementation>>();

  constructor(tools: Iterable<ToolImplementation> = []) {
    for (const tool of tools) this.install(tool);
  }

  /** Installs a tool; a later install of the same name and version replaces the earlier one. */
  install(tool: ToolImplementation): void {
    const { name, version } = tool.manifest;
    let versions = this.byName.get(name);
    if (!versions) {
      versions = new Map();
      this.byName.set(name, versions);
    }
    versions.set(version, tool);
  }

  /** Every installed manifest, by name then newest version first. */
  manifests(): ToolManifest[] {
    return [...this.byName.keys()].sort().flatMap((name) => this.versionsOf(name).map((version) => this.byName.get(name)!.get(version)!.manifest));
  }

  /** Installed versions of a tool, newest first. */
  versionsOf(name: string): string[] {
    const versions = [...(this.byName.get(name)?.keys() ?? [])];
    return versions.sort((a, b) => compareSemVer(parseSemVer(b)!, parseSemVer(a)!));
  }

  /** The newest installed version of a tool, if any. */
  latest(name: string): ToolImplementation | undefined {
    const [newest] = this.versionsOf(name);
    return newest ? this.byName.get(name)?.get(newest) : undefined;
  }

  /** Resolves `name@version` by the compatibility rules, or says why it cannot. */
  resolve(name: string, version: string): ToolResolution {
    const versions = this.byName.get(name);
    if (!versions) {
      const installed = [...this.byName.keys()].sort().join(', ') || 'none';
      return { ok: false, error: toolError('UNKNOWN_TOOL', 'tool_name', `No installed tool is named '${name}'; installed: ${installed}`) };
    }
    const resolved = resolveVersion(version, [...versions.keys()]);
    if (!resolved) {
      return {
        ok: false,
        error: toolError(
          'UNSUPPORTED_VERSION',
          'tool_version',
          `${name} ${version} is not installed and no compatible version is; installed versions: ${this.versionsOf(name).join(', ')}`,
        ),
      };
    }
    const tool = versions.get(resolved)!;
    if (resolved === version) return { ok: true, tool };
    return { ok: true, tool, warning: { code: 'VERSION_RESOLVED', message: `Requested ${name} ${version}; ran on the compatible installed version ${resolved}` } };
  }
}
