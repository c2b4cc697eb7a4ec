/**
 * Options about team policies, shared by `run` and `connect`.
 */
import type { OptionSpec } from '../../command-line/command-spec';

/** `--budget`, `--on-policy-error` and `--seed`. */
export const TEAM_POLICY_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'budget',
    type: 'string',
    valueName: 'MS',
    description:
      "time the policy may take for one step of its whole team (default 1000); past it its thread is restarted and the team's memory lost",
  },
  {
    name: 'on-policy-error',
    type: 'string',
    valueName: 'stop|skip',
    description:
      'after a throw, an action that is not one, or a budget overrun: stop (default, exit code 3), or let the team do no_action that step and go on',
  },
];

/** What a policy fault does to the session. */
export type OnPolicyError = 'stop' | 'skip';

/** The choices of `--on-policy-error`. */
export const ON_POLICY_ERROR: readonly OnPolicyError[] = ['stop', 'skip'];
