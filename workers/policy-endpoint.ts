/**
 * Policy workers seen as `PolicyEndpoint`s: Comlink calls to the runtime inside, and terminate. A worker
 * that fails to start or dies rejects the calls waiting on it, so the supervisor learns of the crash at
 * once instead of waiting out the budget. One worker is always kept started ahead (its compiler loaded),
 * so neither a run nor the restart after an overrun waits for a worker to boot.
 */
import * as Comlink from 'comlink';
import type { PolicyEndpoint } from '../src/core/policy/supervisor';
import type { CallOutcome, LoadOutcome } from '../src/core/policy/types';
import type { Protocol } from '../src/core/protocols/contract';
import type { PolicyRuntimeApi } from '../src/core/protocols/session-contract';

/** How calls cross into the worker. */
export interface WorkerEndpointOptions {
  /** Buffers a call hands over instead of copying (they are unusable in this thread afterwards). */
  transfer?: (hook: string, args: readonly unknown[]) => Transferable[];
}

/** A `PolicyEndpoint` over a worker exposing a runtime with Comlink. */
export function workerEndpoint(worker: Worker, options: WorkerEndpointOptions = {}): PolicyEndpoint {
  const runtime = Comlink.wrap<PolicyRuntimeApi>(worker);
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
        const transferred = options.transfer?.(hook, args) ?? [];
        const sent = transferred.length ? Comlink.transfer([...args], transferred) : [...args];
        return runtime.call(hook, sent, context);
      }),
    terminate: () => worker.terminate(),
  };
}

/** Endpoints of one kind of worker, one always started ahead of need. */
export function keepOneAhead(start: () => PolicyEndpoint): { spawn(): PolicyEndpoint; prewarm(): void } {
  let spare: PolicyEndpoint | undefined;
  return {
    spawn() {
      const endpoint = spare ?? start();
      spare = start();
      return endpoint;
    },
    prewarm() {
      spare ??= start();
    },
  };
}

/** One spare worker per protocol, started on first need. */
const policyWorkers = new Map<string, ReturnType<typeof keepOneAhead>>();

function workersOf(protocol: Protocol): ReturnType<typeof keepOneAhead> {
  let workers = policyWorkers.get(protocol.id);
  if (!workers) {
    const transfer = protocol.playground?.policyTransfer;
    workers = keepOneAhead(() =>
      workerEndpoint(
        new Worker(new URL('./policy.worker.ts', import.meta.url), {
          type: 'module',
          name: `policy:${protocol.id}`,
        }),
        transfer ? { transfer } : {},
      ),
    );
    policyWorkers.set(protocol.id, workers);
  }
  return workers;
}

/** A policy worker running the protocol's policy runtime, ready or nearly. */
export function spawnPolicyWorker(protocol: Protocol): PolicyEndpoint {
  return workersOf(protocol).spawn();
}

/** Starts the protocol's spare policy worker now, before its first session needs it. */
export function prewarmPolicyWorker(protocol: Protocol): void {
  workersOf(protocol).prewarm();
}
