/**
 * The environments a Protoplay aisys server offers: the classes `makeenv` knows, and the ready-made
 * environments (a class with its config) the playground and `protoplay serve --env` name.
 */
import type { AisysEnvironmentClass, JsonValue } from '../../envs/aisys/api';
import { HALMA_CLASS } from '../../envs/aisys/halma';
import { NIM_CLASS } from '../../envs/aisys/nim';
import { WUMPUS_CAVE_CLASS } from '../../envs/aisys/wumpus-cave';
import type { EnvironmentChoice } from '../contract';

/** Every class `makeenv` can make environments of. */
export const AISYS_ENVIRONMENT_CLASSES: readonly AisysEnvironmentClass[] = [
  NIM_CLASS,
  WUMPUS_CAVE_CLASS,
  HALMA_CLASS,
];

/** A ready-made environment: an id for `/act/<id>`, its class and config. */
export interface AisysEnvironmentPreset extends EnvironmentChoice {
  envClass: string;
  config: JsonValue;
}

/** The ready-made environments, the default first. */
export const AISYS_ENVIRONMENTS: readonly AisysEnvironmentPreset[] = [
  {
    id: 'nim',
    label: 'Nim (random opponent)',
    description:
      'Take 1 to 3 of 9 to 11 objects in turn with a random opponent; whoever takes the last one wins (outcome 1, a loss is 0).',
    envClass: 'nim',
    config: { strong: false, random_start: true },
  },
  {
    id: 'nim-strong',
    label: 'Nim (strong opponent)',
    description:
      'Take 1 to 3 of 10 objects in turn with an opponent that always leaves a multiple of 4 when it can; only perfect play wins.',
    envClass: 'nim',
    config: { strong: true, random_start: false },
  },
  {
    id: 'wumpus-cave',
    label: 'Wumpus cave',
    description:
      'Spend skill points on agility and fighting, then walk a cave for gold past bridges, pits and a wumpus, and climb out: the gold brought out is the outcome.',
    envClass: 'wumpus-cave',
    config: {},
  },
  {
    id: 'halma',
    label: 'Halma (star, 2 players)',
    description:
      'Move your 6 pieces across a star-shaped hex board to the opposite point by steps and jumps, against a greedy opponent: a win is 1, a loss 0.',
    envClass: 'halma',
    config: { board: 'star', players: 2, size: 3, opponent: 'greedy' },
  },
  {
    id: 'halma-3',
    label: 'Halma (star, 3 players)',
    description:
      'Move your 6 pieces to the opposite point of the star before either of two greedy opponents fills its own: a win is 1, a loss 0.',
    envClass: 'halma',
    config: { board: 'star', players: 3, size: 3, opponent: 'greedy' },
  },
  {
    id: 'halma-rhombus',
    label: 'Halma (rhombus, 2 players)',
    description:
      'Move your 6 pieces from the bottom corner of a diamond-shaped hex board to the top one before a greedy opponent crosses the other way: a win is 1, a loss 0.',
    envClass: 'halma',
    config: { board: 'rhombus', players: 2, size: 3, opponent: 'greedy' },
  },
];

/** The ready-made environment with this id. */
export function findAisysEnvironment(id: string): AisysEnvironmentPreset | undefined {
  return AISYS_ENVIRONMENTS.find((preset) => preset.id === id);
}
