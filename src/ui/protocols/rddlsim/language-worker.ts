/** Starts the RDDL language worker (Vite bundles `new Worker(new URL(...))` as a separate module worker). */
export function createRddlLanguageWorker(): Worker {
  return new Worker(new URL('../../../../workers/rddl-language.worker.ts', import.meta.url), {
    type: 'module',
    name: 'rddl-language',
  });
}
