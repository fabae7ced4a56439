// A Node worker thread that runs tools: a thin adapter from messages to the core's ToolHost.
import { parentPort } from 'node:worker_threads';
import { ToolHost, type CaptureInfo } from '../src/core/index.ts';
import type { FromThread, ToThread } from './tool-thread-protocol.ts';

const port = parentPort;
if (!port) throw new Error('tool-thread must run as a worker thread');
let host: ToolHost | null = null;
const send = (message: FromThread) => port.postMessage(message);

async function init(message: Extract<ToThread, { type: 'init' }>): Promise<void> {
  try {
    const starting = new ToolHost({ testTools: message.testTools });
    const captures: CaptureInfo[] = message.captures.map((bytes) => starting.loadCapture(bytes));
    if (message.window) {
      // A dataset window's rows are read here, in the thread that analyses them: windows are
      // decoded in parallel, and nothing is encoded again to be copied between threads.
      const { windowCaptures } = await import('./dataset/window-captures.ts');
      const { dataset, window, captureIds, bounds } = message.window;
      for (const { capture } of await windowCaptures(dataset, window, captureIds, undefined, bounds)) captures.push(starting.addCapture(capture));
    }
    host = starting;
    send({ type: 'ready', captures });
  } catch (error) {
    send({ type: 'init-failed', message: error instanceof Error ? error.message : String(error) });
  }
}

port.on('message', (message: ToThread) => {
  if (message.type === 'init') {
    void init(message);
    return;
  }
  const running = host;
  if (!running) return;
  void running.run(message.request, (fraction) => send({ type: 'progress', fraction })).then((outcome) => send({ type: 'outcome', outcome }));
});
