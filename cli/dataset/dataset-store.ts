/**
 * A dataset directory on disk: its manifest, the lock that serializes commits, the commit that
 * makes a staged import part of the dataset, and the checks a reader runs before trusting it.
 *
 * Crash safety comes from the order of a commit: the parts are staged under `.staging/`, moved
 * into `parts/` by rename, and only then does a new manifest replace the old one (written to a
 * temporary file and renamed, which is atomic). Until that rename the dataset is what it was:
 * readers open only the parts the manifest lists, and the next commit removes unlisted ones.
 */
import { open, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DATASET_FORMAT, MANIFEST_FILE, PARTS_DIR, emptyManifest, manifestParts, parseManifest, err, ok, type DatasetManifest, type DatasetPart, type DatasetProblem, type DatasetSource, type Result } from '../../src/core/index.ts';

/** Where imports stage their parts before a commit, under the dataset root. */
export const STAGING_DIR = '.staging';
const LOCK_FILE = '.lock';

/** The manifest of the dataset at `root`; DATASET_NOT_FOUND when there is none yet. */
export async function readManifest(root: string): Promise<Result<DatasetManifest, DatasetProblem>> {
  let text: string;
  try {
    text = await readFile(join(root, MANIFEST_FILE), 'utf8');
  } catch (error) {
    if (isErrorCode(error, 'ENOENT')) return err({ code: 'DATASET_NOT_FOUND', message: `${root} has no ${MANIFEST_FILE}: not a Sextant dataset (create one with sextant import FILE --dataset ${root})` });
    throw error;
  }
  return parseManifest(text);
}

/**
 * Checks that every part the manifest lists is there, whole: its size is the size recorded at
 * import and it ends with Parquet's `PAR1` magic. A reader refuses a dataset that fails this
 * rather than silently reading less.
 */
export async function checkParts(root: string, manifest: DatasetManifest): Promise<Result<DatasetPart[], DatasetProblem>> {
  const parts = manifestParts(manifest);
  if (parts.length === 0) return err({ code: 'DATASET_EMPTY', message: `${root} holds no rows yet` });
  for (const part of parts) {
    const path = join(root, part.path);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      return err({ code: 'DATASET_PART_MISSING', message: `${path} is listed in the manifest but missing`, path: part.path });
    }
    if (size !== part.bytes || !(await endsWithParquetMagic(path, size))) {
      return err({ code: 'DATASET_PART_TRUNCATED', message: `${path} is ${size} bytes, not the ${part.bytes} bytes of a whole Parquet part written at import: the file is damaged`, path: part.path });
    }
  }
  return ok(parts);
}

async function endsWithParquetMagic(path: string, size: number): Promise<boolean> {
  if (size < 12) return false;
  const handle = await open(path, 'r');
  try {
    const tail = Buffer.alloc(4);
    await handle.read(tail, 0, 4, size - 4);
    return tail.toString('latin1') === 'PAR1';
  } finally {
    await handle.close();
  }
}

/** A source imported into a staging directory, ready to commit. */
export interface StagedSource {
  source: Omit<DatasetSource, 'imported_at'>;
  /** The staging directory; each part's staged file is `stagingDir/<part.path>`. */
  stagingDir: string;
}

export type CommitProblem = { code: 'DUPLICATE_SOURCE' | 'CAPTURE_ID_IN_DATASET'; message: string } | DatasetProblem;

/**
 * Makes a staged import part of the dataset (creating the dataset on first use). Refuses a file
 * whose SHA-256 is already in it and a capture id already taken. The staging directory is
 * removed whatever happens.
 */
export async function commitSource(root: string, staged: StagedSource, now: () => Date = () => new Date()): Promise<Result<DatasetSource, CommitProblem>> {
  try {
    return await withDatasetLock(root, async () => {
      const current = await readManifest(root);
      if (!current.ok && current.error.code !== 'DATASET_NOT_FOUND') return current;
      const manifest = current.ok ? current.value : emptyManifest();
      const { source } = staged;
      const same = manifest.sources.find((existing) => existing.sha256 === source.sha256);
      if (same) return err({ code: 'DUPLICATE_SOURCE', message: `${source.file} is already in the dataset (same SHA-256 as ${same.file}, capture ${same.capture_id})` });
      if (manifest.sources.some((existing) => existing.capture_id === source.capture_id)) {
        return err({ code: 'CAPTURE_ID_IN_DATASET', message: `capture id ${source.capture_id} is already in the dataset; give this file another with --id` });
      }
      const committed: DatasetSource = { ...source, imported_at: now().toISOString() };
      const sources = [...manifest.sources, committed];
      const moved: string[] = [];
      try {
        for (const part of source.parts) {
          const target = join(root, part.path);
          await mkdir(dirname(target), { recursive: true });
          await rename(join(staged.stagingDir, part.path), target);
          moved.push(target);
        }
        await writeManifest(root, { ...manifest, format: DATASET_FORMAT, sources });
      } catch (error) {
        // The manifest was not replaced: the moved parts are unlisted; take them back out.
        await Promise.all(moved.map((path) => rm(path, { force: true })));
        throw error;
      }
      // Committed: tidying up after earlier crashes may fail without undoing this commit.
      await removeUnlisted(root, sources).catch(() => undefined);
      return ok(committed);
    });
  } finally {
    await rm(staged.stagingDir, { recursive: true, force: true });
  }
}

async function writeManifest(root: string, manifest: DatasetManifest): Promise<void> {
  const temporary = join(root, `${MANIFEST_FILE}.${process.pid}.tmp`);
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(manifest, null, 1)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, join(root, MANIFEST_FILE));
}

/** Removes parts the manifest does not list (left by a crash) and staging directories of dead imports. */
async function removeUnlisted(root: string, sources: DatasetSource[]): Promise<void> {
  const listed = new Set(sources.flatMap((source) => source.parts.map((part) => part.path)));
  for (const path of await listFiles(join(root, PARTS_DIR), PARTS_DIR)) {
    if (path.endsWith('.parquet') && !listed.has(path)) await rm(join(root, path), { force: true });
  }
  let staging: string[];
  try {
    staging = await readdir(join(root, STAGING_DIR));
  } catch {
    return;
  }
  for (const name of staging) {
    const pid = Number(name.split('-')[0]);
    if (!processIsAlive(pid)) await rm(join(root, STAGING_DIR, name), { recursive: true, force: true });
  }
}

async function listFiles(directory: string, relative: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = `${relative}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await listFiles(join(directory, entry.name), path)));
    else files.push(path);
  }
  return files;
}

const LOCK_WAIT_MS = 60_000;
const LOCK_POLL_MS = 50;

/**
 * Runs `work` holding the dataset's lock file (created exclusively, holding the owner's pid), so
 * that commits from several processes never interleave. A lock whose owner has died is taken
 * over; a live one is waited for, up to a minute.
 */
async function withDatasetLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  await mkdir(root, { recursive: true });
  const path = join(root, LOCK_FILE);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (!isErrorCode(error, 'EEXIST')) throw error;
      const owner = Number(await readFile(path, 'utf8').catch(() => ''));
      if (owner > 0 && !processIsAlive(owner)) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`the dataset ${root} stayed locked by process ${owner} for ${LOCK_WAIT_MS / 1000} s`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
  try {
    return await work();
  } finally {
    await rm(path, { force: true });
  }
}

function processIsAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrorCode(error, 'EPERM');
  }
}

export function isErrorCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
