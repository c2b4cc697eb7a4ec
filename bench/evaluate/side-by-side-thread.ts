/** The side-by-side thread as a Node worker thread, for the bench (the page runs it as a Web Worker). */
import { parentPort } from 'node:worker_threads';
import { serveSideBySide, type ToSideBySideThread } from '../../src/core/evaluation/side-by-side-thread';

const port = parentPort!;
serveSideBySide({
  post: (message, transfer) => port.postMessage(message, transfer ?? []),
  listen: (handler) => port.on('message', (message: ToSideBySideThread) => handler(message)),
});
