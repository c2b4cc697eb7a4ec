/**
 * The compiler against an independent reference: a plain interpreter that walks the syntax tree for every
 * grounding at every step (the benchmarks' baseline). Both draw the same random numbers in the same order,
 * so on every IPPC instance, under the same random actions, rewards and states must be identical.
 */
import { describe, expect, it } from 'vitest';
import { AstInterpreter } from '../../../../bench/rddl/ast-interpreter';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { GroundAction } from '../../../../src/core/envs/rddl/api';
import { Rng } from '../../../../src/core/random';
import { allBenchmarkInstances, benchmarkSources } from './shared-files';

describe('compiled simulator = reference interpreter', () => {
  for (const instance of allBenchmarkInstances()) {
    it(`agrees on ${instance}`, () => {
      const model = loadRddl(benchmarkSources(instance));
      const compiled = model.createSimulator({ seed: 17 });
      const reference = new AstInterpreter(model.grounded, 17);
      const rng = new Rng(instance);
      const actions = model.info.fluents.filter((f) => f.kind === 'action-fluent' && f.range === 'bool');
      const pick = (): GroundAction[] => {
        if (actions.length === 0 || rng.nextInt(2) === 0) return [];
        const action = actions[rng.nextInt(actions.length)]!;
        const args = action.paramTypes.map(
          (type) => model.typeValues(type)![rng.nextInt(model.typeValues(type)!.length)]!,
        );
        return [{ name: action.name, args, value: true }];
      };
      let compared = 0;
      for (let t = 0; t < 30; t++) {
        const chosen = pick();
        const outcome = compiled.step(chosen);
        if (outcome.kind !== 'ok') {
          compiled.reset();
          reference.reset();
          continue;
        }
        expect(outcome.reward).toBe(reference.step(chosen));
        const state = compiled.stateFluents().map((f) => `${f.name}(${f.args.join(',')})=${f.value}`);
        expect(state.sort()).toEqual(reference.stateFluents().sort());
        compared++;
      }
      expect(compared).toBeGreaterThan(15);
    });
  }
});
