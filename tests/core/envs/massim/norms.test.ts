import { describe, expect, it } from 'vitest';
import type { MassimNormSubjectConfig } from '../../../../src/core/envs/massim/api';
import { EnergyRules } from '../../../../src/core/envs/massim/energy';
import { Officer } from '../../../../src/core/envs/massim/norms';
import { World } from '../../../../src/core/envs/massim/world';
import { Rng } from '../../../../src/core/random';
import { scene, sceneConfig } from './scene';

function subject(
  name: MassimNormSubjectConfig['name'],
  extra: Partial<MassimNormSubjectConfig> = {},
): MassimNormSubjectConfig {
  return {
    name,
    announcement: [2, 2],
    duration: [3, 3],
    punishment: [10, 10],
    weight: 1,
    quantity: [0, 0],
    playing: 50,
    ...extra,
  };
}

describe('Carry norms', () => {
  const regulation = { simultaneous: 1, chance: 100, subjects: [subject('Carry')] };

  it('are announced, then punish carriers every active step, listing them in violations', () => {
    const s = scene('move 5 5 agentA1\nadd 5 6 block b0\nattach 5 5 5 6', { config: { regulation } });
    expect(s.percept('agentA1').norms).toEqual([
      {
        requirements: [{ quantity: 0, name: 'any', type: 'block' }],
        punishment: 10,
        name: 'n1',
        start: 2,
        until: 5,
      },
    ]);
    const history: [number, string[], number][] = [];
    for (let step = 1; step <= 7; step++) {
      const next = s.act({});
      history.push([step, next.agentA1!.violations, next.agentA1!.energy]);
      expect(next.agentB1!.violations).toEqual([]);
    }
    // Active from step 2 to 5 inclusive: -10 each, +1 recharge each step.
    expect(history).toEqual([
      [1, [], 100],
      [2, ['n1'], 91],
      [3, ['n1'], 82],
      [4, ['n1'], 73],
      [5, ['n1'], 64],
      [6, [], 65],
      [7, [], 66],
    ]);
    // Only one norm at a time: the next one comes once n1 is over.
    expect(s.percept('agentA1').norms.map((n) => n.name)).toEqual(['n2']);
  });
});

describe('enforcement', () => {
  it('lists deactivated violators without charging them', () => {
    const config = sceneConfig({
      regulation: {
        simultaneous: 1,
        chance: 100,
        subjects: [subject('RoleIndividual', { announcement: [0, 0] })],
      },
      roles: [sceneConfig().roles[0]!],
    });
    const world = new World(10, 10, 10);
    const awake = world.addEntity(0, 'awake', 'A', config.roles[0]!, 100);
    const asleep = world.addEntity(1, 'asleep', 'B', config.roles[0]!, 40);
    asleep.deactivatedSteps = 3;
    const officer = new Officer(config, world, new EnergyRules(config, world), new Rng(1));
    officer.maybeCreate(0);
    officer.enforce(0);
    expect(officer.violations(0).map((v) => [v.entity.name, v.punishment])).toEqual([
      ['awake', 10],
      ['asleep', 0],
    ]);
    expect([awake.energy, asleep.energy]).toEqual([90, 40]);
  });
});

describe('Adopt norms', () => {
  const regulation = { simultaneous: 1, chance: 100, subjects: [subject('Adopt', { announcement: [1, 1] })] };

  it('punish every agent of a team with more agents in the role than allowed', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role', { config: { agentsPerTeam: 2, regulation } });
    // Two agents per team in "default"; 50% of 2 → 1 allowed.
    expect(s.percept('agentA1').norms[0]!.requirements).toEqual([
      { quantity: 1, name: 'default', type: 'role' },
    ]);
    const next = s.act({ agentA1: ['adopt', 'worker'] });
    expect(next.agentA1!.violations).toEqual([]);
    expect(next.agentA2!.violations).toEqual([]);
    expect(next.agentB1!.violations).toEqual(['n1']);
    expect(next.agentB2!.violations).toEqual(['n1']);
  });

  it('restrict the first role in use in Java hash-map order, as the real server does', () => {
    const config = sceneConfig({
      regulation: { simultaneous: 1, chance: 100, subjects: [subject('Adopt')] },
    });
    const roleNamed = (name: string) => config.roles.find((role) => role.name === name)!;
    const restricted = (roles: string[]) => {
      const world = new World(10, 10, 10);
      roles.forEach((role, i) => world.addEntity(i, `agent${i}`, i % 2 ? 'A' : 'B', roleNamed(role), 100));
      const officer = new Officer(config, world, new EnergyRules(config, world), new Rng(1));
      officer.maybeCreate(0);
      return officer.percepts(0)[0]!.requirements[0]!.name;
    };
    expect(restricted(['worker', 'explorer', 'worker'])).toBe('explorer');
    expect(restricted(['worker', 'default', 'explorer'])).toBe('default');
  });
});

describe('RoleIndividual norms', () => {
  it('punish each agent in the drawn role', () => {
    const regulation = {
      simultaneous: 1,
      chance: 100,
      subjects: [subject('RoleIndividual', { announcement: [1, 1] })],
    };
    const s = scene('', { config: { regulation, roles: [sceneConfig().roles[0]!] } });
    expect(s.percept('agentA1').norms[0]!.requirements).toEqual([
      { quantity: 1, name: 'default', type: 'role' },
    ]);
    expect(s.act({}).agentA1!.violations).toEqual(['n1']);
  });
});
