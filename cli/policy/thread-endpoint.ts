/**
 * A policy running in a Node worker thread, seen as a `PolicyEndpoint`: the same contract as the browser's
 * policy worker. The thread can be terminated in the middle of a call, which is how the supervisor stops a
 * policy stuck in `while (true)`. A thread that fails to start or dies rejects the calls waiting on it, so
 * the supervisor learns of the crash at once instead of waiting out the budget.
 */
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { PolicyRuntime } from '../../src/core/policy/runtime';
import type { PolicyEndpoint } from '../../src/core/policy/supervisor';
import type { CallOutcome, LoadOutcome } from '../../src/core/policy/types';

/**
 * A thread's script, named relative to this module. The compiled command line puts every module and thread
 * script in one folder (scripts/build-package.ts), so each thread's file name is unique across cli/.
 */
const THREAD_ENTRY = new URL('./policy-thread-entry.js', import.meta.url);

/**
 * Starts a policy thread. `entry` is the thread's script: by default the plain policy runtime; a protocol
 * whose policies are called differently (a whole team per step) gives its own, with the same contract.
 */
export function spawnPolicyThread(entry: URL = THREAD_ENTRY): PolicyEndpoint {
  const worker = new Worker(entry);
  const runtime = Comlink.wrap<PolicyRuntime>(nodeEndpoint(worker));
  let failure: Error | undefined;
  let terminated = false;
  // The calls waiting, to reject when the thread fails. (Racing each call against one long-lived promise
  // would keep every call's result reachable from it for the thread's life: memory growing with every call.)
  const waiting = new Set<(error: Error) => void>();
  const fail = (error: Error) => {
    failure ??= error;
    for (const reject of waiting) reject(failure);
    waiting.clear();
  };
  worker.on('error', (error) => fail(error instanceof Error ? error : new Error(String(error))));
  worker.on('exit', (code) => {
    if (!terminated) fail(new Error(`the policy thread exited with code ${code}`));
  });
  const guarded = <T>(call: () => Promise<T>): Promise<T> => {
    if (failure) return Promise.reject(failure);
    return new Promise<T>((resolve, reject) => {
      waiting.add(reject);
      call().then(
        (value) => {
          waiting.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          waiting.delete(reject);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  };
  return {
    load: (source) => guarded<LoadOutcome>(() => runtime.load(source)),
    call: (hook, args, context) => guarded<CallOutcome>(() => runtime.call(hook, [...args], context)),
    terminate: () => {
      terminated = true;
      void worker.terminate();
    },
  };
}
