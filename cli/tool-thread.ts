// A Node worker thread that runs tools: a thin adapter from messages to the core's ToolHost.
import { parentPort } from 'node:worker_threads';
import { ToolHost } from '../src/core/index.ts';
import type { FromThread, ToThread, WindowCapturesRequest } from './tool-thread-protocol.ts';

const port = parentPort;
if (!port) throw new Error('tool-thread must run as a worker thread');
let host: ToolHost | null = null;
/** The captures of the dataset window read last, dropped when the next one is read. */
let windowCaptureIds: string[] = [];
const send = (message: FromThread) => port.postMessage(message);

/**
 * A dataset window's rows are read here, in the thread that analyses them: windows are decoded
 * in parallel, and nothing is encoded again to be copied between threads. One thread reads the
 * windows of a run in turn, so its compiled code serves them all.
 */
async function readWindow(running: ToolHost, request: WindowCapturesRequest): Promise<void> {
  try {
    for (const id of windowCaptureIds) running.removeCapture(id);
    windowCaptureIds = [];
    const { windowCaptures } = await import('./dataset/window-captures.ts');
    const read = await windowCaptures(request.dataset, request.window, request.captureIds, undefined, request.bounds);
    const captures = read.map(({ capture }) => running.addCapture(capture));
    windowCaptureIds = captures.map((info) => info.id);
    send({ type: 'window-read', captures });
  } catch (error) {
    send({ type: 'window-failed', message: error instanceof Error ? error.message : String(error) });
  }
}

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
  if (message.type === 'window') {
    void readWindow(running, message.window);
    return;
  }
  void running.run(message.request, (fraction) => send({ type: 'progress', fraction })).then((outcome) => send({ type: 'outcome', outcome }));
});
