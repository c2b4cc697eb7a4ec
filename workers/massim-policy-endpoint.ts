/**
 * A MASSim team's policy worker seen as a `PolicyEndpoint`, for the policy supervisor: Comlink calls to its
 * team runtime, and terminate. A step's batch hands its phrase numbers over instead of copying them. A
 * worker that fails to start or dies rejects the calls waiting on it, so the supervisor learns of the crash
 * at once instead of waiting out the budget.
 */
import * as Comlink from 'comlink';
import type { MassimTeamBatch } from '../src/core/protocols/massim';
import type { PolicyEndpoint } from '../src/core/policy/supervisor';
import type { CallOutcome, LoadOutcome } from '../src/core/policy/types';
import { MASSIM_TEAM_STEP, type MassimTeamRuntime } from '../src/core/protocols/massim/team-runtime';

let spare: PolicyEndpoint | undefined;

/**
 * A team policy worker, ready or nearly: one is kept started ahead, so neither a run nor the restart after
 * an overrun waits for a worker to boot.
 */
export function spawnMassimPolicyWorker(): PolicyEndpoint {
  const endpoint = spare ?? startWorker();
  spare = startWorker();
  return endpoint;
}

function startWorker(): PolicyEndpoint {
  const worker = new Worker(new URL('./massim-policy.worker.ts', import.meta.url), {
    type: 'module',
    name: 'massim-policy',
  });
  const runtime = Comlink.wrap<MassimTeamRuntime>(worker);
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
    call: (hook, args, context) =>
      guarded<CallOutcome>(() => {
        const batch = hook === MASSIM_TEAM_STEP ? (args[0] as MassimTeamBatch) : undefined;
        const sent = batch ? Comlink.transfer([...args], [batch.phrases.buffer]) : [...args];
        return runtime.call(hook, sent, context);
      }),
    terminate: () => worker.terminate(),
  };
}
