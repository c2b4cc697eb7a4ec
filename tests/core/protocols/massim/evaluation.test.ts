/**
 * MASSim's episode player: a seed is two matches with the sides swapped, each match's reward the
 * evaluated team's score, exactly what the same two policies score when the match runner plays them
 * directly; a policy's fault ends the episode located at its match and step; the opponent's is the
 * environment's; traces of equal policies agree and those of different ones differ.
 */
import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { EpisodePolicy } from '../../../../src/core/protocols/evaluation-contract';
import {
  createMassimEpisodePlayer,
  type MassimEvaluationSettings,
} from '../../../../src/core/protocols/massim/evaluation';
import { MassimMatchRunner } from '../../../../src/core/protocols/massim/runner';
import { MASSIM_SAMPLES } from '../../../../src/core/protocols/massim/samples';
import {
  batchedTeamDecide,
  type MassimTeamBatchReply,
} from '../../../../src/core/protocols/massim/team-batch';
import { MASSIM_TEAM_STEP, MassimTeamRuntime } from '../../../../src/core/protocols/massim/team-runtime';
import type { PolicySource } from '../../../../src/core/policy/types';

type Source = Omit<PolicySource, 'seed' | 'context'>;

function sample(id: string): Source {
  const found = MASSIM_SAMPLES.find((s) => s.id === id)!;
  return { code: found.code, language: found.language, level: found.level, fileName: `${id}.ts` };
}

const config = quickMassimConfig({ agentsPerTeam: 3, steps: 120, width: 20, height: 20 });
const settings = (opponent: Source): MassimEvaluationSettings => ({ config, opponent });

/** The policy as the evaluation thread hands it to the player (without the thread's clock). */
function episodePolicy(source: Source, seed: number): EpisodePolicy & { calls: number } {
  const runtime = new MassimTeamRuntime();
  const policy = {
    calls: 0,
    load: (context: Record<string, unknown>) => Promise.resolve(runtime.load({ ...source, seed, context })),
    call: (hook: string, args: readonly unknown[]) => {
      policy.calls++;
      return runtime.call(hook, args, {});
    },
  };
  return policy;
}

/** Team scores of one match played by the runner itself, each team's policy seeded with `seed`. */
async function directMatch(a: Source, b: Source, seed: number): Promise<Record<string, number>> {
  const decide = (source: Source) => {
    const runtime = new MassimTeamRuntime();
    const loaded = runtime.load({ ...source, seed });
    expect(loaded.ok).toBe(true);
    return batchedTeamDecide(async (batch) => {
      const outcome = await runtime.call(MASSIM_TEAM_STEP, [batch], {});
      if (!outcome.ok) throw new Error(outcome.fault.message);
      return outcome.value as MassimTeamBatchReply;
    });
  };
  const totals: Record<string, number> = {};
  const runner = new MassimMatchRunner({
    config,
    teams: { A: decide(a), B: decide(b) },
    seed,
    timing: 'virtual',
    startTime: Date.UTC(2026, 0, 1),
    recordWorld: false,
    recording: { keep: false },
    onHostEvent: (event) => {
      if (event.kind === 'simulation-end')
        for (const [team, score] of Object.entries(event.scores)) totals[team] = (totals[team] ?? 0) + score;
    },
  });
  await runner.run();
  return totals;
}

