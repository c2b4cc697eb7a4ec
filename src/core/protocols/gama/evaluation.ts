/**
 * GAMA's episode player for evaluations: `rounds` episodes of the scavenger simulation (the same
 * `playGamaEpisodes` that `protoplay run gama` plays) for one seed, the policy answering every
 * scavenger's decisions; an episode's reward is the sum of the scavengers' rewards.
 */
import { findScavengerScenario } from '../../envs/scavenger/scenarios';
import type { PolicyFault } from '../../policy/types';
import type { EpisodeOutcome, EpisodePlayer, TraceStep } from '../evaluation-contract';
import { TranscriptRecorder } from '../../transcript/recorder';
import { playGamaEpisodes } from './episodes';
import { GAMA_ACT, GamaPolicyRuntime } from './policy-runtime';
import type { GamaSimulationOptions } from './simulation';

/** What a GAMA evaluation plays: the simulation's options, the scenario by name or letter. */
export interface GamaEvaluationSettings extends Omit<
  GamaSimulationOptions,
  'scenario' | 'seed' | 'onNote' | 'onEpisodeEnd' | 'onCycle'
> {
  scenario: string;
}

/** The player, made once per evaluation thread. */
export function createGamaEpisodePlayer(): EpisodePlayer {
  const scenarioOf = (settings: GamaEvaluationSettings) => {
    const scenario = findScavengerScenario(settings.scenario);
    if (!scenario) throw new Error(`there is no scavenger scenario '${settings.scenario}'`);
    return scenario;
  };
  return {
    prepare(settings) {
      scenarioOf(settings as GamaEvaluationSettings);
    },
    policyRuntime: () => new GamaPolicyRuntime(),
    async play(request, policy): Promise<EpisodeOutcome> {
      const settings = request.settings as GamaEvaluationSettings;
      const loaded = await policy.load({});
      if (!loaded.ok) return { rewards: [], turns: [], fault: faultAt(loaded.fault, 0, 0) };
      let fault: EpisodeOutcome['fault'];
      let episode = 1;
      let calls = 0;
      const trace: TraceStep[] | undefined = request.trace ? [] : undefined;
      const { scenario: _name, ...options } = settings;
      const recorder = request.record
        ? new TranscriptRecorder({ protocol: 'gama', meta: { seed: request.seed } })
        : undefined;
      const results = await playGamaEpisodes({
        ...(recorder ? { recorder } : {}),
        simulation: { ...options, scenario: scenarioOf(settings), seed: request.seed },
        episodes: request.rounds,
        signal: {
          get aborted() {
            return fault !== undefined;
          },
        },
        decide: async (decision) => {
          const turn = ++calls;
          const outcome = await policy.call(GAMA_ACT, [decision], { round: episode, turn });
          if (!outcome.ok) {
            fault ??= faultAt(outcome.fault, episode, turn);
            throw new Error(outcome.fault.message);
          }
          trace?.push({ round: episode, turn, actions: JSON.stringify([decision.id, outcome.value]) });
          return outcome.value as string;
        },
        onEpisodeEnd: (_result, played) => {
          episode = played + 1;
          calls = 0;
        },
      });
      const complete = results.filter((r) => r.completed);
      const outcome: EpisodeOutcome = {
        rewards: complete.map((r) => r.scavengers.reduce((sum, s) => sum + s.reward, 0)),
        turns: complete.map((r) => r.cycles),
        ...(trace ? { trace } : {}),
        ...(recorder ? { transcripts: [recorder.transcript] } : {}),
      };
      if (fault) return { ...outcome, fault };
      if (complete.length < request.rounds) {
        const reason = results.find((r) => !r.completed)?.reason ?? 'the connection closed';
        return { ...outcome, error: `an episode ended early: ${reason}` };
      }
      return outcome;
    },
  };
}

function faultAt(fault: PolicyFault, round: number, turn: number): NonNullable<EpisodeOutcome['fault']> {
  return { message: fault.message, round, turn, ...(fault.location ? { location: fault.location } : {}) };
}
