/** The body of an evaluation thread: the core's evaluation server on the thread's port. */
import { parentPort } from 'node:worker_threads';
import { serveEvaluation } from '../../src/core/evaluation/thread-body';
import type { ToEvaluationThread } from '../../src/core/evaluation/messages';

const port = parentPort!;
serveEvaluation({
  post: (message) => port.postMessage(message),
  listen: (handler) => port.on('message', (message: ToEvaluationThread) => handler(message)),
});
