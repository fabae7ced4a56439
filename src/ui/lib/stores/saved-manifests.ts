import { classifyChange, compareVersions, isJsonObject, type ChangeClassification, type JsonObject, type ToolManifest } from '../../../core/index.ts';
import { getWorkspace } from './workspace-session.ts';

/** One saved version of a manifest. */
export interface SavedManifest {
  manifest: ToolManifest;
  /** ISO 8601. */
  savedAt: string;
  /** URL the tool is served by: the executor POSTs each validated invocation there. */
  endpoint?: string;
  /** The MCP server tool it runs on: the executor sends each validated invocation's arguments there. */
  mcp?: SavedMcpBinding;
  /**
   * An endpoint URL that came with a workspace import and was not enabled then: disabled (the
   * runtime binds `endpoint` only) until the analyst enables or discards it on the Manifests page.
   */
  pendingEndpoint?: string;
}

/** A saved manifest's MCP binding: the server's Streamable HTTP URL and the tool as it listed it. */
export interface SavedMcpBinding {
  url: string;
  /** The `tools/list` entry (name on the server, schemas). */
  tool: JsonObject;
}

/**
 * Saved manifests live in the workspace's settings store under this key, as one JSON list of
 * every saved version (the version history), so they travel with a workspace export.
 */
const SETTING_KEY = 'manifests.v1';

export async function loadSavedManifests(): Promise<SavedManifest[]> {
  const workspace = await getWorkspace();
  const stored = workspace ? await workspace.getSetting(SETTING_KEY) : null;
  if (!stored?.ok || !Array.isArray(stored.value)) return [];
  // Written only by saveManifest below, from lint-clean manifests.
  return (stored.value as unknown[]).filter((entry): entry is SavedManifest => isJsonObject(entry) && isJsonObject(entry.manifest));
}

export type SaveOutcome =
  | { ok: true; classification: ChangeClassification | null; saved: SavedManifest }
  | { ok: false; message: string; classification: ChangeClassification | null };

/**
 * Saves a lint-clean manifest as a new version. The change from the newest earlier version of the
 * same tool (saved or built in) is classified by the compatibility policy, and a change whose
 * version bump is too small — a breaking change without a new major — is refused with the reason.
 */
export async function saveManifest(manifest: ToolManifest, installed: ReadonlyArray<ToolManifest>, endpoint?: string, mcp?: SavedMcpBinding): Promise<SaveOutcome> {
  const saved = await loadSavedManifests();
  const sameVersion = saved.findIndex((entry) => entry.manifest.name === manifest.name && entry.manifest.version === manifest.version);
  if (sameVersion >= 0 && JSON.stringify(saved[sameVersion].manifest) === JSON.stringify(manifest) && (saved[sameVersion].endpoint ?? '') !== (endpoint ?? '')) {
    // Same manifest, new binding: rebinding a version is not a change to its contract.
    const rebound: SavedManifest = { ...saved[sameVersion], endpoint, savedAt: new Date().toISOString() };
    return write(saved.map((entry, index) => (index === sameVersion ? rebound : entry)), rebound, null);
  }
  const sameName = [...installed, ...saved.map((entry) => entry.manifest)].filter((candidate) => candidate.name === manifest.name);
  const existing = sameName.find((candidate) => candidate.version === manifest.version);
  if (existing) {
    const unchanged = JSON.stringify(existing) === JSON.stringify(manifest);
    return {
      ok: false,
      classification: null,
      message: unchanged
        ? `${manifest.name} ${manifest.version} is already saved with this content.`
        : `${manifest.name} ${manifest.version} already exists with other content: give the change a new version.`,
    };
  }
  const previous = sameName.filter((candidate) => compareVersions(candidate.version, manifest.version) < 0).sort((a, b) => compareVersions(b.version, a.version))[0];
  const classification = previous ? classifyChange(previous, manifest) : null;
  if (classification && !classification.versionOk) return { ok: false, message: classification.message, classification };
  const entry: SavedManifest = { manifest, savedAt: new Date().toISOString(), ...(endpoint ? { endpoint } : {}), ...(mcp ? { mcp } : {}) };
  return write([...saved, entry], entry, classification);
}

async function write(entries: SavedManifest[], entry: SavedManifest, classification: ChangeClassification | null): Promise<SaveOutcome> {
  const workspace = await getWorkspace();
  if (!workspace) return { ok: false, message: 'The browser offers no storage here, so nothing can be saved', classification };
  // SavedManifest is plain JSON: a lint-clean manifest, a date string and a URL.
  const written = await workspace.saveSetting(SETTING_KEY, entries as unknown as Parameters<typeof workspace.saveSetting>[1]);
  if (!written.ok) return { ok: false, message: written.error.message, classification };
  return { ok: true, classification, saved: entry };
}

export type PendingEndpointAction = 'enable' | 'discard';

export type PendingEndpointOutcome = { ok: true; entries: SavedManifest[]; entry: SavedManifest } | { ok: false; message: string };

/**
 * The saved list after the analyst decides on one version's imported endpoint: `enable` makes it
 * the endpoint the executor sends invocations to (replacing any earlier one), `discard` drops it.
 * Only an http(s) URL is enabled — the import did not check what the file held.
 */
export function resolvePendingEndpoint(entries: ReadonlyArray<SavedManifest>, name: string, version: string, action: PendingEndpointAction): PendingEndpointOutcome {
  const position = entries.findIndex((entry) => entry.manifest.name === name && entry.manifest.version === version);
  const found = position >= 0 ? entries[position] : undefined;
  const pending = found?.pendingEndpoint;
  if (!found || typeof pending !== 'string' || pending === '') return { ok: false, message: `${name} ${version} has no imported endpoint waiting to be enabled.` };
  if (action === 'enable' && !/^https?:\/\/\S+$/.test(pending)) return { ok: false, message: `The imported endpoint is not an http(s) URL, so it cannot be enabled; discard it instead.` };
  const { pendingEndpoint: _decided, ...rest } = found;
  const entry: SavedManifest = action === 'enable' ? { ...rest, endpoint: pending } : rest;
  return { ok: true, entry, entries: entries.map((candidate, index) => (index === position ? entry : candidate)) };
}

/** Enables or discards one saved version's imported endpoint and writes the list back to the workspace. */
export async function decidePendingEndpoint(name: string, version: string, action: PendingEndpointAction): Promise<PendingEndpointOutcome> {
  const resolved = resolvePendingEndpoint(await loadSavedManifests(), name, version, action);
  if (!resolved.ok) return resolved;
  const written = await write(resolved.entries, resolved.entry, null);
  return written.ok ? resolved : { ok: false, message: written.message };
}
