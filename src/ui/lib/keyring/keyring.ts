import { useEffect, useSyncExternalStore } from 'react';
import type { Result } from '../../../core/index.ts';
import type { Workspace, WorkspaceProblem } from '../workspace/index.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { createExternalStore } from '../stores/external-store.ts';
import { entriesFromReport, KEYRING_SETTING, keyringValue, manualEntry, mergeEntries, normalizeIrk, parseKeyring, type KeyringEntry } from './keyring-model.ts';

/** The part of the workspace the keyring uses (a setting); injectable for tests. */
export type KeyringStorage = Pick<Workspace, 'getSetting' | 'saveSetting'>;

/**
 * The workspace keyring: identity resolving keys found in imported captures and keys the analyst
 * adds, kept in the workspace's IndexedDB (one setting, {@link KEYRING_SETTING}). Changes are
 * applied one after another, each read-modify-write on the stored value, so two imports
 * finishing together both land. Keys are never logged.
 */
export class Keyring {
  private readonly entries = createExternalStore<KeyringEntry[]>([]);
  private loaded: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: () => Promise<KeyringStorage | null>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The keys, in the order they were added. */
  snapshot(): KeyringEntry[] {
    return this.entries.get();
  }

  subscribe(listener: () => void): () => void {
    return this.entries.subscribe(listener);
  }

  /** Reads the stored keyring once. */
  load(): Promise<void> {
    this.loaded ??= this.change((entries) => entries).then(() => undefined);
    return this.loaded;
  }

  /** Puts the keys of a capture's import report on the keyring (none when it lists none). */
  addFromReport(captureId: string, report: unknown): Promise<Result<number, WorkspaceProblem>> {
    const found = entriesFromReport(captureId, report, this.now().toISOString());
    if (found.length === 0) return Promise.resolve({ ok: true, value: 0 });
    return this.change((entries) => mergeEntries(entries, found)).then((result) => (result.ok ? { ok: true, value: found.length } : result));
  }

  /** Adds a typed key; an invalid one is an error message and changes nothing. */
  async addManual(label: string, irkText: string, wiresharkOrder = false): Promise<Result<KeyringEntry, { message: string }>> {
    if (label.trim() === '') return { ok: false, error: { message: 'A key needs a label (the analyzer names it in its rationale)' } };
    const irk = normalizeIrk(irkText, wiresharkOrder);
    if (!irk.ok) return { ok: false, error: { message: irk.message } };
    const entry = manualEntry(label, irk.irk, this.now().toISOString());
    const saved = await this.change((entries) => mergeEntries(entries, [entry]));
    return saved.ok ? { ok: true, value: entry } : { ok: false, error: { message: saved.error.message } };
  }

  /** Removes a key. */
  remove(id: string): Promise<Result<KeyringEntry[], WorkspaceProblem>> {
    return this.change((entries) => entries.filter((entry) => entry.id !== id));
  }

  /**
   * Runs `work` (a workspace import, which may bring a keyring of its own and replace the stored
   * one) and then puts back every key it removed: the imported file's keys are added, none of
   * this browser's is lost. Other changes wait until it is done.
   */
  async keepThrough<T>(work: () => Promise<T>): Promise<T> {
    let result!: T;
    const next = this.queue.then(async () => {
      const storage = await this.storage();
      const before = storage ? await storage.getSetting(KEYRING_SETTING) : null;
      result = await work();
      if (!storage || !before?.ok) return;
      const now = await storage.getSetting(KEYRING_SETTING);
      if (!now.ok) return;
      const after = parseKeyring(now.value);
      const kept = new Set(after.map((entry) => entry.id));
      const lost = parseKeyring(before.value).filter((entry) => !kept.has(entry.id));
      const merged = lost.length > 0 ? [...lost, ...after] : after;
      if (lost.length > 0) await storage.saveSetting(KEYRING_SETTING, keyringValue(merged));
      this.set(merged);
    });
    this.queue = next.catch(() => undefined);
    await next;
    return result;
  }

  private change(update: (entries: KeyringEntry[]) => KeyringEntry[]): Promise<Result<KeyringEntry[], WorkspaceProblem>> {
    const next = this.queue.then(async (): Promise<Result<KeyringEntry[], WorkspaceProblem>> => {
      const storage = await this.storage();
      if (!storage) {
        // No IndexedDB here: the keyring lives for this visit only.
        this.set(update(this.entries.get()));
        return { ok: true, value: this.entries.get() };
      }
      const stored = await storage.getSetting(KEYRING_SETTING);
      if (!stored.ok) return stored;
      const before = parseKeyring(stored.value);
      const after = update(before);
      if (after !== before) {
        const saved = await storage.saveSetting(KEYRING_SETTING, keyringValue(after));
        if (!saved.ok) {
          this.set(before);
          return saved;
        }
      }
      this.set(after);
      return { ok: true, value: after };
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private set(entries: KeyringEntry[]): void {
    this.entries.set(entries);
  }
}

let shared: Keyring | null = null;

/** This browser's keyring, in the workspace (loading starts at first use). */
export function getKeyring(): Keyring {
  if (!shared) {
    shared = new Keyring(getWorkspace);
    void shared.load();
  }
  return shared;
}

/**
 * Every keyring key in the forms it may be written in (MSB-first and Wireshark's LSB-first hex,
 * lower and upper case): what planner records and exports must never contain.
 */
export function keyringSecrets(): string[] {
  return getKeyring()
    .snapshot()
    .flatMap((entry) => {
      const reversed = (entry.irk.match(/../g) ?? []).reverse().join('');
      return [entry.irk, entry.irk.toUpperCase(), reversed, reversed.toUpperCase()];
    });
}

/** The keyring's keys, kept current; loads the stored keyring on first use. */
export function useKeyring(): KeyringEntry[] {
  const keyring = getKeyring();
  useEffect(() => void keyring.load(), [keyring]);
  return useSyncExternalStore(
    (listener) => keyring.subscribe(listener),
    () => keyring.snapshot(),
  );
}
