/**
 * Evaluation threads on Node: a worker thread per policy with a memory cap (V8's heap limits through
 * `resourceLimits`), or, for trusted code and for measuring what isolation costs, the same server run
 * in this thread.
 */
import { Worker } from 'node:worker_threads';
import type { EvaluationThread } from '../../src/core/evaluation/evaluation';
import type { FromEvaluationThread, ToEvaluationThread } from '../../src/core/evaluation/messages';
import { serveEvaluation } from '../../src/core/evaluation/thread-body';

const THREAD_ENTRY = new URL('./evaluation-thread-entry.js', import.meta.url);

/**
 * A worker thread whose heap may not grow past `memoryMb`. `entry` is the thread's entry module: this
 * folder's, unless a caller (the tests) starts the compiled command line's namesake instead.
 */
export function spawnEvaluationThread(memoryMb: number, entry: URL = THREAD_ENTRY): EvaluationThread {
  const worker = new Worker(entry, {
    resourceLimits: {
      maxOldGenerationSizeMb: memoryMb,
      maxYoungGenerationSizeMb: Math.min(64, memoryMb / 4),
    },
  });
  let terminated = false;
  let failure: string | undefined;
  return {
    post: (message: ToEvaluationThread) => worker.postMessage(message),
    listen(handlers) {
      worker.on('message', (message: FromEvaluationThread) => handlers.message(message));
      worker.on('error', (error: Error & { code?: string }) => {
        failure ??=
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `ran out of memory (the cap is ${memoryMb} MB); the thread was stopped`
            : `the thread failed: ${error.message}`;
      });
      worker.on('exit', (code) => {
        if (!terminated) handlers.exit(failure ?? `the thread exited with code ${code}`);
      });
    },
    terminate() {
      terminated = true;
      void worker.terminate();
    },
  };
}

/**
 * The evaluation server in this thread: no isolation, no memory cap, and a call that loops cannot be
 * stopped. For trusted policies and for measuring what a thread costs.
 */
export function inProcessThread(): EvaluationThread {
  let toThread: ((message: ToEvaluationThread) => void) | undefined;
  let toOwner: ((message: FromEvaluationThread) => void) | undefined;
  let stopped = false;
  serveEvaluation({
    post: (message) => {
      if (!stopped) toOwner?.(message);
    },
    listen: (handler) => {
      toThread = handler;
    },
  });
  return {
    post: (message) => {
      if (!stopped) toThread?.(message);
    },
    listen(handlers) {
      toOwner = handlers.message;
    },
    terminate() {
      stopped = true;
    },
  };
}
