// A dataset import lane's thread (see import-files.ts): the files it is sent, one after another, each streamed into the dataset's staging area.
import { parentPort } from 'node:worker_threads';
import { streamIntoStaging, type StreamImportRequest } from './stream-import.ts';
import type { FromImportThread } from './import-files.ts';

const post = (message: FromImportThread): void => parentPort!.postMessage(message);
parentPort!.on('message', async (request: StreamImportRequest) => {
  const result = await streamIntoStaging(request, { onProgress: ({ bytesRead, rows }) => post({ kind: 'progress', bytesRead, rows }) });
  post({ kind: 'done', result });
});
