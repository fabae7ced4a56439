import type { IdentityKey, IdentityKeySource, JsonObject } from '../../../core/index.ts';

/**
 * The keyring's data: identity resolving keys found in imported captures (from their import
 * reports' `identity_keys`) and keys the analyst typed in, each with a label the analyzer's
 * `irks` argument carries into its rationale. Pure functions; keyring.ts stores them.
 *
 * Keys are sensitive. Nothing here logs; the workspace export drops them unless asked
 * ({@link withoutIdentityKeys}).
 */

/** The workspace setting that holds the keyring. */
export const KEYRING_SETTING = 'identity-keyring';

/** One key on the keyring. */
export interface KeyringEntry {
  /** Stable id: `capture:<capture>:<frame>:<source>` for found keys, `manual:<irk>` for typed ones. */
  id: string;
  /** What the analyzer's rationale will name. */
  label: string;
  /** 32 lower-case hex digits, most significant octet first (the analyzer's `irks` order). */
  irk: string;
  origin: 'capture' | 'manual';
  /** For found keys: the capture, the packet and what kind of packet carried it. */
  captureId?: string;
  frameNumber?: number;
  source?: IdentityKeySource;
  /** The identity address the capture gives for the key, when it gives one. */
  identityAddress?: string;
  /** When it was put on the keyring, ISO 8601. */
  addedAt: string;
}

const SOURCE_NAMES: Record<IdentityKeySource, string> = {
  smp_identity_information: 'SMP identity',
  resolving_list_peer: 'resolving list, peer',
  resolving_list_local: 'resolving list, local',
};

/** A human name of a key's source. */
export function sourceName(source: IdentityKeySource): string {
  return SOURCE_NAMES[source];
}

const IRK_PATTERN = /^[0-9a-f]{32}$/;

/**
 * A typed key as 32 lower-case hex digits MSB first, or an error message. Spaces, colons and
 * dashes between octets are ignored; `wiresharkOrder` reverses a key copied from Wireshark or an
 * HCI dump (least significant octet first).
 */
export function normalizeIrk(text: string, wiresharkOrder = false): { ok: true; irk: string } | { ok: false; message: string } {
  const digits = text.trim().replace(/[\s:-]/g, '').toLowerCase();
  if (!IRK_PATTERN.test(digits)) return { ok: false, message: 'An IRK is 32 hex digits (16 octets)' };
  if (/^0+$/.test(digits)) return { ok: false, message: 'An all-zero IRK means "no key"' };
  const irk = wiresharkOrder ? (digits.match(/../g) ?? []).reverse().join('') : digits;
  return { ok: true, irk };
}

