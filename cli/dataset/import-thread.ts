// One file streamed into a dataset's staging area, in its own thread (see import-files.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { streamIntoStaging, type StreamImportRequest } from './stream-import.ts';
import type { FromImportThread } from './import-files.ts';

const post = (message: FromImportThread): void => parentPort!.postMessage(message);
const result = await streamIntoStaging(workerData as StreamImportRequest, {
  onProgress: ({ bytesRead, rows }) => post({ kind: 'progress', bytesRead, rows }),
});
post({ kind: 'done', result });
