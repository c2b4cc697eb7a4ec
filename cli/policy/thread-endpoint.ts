/**
 * A policy running in a Node worker thread, seen as a `PolicyEndpoint`: the same contract as the browser's
 * policy worker, and the same runtime, the one the protocol's definition gives (its playground's
 * `loadPolicyRuntime`). One thread entry serves every protocol: it is told the protocol's id and loads that
 * protocol's definition only (`loadBuiltInProtocol`), or the module of an extra protocol. The thread can be terminated in the middle of a call, which is how the
 * supervisor stops a policy stuck in `while (true)`. A thread that fails to start or dies rejects the calls
 * waiting on it, so the supervisor learns of the crash at once instead of waiting out the budget.
 */
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { PolicyEndpoint } from '../../src/core/policy/supervisor';
import type { CallOutcome, LoadOutcome } from '../../src/core/policy/types';
import type { Protocol } from '../../src/core/protocols/contract';
import type { PolicyRuntimeApi } from '../../src/core/protocols/session-contract';
import { extraProtocolModuleOf } from '../extra-protocols';

/**
 * The thread's script, named relative to this module. The compiled command line puts every module and
 * thread script in one folder (scripts/build-package.ts), so each thread's file name is unique across cli/.
 */
const THREAD_ENTRY = new URL('./policy-thread-entry.js', import.meta.url);

/** What a policy thread is started with. */
export interface PolicyThreadData {
  /** The id of the protocol whose policy runtime the thread runs. */
  protocol: string;
  /**
   * The module file (absolute path) of the protocol when it comes from outside `src/` (an extra protocol);
   * absent for a built-in protocol, whose definition the thread loads by its id.
   */
  module?: string;
}

/**
 * Starts a policy thread running the protocol's policy runtime. A call whose buffers the protocol says can
 * be handed over (`policyTransfer`) moves them into the thread instead of copying them, as in the page.
 * `entry` is the thread's script: this folder's, unless a caller (the tests) starts the compiled command
 * line's namesake instead.
 */
export function spawnPolicyThread(protocol: Protocol, entry: URL = THREAD_ENTRY): PolicyEndpoint {
  const module = extraProtocolModuleOf(protocol);
  const workerData: PolicyThreadData = { protocol: protocol.id, ...(module ? { module } : {}) };
  const worker = new Worker(entry, { workerData });
  const runtime = Comlink.wrap<PolicyRuntimeApi>(nodeEndpoint(worker));
  const transfer = protocol.playground?.policyTransfer;
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
    call: (hook, args, context) =>
      guarded<CallOutcome>(() => {
        const moved = transfer?.(hook, args) ?? [];
        const sent = moved.length ? Comlink.transfer([...args], moved) : [...args];
        return runtime.call(hook, sent, context);
      }),
    terminate: () => {
      terminated = true;
      void worker.terminate();
    },
  };
}
