import { describe, expect, it } from 'vitest';
import {
  checkRddl,
  DEFAULT_EXAMPLE,
  EXAMPLE_DOMAINS,
  exampleSources,
  loadRddl,
} from '../../../../../src/core/envs/rddl';
import type { GroundAction, RddlModel } from '../../../../../src/core/envs/rddl/api';
import { Rng } from '../../../../../src/core/random';

function randomActions(model: RddlModel, rng: Rng): GroundAction[] {
  const actions = model.info.fluents.filter((f) => f.kind === 'action-fluent');
  const action = actions[rng.nextInt(actions.length)]!;
  const args = action.paramTypes.map((t) => model.typeValues(t)![rng.nextInt(model.typeValues(t)!.length)]!);
  const value =
    action.range === 'bool'
      ? true
      : action.range === 'real'
        ? rng.nextFloat() * 10
        : action.range === 'int'
          ? 1
          : model.typeValues(action.range)![rng.nextInt(model.typeValues(action.range)!.length)]!;
  return [{ name: action.name, args, value }];
}

describe('built-in examples', () => {
  it('has the five kinds the playground offers, the network first', () => {
    expect(EXAMPLE_DOMAINS.map((e) => e.id)).toEqual([
      'network_admin',
      'cell_life',
      'grid_walk',
      'reservoirs',
      'machine_maintenance',
    ]);
    expect(DEFAULT_EXAMPLE.id).toBe('network_admin');
    expect(new Set(EXAMPLE_DOMAINS.map((e) => e.id)).size).toBe(EXAMPLE_DOMAINS.length);
  });

  for (const example of EXAMPLE_DOMAINS) {
    describe(example.title, () => {
      it('has no problems, not even warnings', () => {
        expect(checkRddl(exampleSources(example))).toEqual([]);
        expect(example.description.length).toBeGreaterThan(80);
      });

      it('runs rounds with no-op and random actions', () => {
        const model = loadRddl(exampleSources(example));
        const simulator = model.createSimulator({ seed: 4 });
        const rng = new Rng(example.id);
        for (const random of [false, true]) {
          simulator.reset();
          for (let t = 0; t < model.info.horizon; t++) {
            const outcome = simulator.step(random ? randomActions(model, rng) : []);
            expect(outcome.kind).not.toBe('error');
            if (outcome.kind !== 'ok' || outcome.terminated) break;
          }
        }
      });
    });
  }

  it('covers a POMDP, int and real fluents with Normal noise, and an enum-valued action', () => {
    const byId = new Map(EXAMPLE_DOMAINS.map((e) => [e.id, loadRddl(exampleSources(e))]));
    expect(byId.get('machine_maintenance')!.info.partiallyObserved).toBe(true);
    const reservoirs = byId.get('reservoirs')!.info.fluents;
    expect(reservoirs.some((f) => f.kind === 'state-fluent' && f.range === 'real')).toBe(true);
    expect(reservoirs.some((f) => f.kind === 'state-fluent' && f.range === 'int')).toBe(true);
    expect(EXAMPLE_DOMAINS.find((e) => e.id === 'reservoirs')!.domain).toContain('Normal(');
    expect(byId.get('grid_walk')!.findFluent('go')).toMatchObject({ kind: 'action-fluent', range: 'move' });
  });
});
