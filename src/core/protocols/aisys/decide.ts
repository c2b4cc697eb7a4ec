/**
 * Where a client's decisions come from: a policy in a supervised runtime (a worker with a time budget,
 * answering a whole batch per call), or a plain function run in-process with the same context and per-run
 * memory (tests, benchmarks, built-in policies).
 */
import type { CallOutcome, CallSite, PolicyLogLine } from '../../policy/types';
import { Rng } from '../../random';
import type { JsonValue } from './messages';
import {
  AISYS_DECIDE,
  type AisysActFunction,
  type AisysDecide,
  type AisysPolicyContext,
  type AisysRunEndFunction,
} from './policy-api';

/** Something that calls policy hooks within a budget (`PolicySupervisor`). */
export interface PolicyCaller {
  call(
    hook: string,
    args: readonly unknown[],
    context: Record<string, unknown>,
    site: CallSite,
  ): Promise<CallOutcome>;
}

/**
 * Decisions from a policy in an `AisysPolicyRuntime` behind a supervisor: one call per batch, with
 * `context` (the environment played) in every call. A budget overrun names the batch as its round (the
 * n-th response answered).
 */
export function supervisedDecide(caller: PolicyCaller, context: { env: string }): AisysDecide {
  let batches = 0;
  return async (batch) => {
    batches++;
    const outcome = await caller.call(AISYS_DECIDE, [batch], context, { round: batches, turn: 1 });
    if (!outcome.ok) return { ok: false, fault: outcome.fault, logs: outcome.logs };
    return { ok: true, actions: outcome.value as JsonValue[], logs: outcome.logs };
  };
}

/** Options of `localDecide`. */
export interface LocalDecideOptions {
  /** Seed of `context.random()` (default 0). */
  seed?: number;
  /** The environment, as `context.env` (default empty). */
  env?: string;
  onRunEnd?: AisysRunEndFunction;
}

/** Decisions from a plain `act` function in this thread, with the context and per-run memory a policy gets. */
export function localDecide(act: AisysActFunction, options: LocalDecideOptions = {}): AisysDecide {
  const rng = new Rng(options.seed ?? 0);
  let logs: PolicyLogLine[] = [];
  const context: AisysPolicyContext = {
    memory: {},
    random: () => rng.nextFloat(),
    log: (...values: unknown[]) => void logs.push({ level: 'log', text: values.map(String).join(' ') }),
    env: options.env ?? '',
  };
  const runs = new Map<string, Record<string, unknown>>();
  const memoryOf = (id: string) => {
    let memory = runs.get(id);
    if (!memory) runs.set(id, (memory = {}));
    return memory;
  };
  return async (batch) => {
    logs = [];
    try {
      for (const { run, outcome, url } of batch.finished) {
        await options.onRunEnd?.(outcome, { id: run, actNo: -1, url, memory: memoryOf(run) }, context);
        runs.delete(run);
      }
      const actions: JsonValue[] = [];
      for (const { run, actNo, percept, url } of batch.requests)
        actions.push(await act(percept, { id: run, actNo, url, memory: memoryOf(run) }, context));
      const active = new Set(batch.active);
      for (const id of runs.keys()) if (!active.has(id)) runs.delete(id);
      return { ok: true, actions, logs };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, fault: { kind: 'call', message, hook: 'act' }, logs };
    }
  };
}
