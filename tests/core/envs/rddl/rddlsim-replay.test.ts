/**
 * Agreement with the real rddlsim server, from its recorded sessions. Fluent order must equal the recorded
 * order in every transcript. With the rddlsim-compatible generator and rddlsim's quirks, replaying the
 * recorded actions must reproduce every recorded state (or observation) and reward exactly.
 *
 * About game_of_life_inst_mdp__1 (the no-op session): every cell's cpf ends in a Bernoulli draw
 * (`Bernoulli(1 - NOISE-PROB)` or `Bernoulli(NOISE-PROB)`), so no cell is deterministic on its own; the
 * recording is reproducible only because rddlsim seeds its generator. Drawing the same numbers in the
 * same order (WELL19937c seeded with 0, cells in rddlsim's order) reproduces the whole session.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import {
  CONFORMANCE_DIR,
  benchmarkSources,
  elementText,
  messageActions,
  readTranscript,
  turnFluents,
} from './shared-files';

const SESSIONS = [
  'sysadmin_inst_mdp__1',
  'sysadmin_inst_pomdp__1',
  'elevators_inst_mdp__1',
  'game_of_life_inst_mdp__1',
];

function problemName(messages: { body: string }[]): string {
  return elementText(messages[0]!.body, 'problem-name')!;
}

describe('fluent order of the recorded sessions', () => {
  const transcripts = readdirSync(CONFORMANCE_DIR).filter((f) => f.endsWith('.transcript'));

  it('finds the four recorded sessions', () => {
    expect(transcripts.sort()).toEqual(SESSIONS.map((s) => `${s}.transcript`).sort());
  });

  for (const file of transcripts) {
    it(`lists fluents in rddlsim's order for ${file}`, () => {
      const messages = readTranscript(join(CONFORMANCE_DIR, file));
      const model = loadRddl(benchmarkSources(problemName(messages)));
      const simulator = model.createSimulator({ seed: 1 });
      const turn = messages.find((m) => m.direction === 'S>C' && m.body.includes('<observed-fluent>'))!;
      const recorded = turnFluents(turn.body).map((f) => f.replace(/=.*$/, ''));
      if (!model.info.partiallyObserved) simulator.reset();
      else simulator.step([]);
      const listed = model.info.partiallyObserved ? simulator.observations() : simulator.stateFluents();
      expect(listed.map((f) => `${f.name}(${f.args.join(',')})`)).toEqual(recorded);
    });
  }
});

describe('replaying the recorded sessions with rddlsim-compatible randomness', () => {
  for (const session of SESSIONS) {
    it(`reproduces every turn and reward of ${session}`, () => {
      const messages = readTranscript(join(CONFORMANCE_DIR, `${session}.transcript`));
      const model = loadRddl(benchmarkSources(session));
      // Each recording is session 1 of a fresh server started with seed 0.
      const simulator = model.createSimulator({ seed: 0, generator: 'rddlsim', rddlsimQuirks: true });
      let lastReward: number | undefined;
      let turns = 0;
      for (const message of messages) {
        const body = message.body;
        if (message.direction === 'C>S' && body.includes('<actions')) {
          const outcome = simulator.step(messageActions(body));
          expect(outcome.kind).toBe('ok');
          lastReward = outcome.kind === 'ok' ? outcome.reward : undefined;
        } else if (body.includes('<round-init>')) {
          simulator.reset();
          lastReward = undefined;
        } else if (body.includes('<turn>')) {
          turns++;
          const listed = model.info.partiallyObserved ? simulator.observations() : simulator.stateFluents();
          expect(listed.map((f) => `${f.name}(${f.args.join(',')})=${f.value}`)).toEqual(turnFluents(body));
          expect(Number(elementText(body, 'immediate-reward'))).toBe(lastReward ?? 0);
        } else if (body.includes('<round-end>')) {
          expect(Number(elementText(body, 'immediate-reward'))).toBe(lastReward);
        }
      }
      expect(turns).toBeGreaterThanOrEqual(80);
    });
  }

  it('gives the recorded no-op round reward of sysadmin_inst_mdp__1 (218.0 with seed 0)', () => {
    const model = loadRddl(benchmarkSources('sysadmin_inst_mdp__1'));
    const simulator = model.createSimulator({ seed: 0, generator: 'rddlsim', rddlsimQuirks: true });
    let total = 0;
    for (let t = 0; t < model.info.horizon; t++) {
      const outcome = simulator.step([]);
      if (outcome.kind !== 'ok') throw new Error(outcome.kind);
      total += outcome.reward;
    }
    expect(total).toBe(218);
  });
});
