/**
 * The built-in team policies of the command line, usable with `--policy NAME` instead of a file. They run
 * in the command's own thread (they are trusted and fast), each team with its own seeded generator.
 */
import { Rng } from '../../../../src/core/random';
import type { MassimAct } from '../../../../src/core/protocols/massim/policy-api';
import { explorerTeam } from './explorer';
import { fetcherTeam } from './fetcher';
import { randomTeam } from './random';

/** The names `--policy` accepts besides a file. */
export const BUILTIN_TEAM_POLICIES = ['random', 'explorer', 'fetcher'] as const;

/** One of the built-in team policies. */
export type BuiltinTeamPolicy = (typeof BUILTIN_TEAM_POLICIES)[number];

/** Whether a `--policy` value names a built-in. */
export function isBuiltinTeamPolicy(name: string): name is BuiltinTeamPolicy {
  return (BUILTIN_TEAM_POLICIES as readonly string[]).includes(name);
}

/** A fresh built-in team policy whose choices repeat for the same seed and team. */
export function builtinTeamPolicy(name: BuiltinTeamPolicy, seed: number, team: string): MassimAct {
  const rng = new Rng(`${seed}:${team}:${name}`);
  const random = () => rng.nextFloat();
  switch (name) {
    case 'random':
      return randomTeam(random);
    case 'explorer':
      return explorerTeam(random);
    case 'fetcher':
      return fetcherTeam(random);
  }
}
