import type { PolicyLevel } from './types';

/** What a policy module of one level must and may export. */
export interface PolicyLevelContract {
  /** The export every policy of this level must provide, called once per decision. */
  entry: string;
  /** How the entry is called, for error messages ("export a function act(observation, context)"). */
  signature: string;
  /** Optional exports the session calls when present. */
  hooks: readonly string[];
}

/**
 * The exports of each policy level. Policy level: `act` maps an observation to actions, hooks see round and
 * session boundaries. Wire level: `onMessage` receives each raw server message and returns the raw replies.
 */
export const POLICY_LEVELS: Readonly<Record<PolicyLevel, PolicyLevelContract>> = {
  policy: {
    entry: 'act',
    signature: 'act(observation, context)',
    hooks: ['onRoundStart', 'onRoundEnd', 'onSessionEnd'],
  },
  wire: {
    entry: 'onMessage',
    signature: 'onMessage(message, context)',
    hooks: ['onSessionStart', 'onSessionEnd'],
  },
};
