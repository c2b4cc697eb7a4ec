/**
 * aisys's episode player for evaluations: one emulated session (the same `AisysSession`, client and host
 * `protoplay run aisys` plays) for one seed, until `rounds` runs have finished; each finished run's outcome
 * is one reward. The policy runs in the aisys policy runtime (a whole response's action requests per call).
 */
import type { PolicyFault } from '../../policy/types';
import type { EpisodeOutcome, EpisodePlayer, TraceStep } from '../evaluation-contract';
import { supervisedDecide } from './decide';
import { findAisysEnvironment } from './environments';
import { AisysPolicyRuntime } from './policy-runtime';
import { AisysSession } from './session';

/** What an aisys evaluation plays. */
export interface AisysEvaluationSettings {
  /** The environment (`nim`, `nim-strong`, `wumpus-cave`). */
  env: string;
  /** Several action requests per response (default true). */
  parallelRuns?: boolean;
  /** Reproduce the real server's bugs (default true). */
  faithfulBugs?: boolean;
}

/** The player, made once per evaluation thread. */
export function createAisysEpisodePlayer(): EpisodePlayer {
  return {
    prepare(settings) {
      const { env } = settings as AisysEvaluationSettings;
      if (!findAisysEnvironment(env)) throw new Error(`there is no aisys environment '${env}'`);
    },
    policyRuntime: () => new AisysPolicyRuntime(),
    async play(request, policy): Promise<EpisodeOutcome> {
      const settings = request.settings as AisysEvaluationSettings;
      const loaded = await policy.load({ env: settings.env });
      if (!loaded.ok) return { rewards: [], turns: [], fault: faultAt(loaded.fault, 0) };
      let fault: EpisodeOutcome['fault'];
      let batches = 0;
      const trace: TraceStep[] | undefined = request.trace ? [] : undefined;
      const decide = supervisedDecide(
        { call: (hook, args, _context, site) => policy.call(hook, args, site) },
        { env: settings.env },
      );
      const rewards: number[] = [];
      const turns: number[] = [];
      const session = new AisysSession({
        env: settings.env,
        runs: request.rounds,
        seed: request.seed,
        parallelRuns: settings.parallelRuns ?? true,
        host: { faithfulBugs: settings.faithfulBugs ?? true },
        record: request.record ?? false,
        decide: async (batch) => {
          batches++;
          const reply = await decide(batch);
          if (!reply.ok) fault ??= faultAt(reply.fault, batches);
          else trace?.push({ round: batches, turn: 1, actions: JSON.stringify(reply.actions) });
          return reply;
        },
        onEvent: (event) => {
          if (event.kind !== 'run-finished' || rewards.length >= request.rounds) return;
          rewards.push(typeof event.outcome === 'number' ? event.outcome : Number(event.outcome));
          turns.push(event.actions);
        },
      });
      const outcome = await session.run();
      const result: EpisodeOutcome = {
        rewards,
        turns,
        ...(trace ? { trace } : {}),
        ...(request.record ? { transcripts: [session.transcript] } : {}),
      };
      if (fault) return { ...result, fault };
      if (outcome.kind === 'policy-error')
        return { ...result, fault: { message: outcome.message, round: batches, turn: 1 } };
      if (outcome.kind !== 'finished')
        return {
          ...result,
          error: `the session ended early: ${'message' in outcome ? outcome.message : outcome.reason}`,
        };
      return result;
    },
  };
}

/** A policy fault at the n-th response answered. */
function faultAt(fault: PolicyFault, batch: number): NonNullable<EpisodeOutcome['fault']> {
  return {
    message: fault.message,
    round: batch,
    turn: 1,
    ...(fault.location ? { location: fault.location } : {}),
  };
}
