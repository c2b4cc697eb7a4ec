/**
 * MASSim's episode player for evaluations. A seed is two matches of the same configuration with that seed
 * (the same world), played in memory by `MassimMatchRunner` as `protoplay run massim` plays them: first the
 * evaluated policy as the first team against the opponent as the second, then the sides swapped, so
 * neither policy gains from a side of the map. A match's reward is the evaluated team's score, summed over
 * the match's simulations.
 *
 * The opponent (a sample team policy, or a trusted file) runs in the same thread, in a team runtime of its
 * own, outside the evaluated policy's budget: its faults end the episode as an environment error, never
 * as the evaluated policy's.
 */
import type { MassimServerConfig } from '../../envs/massim/api';
import type { PolicyFault, PolicySource } from '../../policy/types';
import type { Transcript } from '../../transcript/model';
import type { EpisodeOutcome, EpisodePlayer, EpisodePolicy, TraceStep } from '../evaluation-contract';
import type { MassimDecide } from './client';
import type { MassimMatchSetup } from './playground/options';
import { serverConfig } from './playground/server-config';
import { MassimMatchRunner, type MassimWireReply, type MassimWireTeam } from './runner';
import { batchedTeamDecide, type MassimTeamBatch, type MassimTeamBatchReply } from './team-batch';
import { MASSIM_TEAM_STEP, MASSIM_WIRE_EVENT } from './team-calls';
import { MassimTeamRuntime } from './team-runtime';

/** Matches a seed plays: one on each side. */
export const MASSIM_MATCHES_PER_SEED = 2;

/** The virtual clock's start: fixed, so a percept's deadline is the same whichever thread plays it. */
const START_TIME = Date.UTC(2026, 0, 1);

/** What a MASSim evaluation plays: a configuration, or the page's match setup, with exactly two teams. */
export interface MassimEvaluationSettings {
  /** The server configuration (the command line's: a file's, or a quick one). */
  config?: MassimServerConfig;
  /** The page's match setup (a quick one, the contest's, or a file with its includes), when no `config`. */
  match?: MassimMatchSetup;
  /** The other team's policy (seeded per episode). */
  opponent: Omit<PolicySource, 'seed' | 'context'>;
}

/** The player, made once per evaluation thread. */
export function createMassimEpisodePlayer(): EpisodePlayer {
  const opponentRuntime = new MassimTeamRuntime();
  let prepared: { settings: unknown; config: MassimServerConfig } | undefined;
  const configOf = (settings: unknown): MassimServerConfig => {
    if (prepared && prepared.settings === settings) return prepared.config;
    const { config: given, match, opponent } = (settings ?? {}) as Partial<MassimEvaluationSettings>;
    const config = given ?? (match ? serverConfig(match) : undefined);
    if (!config || !Array.isArray(config.teams))
      throw new Error('a MASSim evaluation needs a server configuration');
    if (config.teams.length !== 2)
      throw new Error(
        `a MASSim evaluation plays two teams, one the policy's and one the opponent's; the configuration has ${config.teams.length}`,
      );
    if (!opponent || typeof opponent.code !== 'string')
      throw new Error('a MASSim evaluation needs an opponent policy');
    prepared = { settings, config };
    return config;
  };
  return {
    prepare(settings) {
      configOf(settings);
    },
    policyRuntime: () => new MassimTeamRuntime(),
    async play(request, policy): Promise<EpisodeOutcome> {
      const settings = request.settings as MassimEvaluationSettings;
      const config = configOf(request.settings);
      const teams = config.teams.map((team) => team.name);
      const outcome: EpisodeOutcome = { rewards: [], turns: [], ...(request.trace ? { trace: [] } : {}) };
      for (let match = 1; match <= MASSIM_MATCHES_PER_SEED; match++) {
        const own = teams[(match - 1) % 2]!;
        const other = teams[match % 2]!;
        const played = await playMatch(
          config,
          settings.opponent,
          request.seed,
          match,
          own,
          other,
          policy,
          opponentRuntime,
          request.trace,
          request.record ?? false,
        );
        if (played.trace) outcome.trace!.push(...played.trace);
        if (played.transcript) (outcome.transcripts ??= []).push(played.transcript);
        if (played.fault) return { ...outcome, fault: played.fault };
        if (played.error) return { ...outcome, error: played.error };
        outcome.rewards.push(played.score);
        outcome.turns.push(played.steps);
      }
      return outcome;
    },
  };
}

