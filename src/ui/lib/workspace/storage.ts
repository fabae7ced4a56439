import type { PersistenceResult, StorageManagerLike, StorageUsage } from './workspace-types.ts';

/** `navigator.storage` when this browser has it (secure contexts, workers included), else null. */
export function defaultStorageManager(): StorageManagerLike | null {
  if (typeof navigator === 'undefined') return null;
  const storage = (navigator as Navigator & { storage?: StorageManager }).storage;
  return storage && typeof storage.estimate === 'function' ? storage : null;
}

/**
 * This origin's storage use and quota; null when the browser does not say (no
 * `navigator.storage`, insecure context, or the call fails). Never throws.
 */
export async function storageEstimate(storage: StorageManagerLike | null = defaultStorageManager()): Promise<StorageUsage | null> {
  if (storage === null) return null;
  try {
    const estimate = await storage.estimate();
    if (typeof estimate.usage !== 'number' || typeof estimate.quota !== 'number') return null;
    let persisted: boolean | null = null;
    if (typeof storage.persisted === 'function') {
      try {
        persisted = await storage.persisted();
      } catch {
        persisted = null;
      }
    }
    return { usageBytes: estimate.usage, quotaBytes: estimate.quota, persisted };
  } catch {
    return null;
  }
}

/**
 * Asks the browser not to evict this origin's storage under pressure (`navigator.storage.persist()`).
 * Browsers may decide without a prompt (Chrome grants it to installed or much-used sites; Firefox
 * asks the user). Resolves `granted` at once when storage is already persistent. Never throws.
 */
export async function requestPersistentStorage(storage: StorageManagerLike | null = defaultStorageManager()): Promise<PersistenceResult> {
  if (storage === null || typeof storage.persist !== 'function') return 'unsupported';
  try {
    if (typeof storage.persisted === 'function' && (await storage.persisted())) return 'granted';
    return (await storage.persist()) ? 'granted' : 'denied';
  } catch {
    return 'unsupported';
  }
}

/** Bytes as a short human string: `512 B`, `12.3 MB`, `1.20 GB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${units[unit]}`;
}
