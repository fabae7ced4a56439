// A Node worker thread that runs tools: a thin adapter from messages to the core's ToolHost.
import { parentPort } from 'node:worker_threads';
import { ToolHost } from '../src/core/index.ts';
import type { FromThread, ToThread } from './tool-thread-protocol.ts';

const port = parentPort;
if (!port) throw new Error('tool-thread must run as a worker thread');
let host: ToolHost | null = null;
const send = (message: FromThread) => port.postMessage(message);

port.on('message', (message: ToThread) => {
  if (message.type === 'init') {
    try {
      host = new ToolHost({ testTools: message.testTools });
      for (const bytes of message.captures) host.loadCapture(bytes);
      send({ type: 'ready' });
    } catch (error) {
      send({ type: 'init-failed', message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  const running = host;
  if (!running) return;
  void running.run(message.request, (fraction) => send({ type: 'progress', fraction })).then((outcome) => send({ type: 'outcome', outcome }));
});
