/**
 * Every IPPC 2011 and 2014 domain and instance of the shared benchmark folder parses, grounds and runs three
 * rounds with a no-op policy and with a seeded random policy, without a run-time error. Fails (never skips)
 * when the folder is missing.
 */
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { GroundAction, RddlModel } from '../../../../src/core/envs/rddl/api';
import { Rng } from '../../../../src/core/random';
import { allBenchmarkInstances, benchmarkSources } from './shared-files';

const instances = allBenchmarkInstances();

/** Picks one random grounding of a random bool action (or nothing), within max-nondef-actions. */
function randomPolicy(model: RddlModel, rng: Rng): () => GroundAction[] {
  const actions = model.info.fluents.filter((f) => f.kind === 'action-fluent' && f.range === 'bool');
  return () => {
    if (actions.length === 0 || rng.nextInt(3) === 0) return [];
    const action = actions[rng.nextInt(actions.length)]!;
    const args = action.paramTypes.map((type) => {
      const values = model.typeValues(type)!;
      return values[rng.nextInt(values.length)]!;
    });
    return [{ name: action.name, args, value: true }];
  };
}

describe('IPPC benchmarks', () => {
  it('finds the 32 IPPC 2011 and 2014 instances', () => {
    expect(instances.length).toBe(32);
  });

  for (const instance of instances) {
    it(`runs ${instance}`, () => {
      const model = loadRddl(benchmarkSources(instance));
      expect(model.info.instance).toBe(instance);
      const rng = new Rng(instance);
      const policies = { noop: () => [], random: randomPolicy(model, rng) };
      const simulator = model.createSimulator({ seed: 1 });
      for (const policy of Object.values(policies)) {
        for (let round = 0; round < 3; round++) {
          simulator.reset();
          let steps = 0;
          for (;;) {
            const outcome = simulator.step(policy());
            expect(outcome.kind).not.toBe('error');
            if (outcome.kind !== 'ok') break;
            expect(Number.isFinite(outcome.reward)).toBe(true);
            steps++;
            if (outcome.terminated) break;
          }
          expect(steps).toBeLessThanOrEqual(model.info.horizon);
        }
      }
      expect(simulator.stateFluents().length).toBeGreaterThan(0);
    });
  }
});
