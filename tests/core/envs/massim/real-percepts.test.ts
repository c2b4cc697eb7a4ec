/**
 * `semantics: 'massim'` against the real MASSim 2022 server's percepts (the shared conformance recordings,
 * whose configurations fix `randomSeed`): replaying the actions the server executed, every request-action
 * percept must equal the recorded one. Lists the server writes in hash-set order (things, tasks, norms and
 * their requirements, zones, attached, violations, events) are compared as sets.
 *
 * Where the recorded agents' actions depend on each other within a step, the server's execution order (a
 * shuffle of a hash set of entities keyed by JVM identity hashes) decides who draws which random number and
 * who moves first; that order cannot be reproduced, so those runs are compared up to the first step whose
 * outcome depended on it, which the test names.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue, MassimAction } from '../../../../src/core/envs/massim/api';
import { createSimulation } from '../../../../src/core/envs/massim/index';
import { canonicalText, normalisePercept as normalise } from './percept-sets';
import { recordedActions, recordedConfig, recordedServerMessages } from './recorded';

type JsonObject = { [key: string]: JsonValue };
/**
 * Replays simulation `simIndex` of a recorded run; compares percepts of steps before `untilStep` and returns
 * how many were compared and the first later step whose percepts differ (or -1).
 */
function replay(run: string, confName: string, simIndex: number, untilStep: number) {
  const config = recordedConfig(confName);
  const simConfig = config.match[simIndex]!;
  const messages = recordedServerMessages(run).filter(
    (m) => m.sim === simIndex && m.type === 'request-action',
  );
  const sent = recordedActions(run);
  const sim = createSimulation(simConfig, {
    teams: config.teams,
    semantics: 'massim',
    seed: simConfig.randomSeed ?? 0,
  });
  const percepts = new Map<string, Map<number, { id: number; percept: JsonObject }>>();
  for (const m of messages) {
    const byStep = percepts.get(m.agent) ?? new Map<number, { id: number; percept: JsonObject }>();
    percepts.set(m.agent, byStep);
    byStep.set(m.content['step'] as number, {
      id: m.content['id'] as number,
      percept: m.content['percept'] as JsonObject,
    });
  }
  let compared = 0;
  let firstDifferent = -1;
  while (!sim.isFinished) {
    const step = sim.currentStep;
    const joint = new Map<string, MassimAction>();
    for (const [agent, byStep] of percepts) {
      const recorded = byStep.get(step);
      if (recorded) {
        const ours = normalise(sim.requestActionPercept(agent));
        const theirs = normalise(recorded.percept);
        if (step < untilStep) {
          expect(ours, `${run} sim ${simIndex} ${agent} step ${step}`).toEqual(theirs);
          compared++;
        } else if (firstDifferent < 0 && canonicalText(ours) !== canonicalText(theirs)) {
          firstDifferent = step;
        }
      }
      // The action the server executed: echoed in the next percept, else the one sent.
      const echo = byStep.get(step + 1)?.percept;
      if (echo)
        joint.set(agent, { type: echo['lastAction'] as string, p: echo['lastActionParams'] as string[] });
      else if (recorded) {
        const action = sent.get(agent)?.get(recorded.id);
        if (action) joint.set(agent, action);
      }
    }
    sim.step(joint);
  }
  return { compared, firstDifferent };
}

describe("semantics 'massim' reproduces the real server's percepts", () => {
  it('events: every percept of 1 agent per team surveying and clearing (seeded, randomFail 0)', () => {
    const { compared } = replay('events', 'events', 0, Infinity);
    expect(compared).toBeGreaterThanOrEqual(16);
  });

  it('probes: every percept of 2 x 2 agents, with reconnects, stale and late actions', () => {
    const { compared } = replay('probes', 'probes', 0, Infinity);
    expect(compared).toBeGreaterThanOrEqual(50);
  });

  it('multisim: every percept of the first simulation; the second up to its first random failure', () => {
    expect(replay('multisim', 'multisim', 0, Infinity).compared).toBe(10);
    // Step 1 of the second simulation: the server's execution order gave a random failure (randomFail 1)
    // to an agent other than the one our shuffle gives it to.
    const second = replay('multisim', 'multisim', 1, 1);
    expect(second.compared).toBe(4);
    expect(second.firstDifferent).toBe(1);
  });

  it('basic: the world of step 0 as 4 agents see it; from step 1 on, stacked agents moving interfere', () => {
    const { compared, firstDifferent } = replay('basic', 'acceptance', 0, 1);
    expect(compared).toBe(4);
    // Agents stacked on one start cell all moved the same way at step 0: the first in the server's order
    // succeeded, the other found the cell taken; the server's first was another agent than ours.
    expect(firstDifferent).toBe(1);
  });
});
