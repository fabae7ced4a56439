import { openWorkspace, type Workspace, type WorkspaceProblem } from '../workspace/index.ts';

let opened: Promise<Workspace | null> | null = null;
let openProblem: WorkspaceProblem | null = null;

/**
 * This browser's workspace, opened once. Null when IndexedDB is unavailable (private modes):
 * the app still works, it just keeps nothing between visits, and says so.
 */
export function getWorkspace(): Promise<Workspace | null> {
  opened ??= openWorkspace().then((result) => {
    if (result.ok) return result.value;
    openProblem = result.error;
    return null;
  });
  return opened;
}

/** Why the workspace could not be opened, if it could not. */
export function workspaceProblem(): WorkspaceProblem | null {
  return openProblem;
}
