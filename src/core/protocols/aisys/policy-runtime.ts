/**
 * An aisys policy in its runtime (a worker, a worker thread, or in-process): the user's module loaded by
 * the ordinary policy runtime (compilation, console capture, located errors), answering a whole decision
 * batch in one call. It keeps each run's memory beside the module, so `run.memory` is the same object for
 * every action of a run, and drops it when the run is no longer active. Same shape as `PolicyRuntime`.
 */
import { PolicyRuntime } from '../../policy/runtime';
import type { CallOutcome, LoadOutcome, PolicyLogLine, PolicySource } from '../../policy/types';
import {
  AISYS_DECIDE,
  AISYS_ENTRY_SIGNATURE,
  AISYS_WIRE_SIGNATURE,
  type AisysDecisionBatch,
  type AisysRunInfo,
} from './policy-api';
import type { JsonValue } from './messages';

/** The policy runtime of aisys policies. */
export class AisysPolicyRuntime {
  readonly #runtime = new PolicyRuntime();
  /** Each active run's memory, and the number of its last action. */
  readonly #runs = new Map<string, { memory: Record<string, unknown>; actNo: number }>();

  /** Loads a policy, forgetting every run's memory. */
  load(source: PolicySource): LoadOutcome {
    this.#runs.clear();
    const entrySignature = source.level === 'policy' ? AISYS_ENTRY_SIGNATURE : AISYS_WIRE_SIGNATURE;
    return this.#runtime.load({ ...source, entrySignature });
  }

  /** Answers a decision batch (`AISYS_DECIDE`); any other hook goes to the policy as it is. */
  call(hook: string, args: readonly unknown[], context: Record<string, unknown>): Promise<CallOutcome> {
    if (hook === AISYS_DECIDE) return this.#decide(args[0] as AisysDecisionBatch, context);
    return this.#runtime.call(hook, args, context);
  }

  async #decide(batch: AisysDecisionBatch, context: Record<string, unknown>): Promise<CallOutcome> {
    const started = performance.now();
    const logs: PolicyLogLine[] = [];
    const elapsed = () => performance.now() - started;
    for (const { run, outcome, url } of batch.finished) {
      const info = this.#run(run, (this.#runs.get(run)?.actNo ?? -1) + 1, url);
      const outcomeCall = await this.#runtime.call('onRunEnd', [outcome, info], context);
      logs.push(...outcomeCall.logs);
      if (!outcomeCall.ok) return { ...outcomeCall, logs, ms: elapsed() };
      this.#runs.delete(run);
    }
    const actions: JsonValue[] = [];
    for (const request of batch.requests) {
      const info = this.#run(request.run, request.actNo, request.url);
      const outcome = await this.#runtime.call('act', [request.percept, info], context);
      logs.push(...outcome.logs);
      if (!outcome.ok) return { ...outcome, logs, ms: elapsed() };
      // Undefined stays undefined: the client refuses it (JSON has none) rather than send null for it.
      actions.push(outcome.value as JsonValue);
    }
    const active = new Set(batch.active);
    for (const run of this.#runs.keys()) if (!active.has(run)) this.#runs.delete(run);
    return { ok: true, value: actions, logs, ms: elapsed() };
  }

  /** The run as `act` sees it, with its memory (made at its first action). */
  #run(id: string, actNo: number, url: string): AisysRunInfo {
    let run = this.#runs.get(id);
    if (!run) this.#runs.set(id, (run = { memory: {}, actNo }));
    run.actNo = actNo;
    return { id, actNo, url, memory: run.memory };
  }
}
