/** Worker factories. Vite bundles each `new Worker(new URL(...))` it sees as a separate module worker. */
import { workerNameWithScope } from '../storage/storage-scope';

/** Starts a session worker (it starts its own policy worker); it stores in the page's exercise. */
export function createSessionWorker(): Worker {
  return new Worker(new URL('../../workers/session.worker.ts', import.meta.url), {
    type: 'module',
    name: workerNameWithScope('session'),
  });
}

/** Starts an evaluation worker (one policy, many seeds). */
export function createEvaluationWorker(): Worker {
  return new Worker(new URL('../../workers/evaluation.worker.ts', import.meta.url), {
    type: 'module',
    name: 'evaluation',
  });
}

/** Starts a side-by-side worker (reads and lines up two transcripts of one seed). */
export function createSideBySideWorker(): Worker {
  return new Worker(new URL('../../workers/side-by-side.worker.ts', import.meta.url), {
    type: 'module',
    name: 'side-by-side',
  });
}
