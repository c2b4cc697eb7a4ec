/**
 * The `explorer` built-in team policy: every agent keeps a heading and walks straight on, turning when the
 * way is blocked (and now and then anyway), so the team covers the map; it never builds anything.
 */
import type { MassimAct, MassimDirection } from '../../../../src/core/protocols/massim/policy-api';
import { exploringStep } from './local-map';

/** An explorer; `random` is the team's seeded generator. */
export function explorerTeam(random: () => number): MassimAct {
  return (percept, agent) => exploringStep(percept, agent.memory as { heading?: MassimDirection }, random);
}
