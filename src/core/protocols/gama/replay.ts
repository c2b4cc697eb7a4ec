/**
 * A GAMA recording played again: here the emulated side is GAMA itself (the simulation, the WebSocket
 * client), and the agent's side is the API server's replies. Each episode (one connection) gets a fresh
 * `GamaSimulation` on the scenario its scenario message names, fed the recorded replies in order; every
 * frame it sends (scenario, connects, requests with observation and reward) is compared with the recorded
 * one, member by member.
 *
 * A Protoplay recording carries its seed, cycles per episode and switches; a frame log of a real GAMA
 * model carries none of them, and its map is GAMA's own: the scenario message names it, and when it is
 * not one of Protoplay's the user picks the scenario to compare with.
 */
import { findScavengerScenario, SCAVENGER_SCENARIOS } from '../../envs/scavenger';
import { ProtoplayError } from '../../errors';
import type { Transcript, TranscriptMessage } from '../../transcript/model';
import {
  compareConversation,
  mergeComparisons,
  ReplayPacer,
  type EmulatedMessage,
  type ReplayPlan,
  type ReplayReport,
  type ReplaySetup,
  type TranscriptReplay,
} from '../replay';
import { readWire, windowOf } from './playground/replayed-worlds';
import { GamaSimulation } from './simulation';

/** The episodes: the connections that carry GAMA's frames, in order, each with its data messages. */
function episodesOf(transcript: Transcript): TranscriptMessage[][] {
  const byConnection = new Map<string, TranscriptMessage[]>();
  for (const message of transcript.messages) {
    if (message.kind !== 'data') continue;
    const list = byConnection.get(message.conn) ?? [];
    byConnection.set(message.conn, list);
    list.push(message);
  }
  return [...byConnection.values()].filter((messages) => messages.some((m) => m.dir === 'c2s'));
}

/** The scenario the first episode's scenario message names. */
function recordedScenario(transcript: Transcript): string | undefined {
  const first = episodesOf(transcript)[0];
  return first && readWire(first.filter((m) => m.dir === 'c2s')).scenarioName;
}

/** The GAMA replay. */
export const gamaReplay: TranscriptReplay = {
  plan(transcript): ReplayPlan {
    const named = recordedScenario(transcript);
    const seed = transcript.meta.seed;
    return {
      ...(named !== undefined && findScavengerScenario(named) ? { environment: named } : {}),
      ...(typeof seed === 'number' ? { seed } : {}),
      choices: SCAVENGER_SCENARIOS.map((s) => ({ id: s.name, label: s.label })),
      ...(episodesOf(transcript).length === 0 ? { impossible: 'the recording holds no GAMA frame' } : {}),
    };
  },

  async run(transcript, setup: ReplaySetup = {}, watch): Promise<ReplayReport> {
    const plan = gamaReplay.plan(transcript);
    if (plan.impossible) throw new ProtoplayError('gama.replay.empty', plan.impossible);
    const named = recordedScenario(transcript);
    const scenarioId = plan.environment ?? setup.environment;
    if (scenarioId === undefined)
      throw new ProtoplayError(
        'gama.replay.scenario',
        named === undefined
          ? 'the recording has no scenario message: choose the scenario to compare with'
          : `'${named}' is not one of Protoplay's scenarios (its map is not on the wire): choose the scenario to compare with`,
      );
    const scenario = findScavengerScenario(scenarioId);
    if (!scenario) throw new ProtoplayError('gama.replay.scenario', `there is no scenario '${scenarioId}'`);
    const meta = transcript.meta;
    const seed = plan.seed ?? setup.seed ?? 0;
    const notes: string[] = [];
    const episodes = episodesOf(transcript);
    const pacer = new ReplayPacer(
      episodes.reduce((sum, messages) => sum + messages.length, 0),
      watch,
    );
    let done = 0;
    const parts = [];
    for (const [episode, messages] of episodes.entries()) {
      const sent = messages.filter((m) => m.dir === 'c2s');
      const wire = readWire(sent);
      const emulated: EmulatedMessage[] = [];
      const simulation = new GamaSimulation({
        scenario,
        seed: seed + episode,
        maxCycles: typeof meta.cycles === 'number' ? meta.cycles : wire.cycles,
        observation: windowOf(wire.state),
        faithfulQuirks: meta.faithfulQuirks === true,
        sendTerminal: meta.sendTerminal !== false,
      });
      const peer = simulation.connect(
        { send: (text) => emulated.push({ text }), close: () => undefined },
        { id: messages[0]!.conn },
      );
      for (const reply of messages) {
        done++;
        if (pacer.due()) await pacer.pause(done);
        if (reply.dir === 's2c') peer.receive(reply.text ?? '');
      }
      parts.push(compareConversation(sent, emulated, { conn: messages[0]!.conn }));
    }
    pacer.finish();
    if (!plan.environment)
      notes.push(
        `${named === undefined ? 'the recording names no scenario' : `'${named}' is not one of Protoplay's scenarios`}: compared with ${scenario.label}, which you chose`,
      );
    if (plan.seed === undefined)
      notes.push(`the recording carries no seed: episode k was played with seed ${seed} + k`);
    if (typeof meta.cycles !== 'number')
      notes.push('the recording does not say how many cycles an episode has: as many as it recorded');
    return {
      environment: scenario.label,
      environmentFrom: plan.environment ? 'recording' : 'chosen',
      seed,
      seedFrom: plan.seed !== undefined ? 'recording' : setup.seed !== undefined ? 'chosen' : 'default',
      ...mergeComparisons(parts),
      notes,
    };
  },
};
