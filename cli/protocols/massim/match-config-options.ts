/**
 * The options that choose a match's configuration, for help; reading them (`match-config.ts`) loads the
 * scenario's configuration code, which help does without.
 */
import type { OptionSpec } from '../../command-line/command-spec';

/** The options that choose the configuration, shared by `serve` and `run`. */
export const MATCH_CONFIG_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'config',
    type: 'string',
    valueName: 'FILE',
    description:
      'a real MASSim server configuration file (server block, match list, teams; includes like "$(sim/sim1.json)" are read relative to it)',
  },
  {
    name: 'teams',
    type: 'string',
    valueName: 'N',
    description: 'without --config: number of teams, named A, B, C... (default 2)',
  },
  {
    name: 'agents',
    type: 'string',
    valueName: 'N',
    description: 'without --config: agents per team (default 5)',
  },
  {
    name: 'steps',
    type: 'string',
    valueName: 'N',
    description: 'without --config: steps of the simulation (default 200)',
  },
  {
    name: 'grid',
    type: 'string',
    valueName: 'WxH',
    description: 'without --config: grid size (default 40x40)',
  },
  {
    name: 'agent-timeout',
    type: 'string',
    valueName: 'MS',
    description:
      "time an agent has to answer a request-action (default: the configuration's agentTimeout, 4000)",
  },
  {
    name: 'wait-between-simulations',
    type: 'string',
    valueName: 'MS',
    description:
      "pause after every simulation, the last one included (default: the configuration's, 5000 for a quick one)",
  },
];

/** `--semantics`, shared by `serve` and `run`. */
export const SEMANTICS_OPTION: OptionSpec = {
  name: 'semantics',
  type: 'string',
  valueName: 'protoplay|massim',
  description:
    "whose random numbers: Protoplay's generator (default), or the real MASSim 2022 server's java.util.Random in its order, so a configuration and seed give the real server's world, tasks, norms and clear events",
};

/** The values of `--semantics`. */
export const SEMANTICS = ['protoplay', 'massim'] as const;
