/**
 * rddlsim's episode player for evaluations: one emulated session (the same `EmulatedSession`, host and
 * client adapter `protoplay run rddlsim` plays) of N rounds for one seed, with the policy in the same
 * thread. An episode for seed S gives the rewards `protoplay run rddlsim --seed S --rounds N` prints for
 * the same policy, so any evaluated round can be replayed and watched.
 */
import type { RddlSource } from '../../envs/rddl/api';
import type { CallOutcome, CallSite, PolicyFault } from '../../policy/types';
import type { EpisodeOutcome, EpisodePlayer, TraceStep } from '../evaluation-contract';
import { encodeActions, instanceSummary } from './action-encoding';
import {
  loadExampleEnvironment,
  loadSessionEnvironment,
  type LoadedEnvironment,
} from './playground/environments';
import { EmulatedSession } from './session';

/** What an rddlsim evaluation plays: a built-in example, or RDDL texts and the instance to play. */
export interface RddlEvaluationSettings {
  /** A built-in example's id (used when `files` is absent). */
  example?: string;
  files?: RddlSource[];
  /** The instance, when the texts define several. */
  instance?: string;
  /** The simulator's random numbers: Protoplay's (default) or rddlsim's own. */
  semantics?: 'protoplay' | 'rddlsim';
  /** rddlsim's evaluation quirks with Protoplay's random numbers. */
  rddlsimQuirks?: boolean;
}

/** The player, made once per evaluation thread. */
export function createRddlsimEpisodePlayer(): EpisodePlayer {
  let environment: LoadedEnvironment | undefined;
  let prepared: RddlEvaluationSettings | undefined;
  const load = (settings: RddlEvaluationSettings): LoadedEnvironment => {
    if (settings.files) {
      return loadSessionEnvironment({
        files: settings.files,
        ...(settings.instance ? { instance: settings.instance } : {}),
        rddlsimQuirks: settings.semantics === 'rddlsim' || (settings.rddlsimQuirks ?? false),
      });
    }
    if (!settings.example) throw new Error('give RDDL files or the id of a built-in example');
    return loadExampleEnvironment(settings.example);
  };
  return {
    prepare(settings) {
      prepared = settings as RddlEvaluationSettings;
      environment = load(prepared);
    },
    async play(request, policy): Promise<EpisodeOutcome> {
      const settings = request.settings as RddlEvaluationSettings;
      if (settings !== prepared || !environment) this.prepare(settings);
      const { model, task } = environment!;
      const info = model.info;
      const loaded = await policy.load({ instance: instanceSummary(info) });
      if (!loaded.ok) return { rewards: [], turns: [], fault: faultAt(loaded.fault, { round: 0, turn: 0 }) };
      let fault: EpisodeOutcome['fault'];
      const trace: TraceStep[] | undefined = request.trace ? [] : undefined;
      const judge = (outcome: CallOutcome, round: number, turn: number): CallOutcome => {
        if (!outcome.ok) {
          fault ??= faultAt(outcome.fault, { round, turn });
          return outcome;
        }
        const { actions, problems } = encodeActions(outcome.value, { info });
        if (problems.length > 0) {
          const message = `invalid actions: ${problems.map((p) => p.message).join('; ')}`;
          fault ??= { message, round, turn };
          return { ok: false, fault: { kind: 'result', message, hook: 'act' }, logs: [], ms: outcome.ms };
        }
        trace?.push({ round, turn, actions: canonicalJson(actions) });
        return outcome;
      };
      const semantics = settings.semantics ?? 'protoplay';
      const session = new EmulatedSession({
        model,
        task,
        rounds: request.rounds,
        seed: request.seed,
        rddlsimQuirks: semantics === 'rddlsim' || (settings.rddlsimQuirks ?? false),
        generator: semantics,
        recordWorld: false,
        sendInvalidActions: true,
        onPolicyFault: 'stop',
        // The session's own time limit is the real server's; the evaluation budgets each call instead.
        timeLimitSeconds: 0,
        // A recorded episode's server clock stands still, so the time left it reports is the same for two
        // policies whose transcripts are read side by side.
        ...(request.record ? { serverClock: () => 0, meta: { seed: request.seed } } : {}),
        policy: {
          act: async (observation, site) =>
            judge(await policy.call('act', [observation], site), site.round, site.turn),
          hook: async (name, args, site) => {
            const outcome = await policy.call(name, args, site);
            if (!outcome.ok) fault ??= faultAt(outcome.fault, site);
            return outcome;
          },
        },
      });
      // Stepped rather than run: each step says which rounds ended, and why the server ended one early.
      const endedEarly: { unit: number; reason: string }[] = [];
      let counted = 0;
      while ((session.status === 'ready' || session.status === 'waiting') && fault === undefined) {
        for (const round of (await session.step()).roundsEnded) {
          if (!round.counted) continue;
          if (round.endedBy !== undefined) endedEarly.push({ unit: counted, reason: round.endedBy });
          counted++;
        }
      }
      if (fault && session.status !== 'finished') session.stop('the policy failed');
      const rounds = session.rounds.filter((round) => round.counted);
      const outcome: EpisodeOutcome = {
        rewards: rounds.map((round) => round.reward),
        turns: rounds.map((round) => round.turns),
        ...(endedEarly.length > 0 ? { endedEarly } : {}),
        ...(trace ? { trace } : {}),
        ...(request.record ? { transcripts: [session.transcript] } : {}),
      };
      if (fault) return { ...outcome, fault };
      if (rounds.length < request.rounds) {
        const notes = session.transcript.annotations.filter((a) => a.type === 'note');
        const last = (notes.at(-1)?.data as { message?: string } | undefined)?.message;
        return {
          ...outcome,
          error: `the session ended early: ${last ?? 'the server closed the connection'}`,
        };
      }
      return outcome;
    },
  };
}

/** JSON with object keys sorted, so the same actions always give the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** A policy fault where it happened in the episode. */
function faultAt(fault: PolicyFault, site: CallSite): NonNullable<EpisodeOutcome['fault']> {
  return { message: fault.message, ...site, ...(fault.location ? { location: fault.location } : {}) };
}
