/**
 * Agreement with figures measured on the real rddlsim (tests/data/rddlsim, see its README): the order in
 * which the server lists fluents for every IPPC instance, and the mean round reward under a random
 * single-action policy. Means are compared with both sampling errors; one instance is also replayed with
 * rddlsim-compatible randomness and the reference policy's own generator, which must give rddlsim's mean
 * exactly.
 */
import { readFileSync } from 'node:fs';
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
const randomReference = read<Record<string, MeanReference>>('random-reference.json');

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

describe('mean round reward under the random policy', () => {
  const rounds = 250;
  for (const [instance, reference] of Object.entries(randomReference)) {
    it(`matches rddlsim on ${instance}`, () => {
      const model = loadRddl(benchmarkSources(instance));
      const simulator = model.createSimulator({ seed: 3 });
      const rng = new Rng(instance);
      const actions = groundBoolActions(model);
      const totals: number[] = [];
      for (let round = 0; round < rounds; round++) {
        simulator.reset();
        let total = 0;
        for (let t = 0; t < model.info.horizon; t++) {
          const chosen = rng.nextInt(2) === 1 ? [actions[rng.nextInt(actions.length)]!] : [];
          const outcome = simulator.step(chosen);
          if (outcome.kind !== 'ok') throw new Error(`step ${t}: ${outcome.kind}`);
          total += outcome.reward;
        }
        totals.push(total);
      }
      const mean = totals.reduce((a, b) => a + b, 0) / rounds;
      const sd = Math.sqrt(totals.reduce((a, b) => a + (b - mean) ** 2, 0) / (rounds - 1));
      // 4 standard errors of the difference: 32 comparisons must not fail by chance.
      const tolerance = 4 * Math.sqrt(reference.sd ** 2 / reference.n + sd ** 2 / rounds);
      expect(Math.abs(mean - reference.mean)).toBeLessThanOrEqual(tolerance + 1e-9);
    });
  }

  it("reproduces rddlsim's mean for sysadmin_inst_mdp__1 exactly when replaying its randomness", () => {
    const reference = randomReference['sysadmin_inst_mdp__1']!;
    const model = loadRddl(benchmarkSources('sysadmin_inst_mdp__1'));
    // The reference run: server seed 0, session 1; the policy's java.util.Random seeded with 0.
    const simulator = model.createSimulator({ seed: 0, generator: 'rddlsim', rddlsimQuirks: true });
    const policy = new JavaRandom(0);
    const actions = groundBoolActions(model);
    let sum = 0;
    for (let round = 0; round < reference.n; round++) {
      simulator.reset();
      for (let t = 0; t < model.info.horizon; t++) {
        const chosen = policy.nextInt(2) === 1 ? [actions[policy.nextInt(actions.length)]!] : [];
        const outcome = simulator.step(chosen);
        if (outcome.kind !== 'ok') throw new Error(outcome.kind);
        sum += outcome.reward;
      }
    }
    expect(sum / reference.n).toBeCloseTo(reference.mean, 9);
  });
});
