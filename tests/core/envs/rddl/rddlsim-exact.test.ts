/**
 * Domains written for this test (`rddlsim-exact/lighthouse.rddl`: one file with the domain, two non-fluents
 * blocks and two instances, like many of rddlsim's example files; `rddlsim-exact/relay.rddl`: random interm
 * fluents over objects whose names hash in another order than they are declared) played with no-op
 * actions, against round rewards measured on the real rddlsim: its in-process simulator (`rddl.sim.Simulator`
 * with its `NoopPolicy`, one round per simulator seed s, the discounted sum it reports), and sessions of
 * three rounds played as its server plays them (`rddlsim-exact/measured-sessions.json`). Under rddlsim's
 * semantics every round equals rddlsim's exactly, to the last digit: the interm groundings are drawn in
 * the order of rddlsim's dependency graph, round k of a session evaluates the interm fluents k times, and
 * vector arithmetic draws its left operand whole before its right (`rddlsim-exact/drift.rddl`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { RddlModel } from '../../../../src/core/envs/rddl/api';

const text = readFileSync(new URL('./rddlsim-exact/lighthouse.rddl', import.meta.url), 'utf8');
const sources = [{ name: 'lighthouse.rddl', text }];
const relay = [
  { name: 'relay.rddl', text: readFileSync(new URL('./rddlsim-exact/relay.rddl', import.meta.url), 'utf8') },
];
const drift = [
  { name: 'drift.rddl', text: readFileSync(new URL('./rddlsim-exact/drift.rddl', import.meta.url), 'utf8') },
];
const measuredSessions = JSON.parse(
  readFileSync(new URL('./rddlsim-exact/measured-sessions.json', import.meta.url), 'utf8'),
) as { sessions: Record<string, number[][]> };

/** The discounted no-op rounds of one session of `rounds` rounds, as the rddlsim host plays them. */
function noopSession(model: RddlModel, seed: number, rounds: number): number[] {
  const sim = model.createSimulator({ seed, rddlsimQuirks: true, generator: 'rddlsim' });
  const rewards: number[] = [];
  for (let round = 0; round < rounds; round++) {
    sim.reset();
    let total = 0;
    let weight = 1;
    for (let turn = 0; turn < model.info.horizon; turn++) {
      const outcome = sim.step([]);
      if (outcome.kind !== 'ok') throw new Error(`round ${round}, turn ${turn}: ${JSON.stringify(outcome)}`);
      total += weight * outcome.reward;
      weight *= model.info.discount;
      if (outcome.terminated) break;
    }
    rewards.push(total);
  }
  return rewards;
}

/** The measured sessions of `key`: per seed, the seed and its round rewards. */
function measured(key: string): { seed: number; rounds: number[] }[] {
  const rows = measuredSessions.sessions[key];
  if (!rows) throw new Error(`no measurement for ${key}`);
  return rows.map(([seed, ...rounds]) => ({ seed: seed!, rounds }));
}

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

  it("draws random interm groundings in rddlsim's order, which follows the hash order of their names", () => {
    // The lamps a1..a4 are drawn a1, a3, a4, a2 by rddlsim; sessions of three rounds, seeds 0..9.
    const model = loadRddl(sources, { instance: 'archipelago_night', rddlsimQuirks: true });
    const rows = measured('lighthouse.rddl archipelago_night');
    expect(rows.map(({ seed }) => noopSession(model, seed, 3))).toEqual(rows.map((r) => r.rounds));
  });
});

describe('random interm fluents against rddlsim', () => {
  for (const instance of ['coast_day', 'grid_week']) {
    it(`${instance}: every round of a three-round session equals rddlsim's, seeds 0 to 9`, () => {
      const model = loadRddl(relay, { instance, rddlsimQuirks: true });
      const rows = measured(`relay.rddl ${instance}`);
      expect(rows).toHaveLength(10);
      expect(rows.map(({ seed }) => noopSession(model, seed, 3))).toEqual(rows.map((r) => r.rounds));
    });
  }
});

describe('random members of vector arithmetic against rddlsim', () => {
  it('draws the whole left vector, then the whole right one, as rddlsim does', () => {
    // at'(?b) = <random> + <random>, wake' = <nested random> - <nested random>; seeds 0..9, three rounds.
    const model = loadRddl(drift, { instance: 'bay_morning', rddlsimQuirks: true });
    const rows = measured('drift.rddl bay_morning');
    expect(rows).toHaveLength(10);
    expect(rows.map(({ seed }) => noopSession(model, seed, 3))).toEqual(rows.map((r) => r.rounds));
  });
});