/** Masks a key for places that only need to tell keys apart: the first and last two octets. */
export function maskIrk(irk: string): string {
  return `${irk.slice(0, 4)}…${irk.slice(-4)}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The identity keys of an import report (any JSON), keeping only well-formed entries. */
export function identityKeysOfReport(report: unknown): IdentityKey[] {
  if (!isRecord(report) || !Array.isArray(report.identity_keys)) return [];
  return report.identity_keys.filter(
    (key): key is IdentityKey =>
      isRecord(key) && typeof key.irk === 'string' && IRK_PATTERN.test(key.irk) && typeof key.frame_number === 'number' && typeof key.source === 'string' && key.source in SOURCE_NAMES,
  );
}

/** Keyring entries for the keys a capture's import report lists. */
export function entriesFromReport(captureId: string, report: unknown, addedAt: string): KeyringEntry[] {
  return identityKeysOfReport(report).map((key) => ({
    id: `capture:${captureId}:${key.frame_number}:${key.source}`,
    label: `${captureId} frame ${key.frame_number} (${sourceName(key.source)}${key.identity_address ? `, ${key.identity_address}` : ''})`,
    irk: key.irk,
    origin: 'capture' as const,
    captureId,
    frameNumber: key.frame_number,
    source: key.source,
    ...(key.identity_address ? { identityAddress: key.identity_address } : {}),
    addedAt,
  }));
}

/** An entry for a key the analyst typed. */
export function manualEntry(label: string, irk: string, addedAt: string): KeyringEntry {
  return { id: `manual:${irk}`, label: label.trim(), irk, origin: 'manual', addedAt };
}

/** `entries` plus `added`; an added entry replaces one with the same id (the same key found again, or relabelled). */
export function mergeEntries(entries: ReadonlyArray<KeyringEntry>, added: ReadonlyArray<KeyringEntry>): KeyringEntry[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  for (const entry of added) byId.set(entry.id, entry);
  return [...byId.values()];
}

/** Reads a stored keyring value (any JSON), keeping only well-formed entries. */
export function parseKeyring(value: unknown): KeyringEntry[] {
  if (!isRecord(value) || !Array.isArray(value.keys)) return [];
  return value.keys.filter(
    (entry): entry is KeyringEntry =>
      isRecord(entry) &&
      typeof entry.id === 'string' &&
      typeof entry.label === 'string' &&
      entry.label !== '' &&
      typeof entry.irk === 'string' &&
      IRK_PATTERN.test(entry.irk) &&
      (entry.origin === 'capture' || entry.origin === 'manual') &&
      typeof entry.addedAt === 'string',
  );
}

/** The stored form of a keyring. */
export function keyringValue(entries: ReadonlyArray<KeyringEntry>): JsonObject {
  // Safe: every field of a KeyringEntry is a string or a number.
  return { version: 1, keys: entries.map((entry) => ({ ...entry }) as unknown as JsonObject) };
}

/** What the analyzer's `irks` argument holds. */
export interface IrkArgument {
  label: string;
  irk: string;
}

/**
 * `irks` with the chosen entries added (one click in the analyzer form). A key already there
 * is not added twice; labels stay unique (a repeated label gets ` (2)`, ` (3)`…).
 */
export function addToIrks(irks: ReadonlyArray<IrkArgument>, chosen: ReadonlyArray<KeyringEntry>): IrkArgument[] {
  const next = [...irks];
  const keys = new Set(irks.map((entry) => entry.irk.toLowerCase()));
  const labels = new Set(irks.map((entry) => entry.label));
  for (const entry of chosen) {
    if (keys.has(entry.irk)) continue;
    let label = entry.label;
    for (let n = 2; labels.has(label); n++) label = `${entry.label} (${n})`;
    next.push({ label, irk: entry.irk });
    keys.add(entry.irk);
    labels.add(label);
  }
  return next;
}

/** The `irks` of an invocation's arguments, when it has a readable list. */
export function irksOf(args: JsonObject): IrkArgument[] {
  const value = args.irks;
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => (isRecord(entry) && typeof entry.label === 'string' && typeof entry.irk === 'string' ? [{ label: entry.label, irk: entry.irk }] : []));
}

/** What a key is replaced with in an export made without keys. */
export const REDACTED_IRK = '(not exported)';

/** An invocation or plan (any JSON) with every `arguments.irks[i].irk` replaced by {@link REDACTED_IRK}. */
export function redactInvocationKeys(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(redactInvocationKeys);
  if (!isRecord(input) || !isRecord(input.arguments) || !Array.isArray(input.arguments.irks)) return input;
  const irks = input.arguments.irks.map((entry: unknown) => (isRecord(entry) && 'irk' in entry ? { ...entry, irk: REDACTED_IRK } : entry));
  return { ...input, arguments: { ...input.arguments, irks } };
}

/** An import report (any JSON) whose `identity_keys` keep where keys were found but not the keys. */
export function redactReportKeys(report: unknown): unknown {
  if (!isRecord(report) || !Array.isArray(report.identity_keys)) return report;
  return { ...report, identity_keys: report.identity_keys.map((key: unknown) => (isRecord(key) ? Object.fromEntries(Object.entries(key).filter(([name]) => name !== 'irk')) : key)) };
}

/** The parts of a workspace export that can hold keys. */
export interface ExportParts<Capture extends { report: unknown }, Run extends { input: unknown }, Setting extends { key: string }> {
  captures: Capture[];
  runs: Run[];
  settings: Setting[];
}

/**
 * A workspace export's parts without identity keys: the keyring setting left out, import
 * reports' `identity_keys` without `irk`, and runs' `arguments.irks[i].irk` replaced. Capture
 * bytes need nothing: the importer never writes keys into the table.
 */
export function withoutIdentityKeys<Capture extends { report: unknown }, Run extends { input: unknown }, Setting extends { key: string }>(
  parts: ExportParts<Capture, Run, Setting>,
): ExportParts<Capture, Run, Setting> {
  return {
    captures: parts.captures.map((capture) => ({ ...capture, report: redactReportKeys(capture.report) })),
    runs: parts.runs.map((run) => ({ ...run, input: redactInvocationKeys(run.input) })),
    settings: parts.settings.filter((setting) => setting.key !== KEYRING_SETTING),
  };
}
