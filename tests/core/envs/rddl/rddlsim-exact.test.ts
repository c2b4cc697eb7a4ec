/**
 * A domain written for this test (`rddlsim-exact/lighthouse.rddl`: one file with the domain, two non-fluents
 * blocks and two instances, like many of rddlsim's example files) played with no-op actions, against round
 * rewards measured on the real rddlsim's in-process simulator (`rddl.sim.Simulator` with its `NoopPolicy`,
 * one round per simulator seed s, the discounted sum it reports). Under rddlsim's semantics the round of seed
 * s equals rddlsim's round of seed s exactly; where rddlsim's order of stochastic interm groundings depends
 * on object names (see docs/rddl.md), the mean is compared instead.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { RddlModel } from '../../../../src/core/envs/rddl/api';

const text = readFileSync(new URL('./rddlsim-exact/lighthouse.rddl', import.meta.url), 'utf8');
const sources = [{ name: 'lighthouse.rddl', text }];

/** The discounted no-op round of `seed`, as `protoplay run rddlsim --semantics rddlsim --seed <seed>` plays it. */
function noopRound(model: RddlModel, seed: number): number {
  const sim = model.createSimulator({ seed, rddlsimQuirks: true, generator: 'rddlsim' });
  sim.reset();
  let total = 0;
  let weight = 1;
  for (let turn = 0; turn < model.info.horizon; turn++) {
    const outcome = sim.step([]);
    if (outcome.kind !== 'ok') throw new Error(`turn ${turn}: ${JSON.stringify(outcome)}`);
    total += weight * outcome.reward;
    weight *= model.info.discount;
    if (outcome.terminated) break;
  }
  return total;
}

describe('a multi-instance file against rddlsim', () => {
  it('lists both instances of the one file', () => {
    const model = loadRddl(sources, { instance: 'cape_night', rddlsimQuirks: true });
    expect(model.info.horizon).toBe(12);
    expect(model.info.discount).toBe(0.9);
    expect(() => loadRddl(sources)).toThrow(/cape_night.*archipelago_night|archipelago_night.*cape_night/);
  });

  it('gives rddlsim round rewards exactly, seed by seed', () => {
    // rddlsim (head of its public repository), Simulator seeds 0..7, NoopPolicy.
    const measured = [
      9.88570463519, 7.175704635190002, 11.277193671380005, 10.614704635190003, 11.094521571380003,
      13.688920234190002, 9.673272846920003, 14.351409270380003,
    ];
    const model = loadRddl(sources, { instance: 'cape_night', rddlsimQuirks: true });
    expect(measured.map((_, seed) => noopRound(model, seed))).toEqual(measured);
  });

  it('agrees with rddlsim in the mean where the draw order differs', () => {
    // rddlsim, Simulator seeds 0..399, NoopPolicy: mean 68.9225, standard deviation 11.7284.
    const reference = { mean: 68.9225, sd: 11.7284, n: 400 };
    const model = loadRddl(sources, { instance: 'archipelago_night', rddlsimQuirks: true });
    const n = 400;
    const rewards = Array.from({ length: n }, (_, i) => noopRound(model, 1000 + i));
    const mean = rewards.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(rewards.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
    const standardError = Math.sqrt(sd ** 2 / n + reference.sd ** 2 / reference.n);
    expect(Math.abs(mean - reference.mean)).toBeLessThan(4 * standardError);
    // Not a constant: the instance is stochastic under no-ops.
    expect(sd).toBeGreaterThan(1);
  });
});