describe('MASSim episode player', () => {
  it('plays the policy as team A, then as team B, each reward the score of its team', async () => {
    const player = createMassimEpisodePlayer();
    const fetcher = sample('block-fetcher');
    const mover = sample('random-mover');
    player.prepare(settings(mover));
    const seed = 3;
    const outcome = await player.play(
      { settings: settings(mover), seed, rounds: 2, trace: false },
      episodePolicy(fetcher, seed),
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.fault).toBeUndefined();
    const asA = await directMatch(fetcher, mover, seed);
    const asB = await directMatch(mover, fetcher, seed);
    expect(outcome.rewards).toEqual([asA.A, asB.B]);
    // The fetcher scores in this configuration, so the comparison above is not between zeros.
    expect(outcome.rewards.some((reward) => reward > 0)).toBe(true);
    expect(outcome.turns).toEqual([120, 120]);
  });

  it('ends the episode at a fault, located at the match and the step', async () => {
    const player = createMassimEpisodePlayer();
    const throws: Source = {
      code: "export function act(percept, agent) {\n  if (agent.step === 4) throw new Error('massim boom');\n  return { type: 'skip', p: [] };\n}\n",
      language: 'js',
      level: 'policy',
      fileName: 'throws.js',
    };
    const outcome = await player.play(
      { settings: settings(sample('skip')), seed: 1, rounds: 2, trace: false },
      episodePolicy(throws, 1),
    );
    expect(outcome.rewards).toEqual([]);
    expect(outcome.fault).toMatchObject({ round: 1, turn: 5, location: { line: 2 } });
    expect(outcome.fault!.message).toContain('massim boom');
  });

  it("reports the opponent's failure as the environment's", async () => {
    const player = createMassimEpisodePlayer();
    const broken: Source = {
      code: "export function act() { throw new Error('opponent down'); }\n",
      language: 'js',
      level: 'policy',
      fileName: 'broken.js',
    };
    const outcome = await player.play(
      { settings: settings(broken), seed: 1, rounds: 2, trace: false },
      episodePolicy(sample('skip'), 1),
    );
    expect(outcome.fault).toBeUndefined();
    expect(outcome.error).toMatch(/^the opponent broken\.js failed: .*opponent down/);
  });

  it('traces every step of both matches; equal policies agree, different ones diverge', async () => {
    const player = createMassimEpisodePlayer();
    const request = { settings: settings(sample('skip')), seed: 2, rounds: 2, trace: true };
    const first = await player.play(request, episodePolicy(sample('random-mover'), 2));
    const again = await player.play(request, episodePolicy(sample('random-mover'), 2));
    const other = await player.play(request, episodePolicy(sample('explorer'), 2));
    expect(first.trace).toHaveLength(240);
    expect(first.trace!.filter((step) => step.round === 2)).toHaveLength(120);
    expect(again.trace).toEqual(first.trace);
    const diverge = other.trace!.findIndex((step, i) => step.actions !== first.trace![i]!.actions);
    expect(diverge).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(first.trace![0]!.actions)).toHaveLength(3);
  });

  it("plays the page's match setup as the command line plays the configuration it stands for", async () => {
    const setup = { teams: ['A', 'B'], agentsPerTeam: 2, steps: 30, width: 15, height: 15 };
    const opponent = sample('random-mover');
    const request = (settings: MassimEvaluationSettings) => ({ settings, seed: 5, rounds: 2, trace: true });
    const page = { match: { kind: 'quick' as const, setup }, opponent };
    const cli = { config: quickMassimConfig(setup), opponent };
    const player = createMassimEpisodePlayer();
    player.prepare(page);
    const fromPage = await player.play(request(page), episodePolicy(sample('random-mover'), 5));
    const fromCli = await createMassimEpisodePlayer().play(
      request(cli),
      episodePolicy(sample('random-mover'), 5),
    );
    expect(fromPage.error).toBeUndefined();
    expect(fromPage.turns).toEqual([30, 30]);
    expect(fromPage).toEqual(fromCli);
    expect(() =>
      createMassimEpisodePlayer().prepare({
        match: { kind: 'quick', setup: { ...setup, teams: ['A', 'B', 'C'] } },
        opponent,
      }),
    ).toThrow(/two teams.*has 3/);
  });

  it('refuses a configuration without exactly two teams', () => {
    const player = createMassimEpisodePlayer();
    const three = quickMassimConfig({ teams: ['A', 'B', 'C'], agentsPerTeam: 1, steps: 5 });
    expect(() => player.prepare({ config: three, opponent: sample('skip') })).toThrow(/two teams.*has 3/);
  });
});
