/**
 * The `random` built-in team policy: every agent moves one cell in a random direction, or skips now and
 * then. The baseline every other team should beat.
 */
import type { MassimAct } from '../../../../src/core/protocols/massim/policy-api';
import { DIRECTIONS } from './local-map';

/** A random mover; `random` is the team's seeded generator. */
export function randomTeam(random: () => number): MassimAct {
  return () => {
    const pick = Math.floor(random() * (DIRECTIONS.length + 1));
    const step = DIRECTIONS[pick];
    return step ? { type: 'move', p: [step.direction] } : { type: 'skip', p: [] };
  };
}
