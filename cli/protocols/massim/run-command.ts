/**
 * The options and help of `protoplay run massim`. The implementation (`run.ts`) is loaded only when the
 * command runs, so help stays instant.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { MATCH_CONFIG_OPTIONS, SEMANTICS_OPTION } from './match-config-options';
import { TEAM_POLICY_OPTIONS } from './policy-options';

/** The `run` command of MASSim. */
export const runCommand: CommandSpec = {
  summary: 'play a whole match locally (both teams against the emulated server) and print the scores',
  description: [
    'Runs the emulated MASSim server and every agent of every team in this process, through the same match',
    'runner as the playground, as fast as the policies answer (deadlines still apply to a silent agent).',
    "A policy is one of the playground's samples (skip, random, explorer, fetcher) or a .ts/.js file",
    'exporting act(percept, agent, team, context), called for every agent at every step; it runs in a',
    'worker thread that answers a whole team step in one call, within --budget. --policy-a and --policy-b',
    'are the first and second team of the configuration; --policy is every other team (default random).',
  ].join('\n'),
  options: [
    ...MATCH_CONFIG_OPTIONS,
    {
      name: 'policy-a',
      type: 'string',
      valueName: 'FILE|skip|random|explorer|fetcher',
      description: "the first team's policy",
    },
    {
      name: 'policy-b',
      type: 'string',
      valueName: 'FILE|skip|random|explorer|fetcher',
      description: "the second team's policy",
    },
    {
      name: 'policy',
      type: 'string',
      valueName: 'FILE|skip|random|explorer|fetcher',
      description: 'the policy of every team not given its own (default random)',
    },
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description:
        "simulation k uses seed + k; also seeds the policies (default: the configuration's randomSeed, else k)",
    },
    SEMANTICS_OPTION,
    ...TEAM_POLICY_OPTIONS,
    {
      name: 'transcript',
      type: 'string',
      valueName: 'FILE',
      description: 'write the transcript (every agent connection, world snapshots) in the playground format',
    },
    {
      name: 'json',
      type: 'boolean',
      description: 'print one JSON document (scores of every simulation) instead of text',
    },
  ],
  examples: [
    'run massim --policy-a fetcher --policy-b random --seed 1',
    'run massim --teams 2 --agents 10 --steps 300 --grid 50x50 --policy-a my-team.ts --policy-b explorer',
    'run massim --config SampleConfig.json --policy-a my-team.ts --transcript match.json',
    'run massim --agents 3 --steps 50 --policy explorer --json',
  ],
  handler: async (values, context) => (await import('./run')).runMassim(values, context),
};
