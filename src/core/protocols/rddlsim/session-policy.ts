/**
 * How an emulated session asks a policy for decisions. The session only awaits a result: whoever runs the
 * user's code (a killable worker with a time budget in the browser, a worker thread or in-process runtime in
 * Node) turns a timeout, a throw or a bad return value into a fault. `createLocalPolicy` runs a plain
 * function in-process with the full policy context, for tests, benchmarks and built-in policies.
 */
import type { InstanceInfo } from '../../envs/rddl/api';
import type { CallOutcome, CallSite, PolicyLogLine } from '../../policy/types';
import { Rng } from '../../random';
import { instanceSummary } from './action-encoding';
import type { ActFunction, Observation, PolicyContext } from './policy-api';

/** Optional calls at round and session boundaries (the hooks a policy module may export). */
export type PolicyHook = 'onRoundStart' | 'onRoundEnd' | 'onSessionEnd';

/** A policy as the session sees it. */
export interface SessionPolicy {
  /** Decides the actions for a turn. */
  act(observation: Observation, site: CallSite): Promise<CallOutcome>;
  /** Calls a hook if the policy has it (`onRoundEnd(summary)`...); absent when the policy has none. */
  hook?(name: PolicyHook, args: readonly unknown[], site: CallSite): Promise<CallOutcome>;
  /**
   * True when the policy runs in this thread and reads each observation where it is, so a session may
   * hand it observations whose fluents are worked out only when read. A policy in a worker gets a copy
   * (a structured clone), which needs every value in place.
   */
  readonly inProcess?: boolean;
}

/** What a round or session hook receives. */
export interface RoundSummary {
  round: number;
  /** Discounted sum of the round's rewards (round-end's round-reward). */
  reward: number;
  turns: number;
  /** False for monitor-mode practice rounds. */
  counted: boolean;
}

/**
 * A policy function run in-process, with the context a policy expects: memory kept for the session, a
 * `random()` seeded with `seed`, `log` collected into the call's logs, and the instance summary.
 */
export function createLocalPolicy(
  act: ActFunction,
  { info, seed = 0 }: { info: InstanceInfo; seed?: number },
): SessionPolicy {
  const rng = new Rng(seed);
  let logs: PolicyLogLine[] = [];
  const context: PolicyContext = {
    memory: {},
    random: () => rng.nextFloat(),
    log: (...values: unknown[]) => void logs.push({ level: 'log', text: values.map(String).join(' ') }),
    instance: instanceSummary(info),
  };
  return {
    inProcess: true,
    async act(observation) {
      logs = [];
      const started = performance.now();
      try {
        const value = await act(observation, context);
        return { ok: true, value, logs, ms: performance.now() - started };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          fault: { kind: 'call', message, hook: 'act' },
          logs,
          ms: performance.now() - started,
        };
      }
    },
  };
}
