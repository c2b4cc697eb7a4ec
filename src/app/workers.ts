/** Worker factories. Vite bundles each `new Worker(new URL(...))` it sees as a separate module worker. */

/** Starts a session worker (it starts its own policy worker). */
export function createSessionWorker(): Worker {
  return new Worker(new URL('../../workers/session.worker.ts', import.meta.url), {
    type: 'module',
    name: 'session',
  });
}
