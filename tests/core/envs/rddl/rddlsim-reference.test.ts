/**
 * Agreement with figures measured on the real rddlsim (tests/data/rddlsim, see its README): the order in
 * which the server lists fluents for every IPPC instance, and the mean round reward under the no-op and
 * the random single-action policy. Means are compared with both sampling errors; one instance is also
 * replayed with rddlsim-compatible randomness and the reference policy's own generator, which must give
 * rddlsim's mean exactly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { GroundAction, RddlModel } from '../../../../src/core/envs/rddl/api';
import { Rng } from '../../../../src/core/random';
import { benchmarkSources } from './shared-files';

const DATA = new URL('../../../data/rddlsim/', import.meta.url);
const read = <T>(file: string): T => JSON.parse(readFileSync(new URL(file, DATA), 'utf8')) as T;

interface MeanReference {
  mean: number;
  sd: number;
  n: number;
  ci95: [number, number];
}
const fluentOrder =
  read<Record<string, { state: [string, string[]][]; observ: [string, string[]][] }>>('fluent-order.json');

/**
 * The reference policies of the README. `draw(n)` is a uniform integer below n from the policy's own
 * generator; a step is a no-op, or with probability 1/2 (random) one ground bool action set to true.
 */
const POLICIES: Record<string, (actions: GroundAction[], draw: (n: number) => number) => GroundAction[]> = {
  noop: () => [],
  random: (actions, draw) => (draw(2) === 1 ? [actions[draw(actions.length)]!] : []),
};

/** Every `<policy>-reference.json` measured on rddlsim (noop and random are defined by the README). */
const references = readdirSync(DATA)
  .filter((file) => file.endsWith('-reference.json'))
  .map((file) => ({
    policy: file.replace(/-reference\.json$/, ''),
    figures: read<Record<string, MeanReference>>(file),
  }));

/** Every ground bool action, fluents in declaration order, groundings in object order. */
function groundBoolActions(model: RddlModel): GroundAction[] {
  const actions: GroundAction[] = [];
  for (const f of model.info.fluents) {
    if (f.kind !== 'action-fluent' || f.range !== 'bool') continue;
    let groundings: string[][] = [[]];
    for (const type of f.paramTypes)
      groundings = groundings.flatMap((args) => model.typeValues(type)!.map((v) => [...args, v]));
    for (const args of groundings) actions.push({ name: f.name, args, value: true });
  }
  return actions;
}

/** `java.util.Random`, for the reference policy's own draws. */
class JavaRandom {
  #seed: bigint;
  constructor(seed: number) {
    this.#seed = (BigInt(seed) ^ 0x5deece66dn) & ((1n << 48n) - 1n);
  }
  private next(bits: number): number {
    this.#seed = (this.#seed * 0x5deece66dn + 0xbn) & ((1n << 48n) - 1n);
    return Number(BigInt.asIntN(32, this.#seed >> BigInt(48 - bits)));
  }
  nextInt(bound: number): number {
    if ((bound & -bound) === bound) return Number((BigInt(bound) * BigInt(this.next(31))) >> 31n);
    for (;;) {
      const bits = this.next(31);
      const value = bits % bound;
      if (bits - value + (bound - 1) < 2 ** 31) return value;
    }
  }
}

describe("fluent order of rddlsim's server", () => {
  it('has the order for all 32 IPPC instances', () => {
    expect(Object.keys(fluentOrder)).toHaveLength(32);
  });

  for (const [instance, expected] of Object.entries(fluentOrder)) {
    it(`lists ${instance} in the same order`, () => {
      const model = loadRddl(benchmarkSources(instance));
      const simulator = model.createSimulator({ seed: 1 });
      const state = model.info.partiallyObserved ? [] : simulator.stateFluents();
      simulator.step([]);
      const observ = simulator.observations();
      const pairs = (fluents: { name: string; args: string[] }[]) => fluents.map((f) => [f.name, f.args]);
      expect(pairs(state)).toEqual(expected.state);
      expect(pairs(observ)).toEqual(expected.observ);
    });
  }
});

describe('mean round reward under the reference policies', () => {
  it('has the no-op and random-policy references for all 32 instances', () => {
    expect(references.map((r) => r.policy).sort()).toEqual(['noop', 'random']);
    for (const { figures } of references) expect(Object.keys(figures)).toHaveLength(32);
  });

  const rounds = 250;
  for (const { policy, figures } of references) {
    for (const [instance, reference] of Object.entries(figures)) {
      it(`matches rddlsim on ${instance} (${policy})`, () => {
        const model = loadRddl(benchmarkSources(instance));
        const simulator = model.createSimulator({ seed: 3 });
        const rng = new Rng(instance);
        const actions = groundBoolActions(model);
        const totals: number[] = [];
        for (let round = 0; round < rounds; round++) {
          simulator.reset();
          let total = 0;
          for (let t = 0; t < model.info.horizon; t++) {
            const outcome = simulator.step(POLICIES[policy]!(actions, (n) => rng.nextInt(n)));
            if (outcome.kind !== 'ok') throw new Error(`step ${t}: ${outcome.kind}`);
            total += outcome.reward;
          }
          totals.push(total);
        }
        const mean = totals.reduce((a, b) => a + b, 0) / rounds;
        const sd = Math.sqrt(totals.reduce((a, b) => a + (b - mean) ** 2, 0) / (rounds - 1));
        // 4 standard errors of the difference, so many comparisons do not fail by chance; instances
        // that are deterministic under the policy (sd 0 on both sides) must agree up to rounding.
        const tolerance = 4 * Math.sqrt(reference.sd ** 2 / reference.n + sd ** 2 / rounds);
        expect(Math.abs(mean - reference.mean)).toBeLessThanOrEqual(
          tolerance + 1e-9 * Math.abs(reference.mean),
        );
      });
    }

    it(`reproduces rddlsim's ${policy} mean for sysadmin_inst_mdp__1 exactly when replaying its randomness`, () => {
      const reference = figures['sysadmin_inst_mdp__1']!;
      const model = loadRddl(benchmarkSources('sysadmin_inst_mdp__1'));
      // The reference run: server seed 0, session 1; the policy's java.util.Random seeded with 0.
      const simulator = model.createSimulator({ seed: 0, generator: 'rddlsim', rddlsimQuirks: true });
      const random = new JavaRandom(0);
      const actions = groundBoolActions(model);
      let sum = 0;
      for (let round = 0; round < reference.n; round++) {
        simulator.reset();
        for (let t = 0; t < model.info.horizon; t++) {
          const outcome = simulator.step(POLICIES[policy]!(actions, (n) => random.nextInt(n)));
          if (outcome.kind !== 'ok') throw new Error(outcome.kind);
          sum += outcome.reward;
        }
      }
      expect(sum / reference.n).toBeCloseTo(reference.mean, 9);
    });
  }
});
