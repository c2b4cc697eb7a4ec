/**
 * A policy worker seen as a `PolicyEndpoint`: Comlink calls to its runtime, and terminate. A worker that
 * fails to start or dies rejects the calls waiting on it, so the supervisor learns of the crash at once
 * instead of waiting out the budget.
 */
import * as Comlink from 'comlink';
import type { PolicyRuntime } from '../src/core/policy/runtime';
import type { CallOutcome, LoadOutcome } from '../src/core/policy/types';
import type { PolicyEndpoint } from '../src/core/policy/supervisor';

let spare: PolicyEndpoint | undefined;

/**
 * A policy worker, ready or nearly: one is always kept started ahead (its compiler loaded), so neither
 * a run nor the restart after an overrun waits for a worker to boot.
 */
export function spawnPolicyWorker(): PolicyEndpoint {
  const endpoint = spare ?? startPolicyWorker();
  spare = startPolicyWorker();
  return endpoint;
}

/** Starts the spare policy worker now, before the first session needs it. */
export function prewarmPolicyWorker(): void {
  spare ??= startPolicyWorker();
}

function startPolicyWorker(): PolicyEndpoint {
  const worker = new Worker(new URL('./policy.worker.ts', import.meta.url), {
    type: 'module',
    name: 'policy',
  });
  const runtime = Comlink.wrap<PolicyRuntime>(worker);
  let failure: Error | undefined;
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      failure = new Error(event.message || 'the policy worker failed to start');
      reject(failure);
    });
  });
  failed.catch(() => undefined);
  const guarded = <T>(call: () => Promise<T>): Promise<T> =>
    failure ? Promise.reject(failure) : Promise.race([call(), failed]);
  return {
    load: (source) => guarded<LoadOutcome>(() => runtime.load(source)),
    call: (hook, args, context) => guarded<CallOutcome>(() => runtime.call(hook, [...args], context)),
    terminate: () => worker.terminate(),
  };
}
