/**
 * A team policy file at work in its thread: the playground's policy runtime (compiling, console capture,
 * located errors) loads the user's module, and every step of the team arrives as one batch of
 * request-actions (`MassimTeamBatch`), answered with `act(percept, agent, team)` per agent while the
 * agents' and the team's memory stay in this thread between steps. It has the shape of a policy endpoint
 * (`load`, `call`), so the policy supervisor enforces the time budget on each batch and restarts the thread
 * after an overrun, exactly as for single-agent policies.
 */
import { POLICY_LEVELS } from '../../../src/core/policy/levels';
import { PolicyRuntime } from '../../../src/core/policy/runtime';
import type {
  CallOutcome,
  LoadOutcome,
  PolicyFault,
  PolicyLogLine,
  PolicySource,
} from '../../../src/core/policy/types';
import {
  createTeamBatchAnswerer,
  type MassimTeamBatch,
  type MassimTeamBatchReply,
} from '../../../src/core/protocols/massim/team-batch';
import type { MassimAct, MassimPolicyAction } from '../../../src/core/protocols/massim/policy-api';

/**
 * What a failed `act` answers: nothing, so the agent sends no action and does `no_action` this step, as it
 * would on a real server. (A team policy's type has no room for "nothing"; the batch reply has.)
 */
const NO_ACTION = undefined as unknown as MassimPolicyAction;

const MISSING_ACT = `the policy must export a function ${POLICY_LEVELS.policy.signature}`;
const TEAM_SIGNATURE = 'act(percept, agent, team)';

/** The hook name under which a batch is answered. */
export const TEAM_BATCH_HOOK = 'act-team-batch';

/** What a batch brings back: the actions (null where an agent's `act` failed), its faults and its logs. */
export interface TeamBatchAnswer extends MassimTeamBatchReply {
  faults: { agent: string; fault: PolicyFault }[];
  logs: { agent: string; line: PolicyLogLine }[];
}

/** The runtime behind a team policy thread. */
export class TeamPolicyRuntime {
  readonly #runtime = new PolicyRuntime();
  #answer: ((batch: MassimTeamBatch) => Promise<MassimTeamBatchReply>) | undefined;
  #faults: TeamBatchAnswer['faults'] = [];
  #logs: TeamBatchAnswer['logs'] = [];
  /** `act` calls run one after another, so each call's console output is told apart. */
  #queue: Promise<unknown> = Promise.resolve();

  /** Loads the module (it must export `act`); a new load starts with empty memories. */
  load(source: PolicySource): LoadOutcome {
    const outcome = this.#runtime.load(source);
    this.#answer = outcome.ok ? createTeamBatchAnswerer(this.#act) : undefined;
    if (!outcome.ok && outcome.fault.message === MISSING_ACT) {
      // The runtime names the single-agent signature; a team policy's has three arguments.
      return {
        ...outcome,
        fault: { ...outcome.fault, message: `the team policy must export a function ${TEAM_SIGNATURE}` },
      };
    }
    return outcome;
  }

  /** Answers one batch (`TEAM_BATCH_HOOK`, with the batch as the only argument). */
  async call(hook: string, args: readonly unknown[]): Promise<CallOutcome> {
    const started = performance.now();
    const answer = this.#answer;
    if (hook !== TEAM_BATCH_HOOK || !answer) {
      const message = answer ? `unknown hook ${hook}` : 'no policy is loaded';
      return { ok: false, fault: { kind: 'crash', message, hook }, logs: [], ms: 0 };
    }
    this.#faults = [];
    this.#logs = [];
    const reply = await answer(args[0] as MassimTeamBatch);
    const value: TeamBatchAnswer = { actions: reply.actions, faults: this.#faults, logs: this.#logs };
    return { ok: true, value, logs: [], ms: performance.now() - started };
  }

  readonly #act: MassimAct = (percept, agent, team) => {
    const call = this.#queue.then(async (): Promise<MassimPolicyAction> => {
      const outcome = await this.#runtime.call('act', [percept, agent, team], {});
      for (const line of outcome.logs) this.#logs.push({ agent: agent.name, line });
      if (outcome.ok) return outcome.value as MassimPolicyAction;
      this.#faults.push({ agent: agent.name, fault: outcome.fault });
      return NO_ACTION;
    });
    this.#queue = call;
    return call;
  };
}
