import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  MassimAction,
  MassimSimConfig,
  MassimSimulation,
  MassimStepPercept,
} from '../../../../src/core/envs/massim/api';
import { createSimulation, sampleSimConfig } from '../../../../src/core/envs/massim/index';
import { PhraseBook, PhraseList } from '../../../../src/core/transcript/store/phrases';
import { recordedActions, recordedConfig, recordedServerMessages } from './recorded';
import { livelyConfig, sceneConfig } from './scene';

/** Every agent's percept text as written in phrases, next to `JSON.stringify` of its percept object. */
function compareAll(sim: MassimSimulation, list: PhraseList): number {
  for (const agent of sim.agents) {
    list.clear();
    sim.writeRequestActionPercept(agent, list);
    const expected = JSON.stringify(sim.requestActionPercept(agent));
    const written = list.text();
    if (written !== expected) expect(written, `${agent} at step ${sim.currentStep}`).toBe(expected);
  }
  return sim.agents.length;
}

/** A crowded world: small grids (vision wraps around on the smallest), many things, events and norms. */
function crowdedConfig(size: number, vision: number, absolutePosition: boolean): MassimSimConfig {
  return livelyConfig(
    {
      steps: 25,
      randomFail: 10,
      clusterBounds: [1, 3],
      size: [size, size + 1],
      caveChance: 0.35,
      goals: { number: 2, size: [1, 3] },
      roleZones: { number: 2, size: [1, 2] },
      blockTypes: [2, 3],
      dispensers: [1, 3],
      tasks: { size: [1, 3], iterations: [1, 2], maxDuration: [3, 15] },
      events: { chance: 30, radius: [1, 3] },
      norms: { chance: 40, carryPunishment: [5, 10], adoptPunishment: [1, 3], adoptPlaying: 0 },
    },
    {
      roles: sceneConfig().roles.map((role, i) => ({ ...role, vision: i === 2 ? vision + 2 : vision })),
      absolutePosition,
    },
  );
}

// Action types and parameters as agents may send them: valid ones, unknown ones, and strings that JSON must
// escape (quotes, control characters, non-ASCII, lone surrogates).
const actionTypes = fc.oneof(
  fc.constantFrom(
    'move',
    'skip',
    'rotate',
    'attach',
    'request',
    'clear',
    'survey',
    'adopt',
    'adapt',
    'submit',
  ),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const parameter = fc.oneof(
  fc.constantFrom('n', 's', 'e', 'w', 'cw', 'ccw', '1', '-2', 'worker', 'explorer', 'task0', 'dispenser'),
  fc.string({ unit: 'binary', maxLength: 5 }),
  fc.constantFrom('"', '\\', '\n', '\u2028', '\ud800', 'é'),
);
const action: fc.Arbitrary<MassimAction | null> = fc.option(
  fc.record({ type: actionTypes, p: fc.array(parameter, { maxLength: 3 }) }),
  { nil: null, freq: 6 },
);

describe('percepts written as JSON phrases', () => {
  it('are exactly JSON.stringify of the percept object, in crowded random worlds with strange actions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 4, max: 14 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        fc.array(action, { minLength: 30, maxLength: 120 }),
        (seed, size, vision, absolutePosition, actions) => {
          const sim = createSimulation(crowdedConfig(size, vision, absolutePosition), { seed });
          const list = new PhraseList();
          let i = 0;
          while (!sim.isFinished) {
            compareAll(sim, list);
            const joint = new Map<string, MassimAction>();
            for (const agent of sim.agents) {
              const chosen = actions[i++ % actions.length];
              if (chosen) joint.set(agent, chosen);
            }
            sim.step(joint);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('are exactly JSON.stringify of the percept object on the contest map, with one book for two runs', () => {
    const book = new PhraseBook();
    for (const size of ['small', 'large'] as const) {
      const sim = createSimulation({ ...sampleSimConfig(size), steps: 30 }, { seed: 3 });
      const list = new PhraseList(book);
      const directions = ['n', 's', 'e', 'w'];
      let compared = 0;
      while (!sim.isFinished) {
        compared += compareAll(sim, list);
        const joint = new Map<string, MassimAction>();
        sim.agents.forEach((agent, i) =>
          joint.set(agent, { type: 'move', p: [directions[(i + sim.currentStep) % 4]!] }),
        );
        sim.step(joint);
      }
      expect(compared).toBe(30 * sim.agents.length);
    }
  });

  it('are exactly JSON.stringify of the percept object when replaying the real server’s recorded runs', () => {
    let compared = 0;
    for (const [run, conf] of [
      ['basic', 'acceptance'],
      ['events', 'events'],
      ['probes', 'probes'],
      ['multisim', 'multisim'],
    ] as const) {
      const config = recordedConfig(conf);
      const messages = recordedServerMessages(run);
      const sent = recordedActions(run);
      config.match.forEach((simConfig, simIndex) => {
        const sim = createSimulation(simConfig, { teams: config.teams });
        const percepts = new Map<string, Map<number, { id: number; percept: MassimStepPercept }>>();
        for (const m of messages) {
          if (m.sim !== simIndex || m.type !== 'request-action') continue;
          const byStep =
            percepts.get(m.agent) ?? new Map<number, { id: number; percept: MassimStepPercept }>();
          percepts.set(m.agent, byStep);
          byStep.set(m.content['step'] as number, {
            id: m.content['id'] as number,
            percept: m.content['percept'] as unknown as MassimStepPercept,
          });
        }
        const list = new PhraseList();
        while (!sim.isFinished) {
          compared += compareAll(sim, list);
          // The actions the real server executed: echoed in the next percept, or as sent for the last step.
          const joint = new Map<string, MassimAction>();
          for (const [agent, byStep] of percepts) {
            const echo = byStep.get(sim.currentStep + 1)?.percept;
            const request = byStep.get(sim.currentStep);
            if (echo) joint.set(agent, { type: echo.lastAction, p: echo.lastActionParams });
            else if (request) {
              const action = sent.get(agent)?.get(request.id);
              if (action) joint.set(agent, action);
            }
          }
          sim.step(joint);
        }
      });
    }
    expect(compared).toBeGreaterThan(100);
  });
});