interface MatchOutcome {
  score: number;
  steps: number;
  trace?: TraceStep[];
  /** The match's messages, when recorded. */
  transcript?: Transcript;
  fault?: EpisodeOutcome['fault'];
  error?: string;
}

/** One match: the policy as team `own`, the opponent as `other`. */
async function playMatch(
  config: MassimServerConfig,
  opponent: MassimEvaluationSettings['opponent'],
  seed: number,
  match: number,
  own: string,
  other: string,
  policy: EpisodePolicy,
  opponentRuntime: MassimTeamRuntime,
  tracing: boolean,
  recording: boolean,
): Promise<MatchOutcome> {
  const trace: TraceStep[] | undefined = tracing ? [] : undefined;
  const loaded = await policy.load({ team: own, opponent: other, match });
  if (!loaded.ok) return { score: 0, steps: 0, fault: faultAt(loaded.fault, match, 0) };
  const opponentLoaded = opponentRuntime.load({ ...opponent, seed, context: { team: other } });
  if (!opponentLoaded.ok)
    return {
      score: 0,
      steps: 0,
      error: `the opponent ${opponent.fileName} did not load: ${opponentLoaded.fault.message}`,
    };
  const wire = loaded.hooks.includes('onMessage') && !loaded.hooks.includes('act');

  let fault: EpisodeOutcome['fault'];
  let error: string | undefined;
  let steps = 0;
  let wireEvents = 0;
  // The runner exists before any decision is asked for.
  const stop = () => runner.stop();

  const decideOwn: MassimDecide = batchedTeamDecide(async (batch: MassimTeamBatch) => {
    const turn = ++steps;
    const called = await policy.call(MASSIM_TEAM_STEP, [batch], { round: match, turn });
    if (!called.ok || fault) {
      if (!called.ok) fault ??= faultAt(called.fault, match, turn);
      stop();
      return { actions: batch.agents.map(() => null) };
    }
    const reply = called.value as MassimTeamBatchReply;
    trace?.push({
      round: match,
      turn,
      actions: JSON.stringify(batch.agents.map((agent, i) => [agent, reply.actions[i] ?? null])),
    });
    return reply;
  });
  const wireOwn: MassimWireTeam = async (event) => {
    const turn = ++wireEvents;
    if (event.kind === 'frame' && event.text.includes('"request-action"')) steps++;
    const called = await policy.call(MASSIM_WIRE_EVENT, [event], { round: match, turn });
    if (!called.ok) {
      fault ??= faultAt(called.fault, match, turn);
      stop();
      return undefined;
    }
    const reply = called.value as MassimWireReply;
    if (reply.frames?.length)
      trace?.push({ round: match, turn, actions: JSON.stringify([event.agent, reply.frames]) });
    return reply;
  };
  const decideOther: MassimDecide = batchedTeamDecide(async (batch: MassimTeamBatch) => {
    const called = await opponentRuntime.call(MASSIM_TEAM_STEP, [batch], {});
    if (!called.ok) {
      error ??= `the opponent ${opponent.fileName} failed: ${called.fault.message}`;
      stop();
      return { actions: batch.agents.map(() => null) };
    }
    return called.value as MassimTeamBatchReply;
  });

  const scores: Record<string, number>[] = [];
  const runner: MassimMatchRunner = new MassimMatchRunner({
    config: config,
    teams: wire ? { [other]: decideOther } : { [own]: decideOwn, [other]: decideOther },
    ...(wire ? { wireTeams: { [own]: wireOwn } } : {}),
    seed,
    timing: 'virtual',
    startTime: START_TIME,
    recordWorld: false,
    recording: { keep: recording },
    onHostEvent: (event) => {
      if (event.kind === 'simulation-end') scores.push(event.scores);
    },
  });
  await runner.run();
  const result: MatchOutcome = {
    score: scores.reduce((sum, s) => sum + (s[own] ?? 0), 0),
    steps,
    ...(trace ? { trace } : {}),
    ...(recording ? { transcript: runner.transcript } : {}),
  };
  if (fault) return { ...result, fault };
  if (error) return { ...result, error };
  const expected = config.match.length;
  if (scores.length < expected)
    return {
      ...result,
      error: `match ${match} ended after ${scores.length} of ${expected} simulations`,
    };
  return result;
}

function faultAt(fault: PolicyFault, round: number, turn: number): NonNullable<EpisodeOutcome['fault']> {
  return { message: fault.message, round, turn, ...(fault.location ? { location: fault.location } : {}) };
}
