/**
 * "Continue in the playground": how long a recording takes to be played again against the emulated host
 * and compared, through the path the page runs (`answerReplay` on the transcript read back from its JSON,
 * as the session worker does), against the baseline of playing and recording the same session in the
 * same run. MASSim: the playground's default match shape (2 teams x 5 agents, 200 steps, 40 x 40), agents
 * wandering; GAMA: one 1,000-cycle episode of scenario C (12 scavengers), random moves without tags.
 */
import { quickMassimConfig } from '../../src/core/envs/massim/index';
import { findScavengerScenario, SCAVENGER_ACTIONS } from '../../src/core/envs/scavenger';
import { playGamaEpisodes } from '../../src/core/protocols/gama';
import { createTeamDecide } from '../../src/core/protocols/massim/client';
import type { MassimAct } from '../../src/core/protocols/massim/policy-api';
import { MassimMatchRunner } from '../../src/core/protocols/massim/runner';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import { Rng } from '../../src/core/random';
import { answerReplay } from '../../src/core/session/replay-answer';
import { parseTranscriptJson, serialiseTranscript } from '../../src/core/transcript/json-format';
import type { Transcript } from '../../src/core/transcript/model';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { measureRate, printTable, type Rate } from '../lib';

const wander: MassimAct = (_percept, agent) => ({
  type: 'move',
  p: [(['n', 'e', 's', 'w'] as const)[agent.step % 4]!],
});

async function recordMassim(): Promise<Transcript> {
  const runner = new MassimMatchRunner({
    config: quickMassimConfig(),
    teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
    seed: 1,
    startTime: 0,
  });
  await runner.run();
  return runner.transcript;
}

async function recordGama(): Promise<Transcript> {
  const rng = new Rng(1);
  const moves = SCAVENGER_ACTIONS.filter((action) => action !== 'tag');
  const recorder = new TranscriptRecorder({ protocol: 'gama', meta: { seed: 1, cycles: 1000 } });
  await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario('C')!, seed: 1, maxCycles: 1000 },
    decide: () => moves[rng.nextInt(moves.length)]!,
    episodes: 1,
    recorder,
  });
  return recorder.transcript;
}

/** The replay as the session worker runs it: the JSON read back, then played and compared. */
async function replayFromJson(json: string): Promise<number> {
  const answer = await answerReplay(parseTranscriptJson(json), PROTOCOLS);
  if (!('report' in answer) || answer.report.differing !== 0)
    throw new Error(`the replay did not reproduce the recording: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.report.compared;
}

export default async function replayBench(): Promise<void> {
  const rows: (string | number)[][] = [['session', 'messages', 'ms per session', 'messages/s', 'x baseline']];
  for (const [name, record] of [
    ['MASSim 2 x 5 agents, 200 steps', recordMassim],
    ['GAMA scenario C, 1,000 cycles', recordGama],
  ] as const) {
    const transcript = await record();
    const json = serialiseTranscript(transcript);
    const messages = transcript.messages.length;
    const baseline: Rate = await measureRate(`${name}: play and record`, messages, record, { repeats: 3 });
    const compared = await replayFromJson(json);
    const replay: Rate = await measureRate(
      `${name}: replay and compare`,
      messages,
      () => replayFromJson(json),
      {
        repeats: 3,
      },
    );
    rows.push([
      `${name}: play and record (baseline)`,
      messages,
      baseline.seconds * 1000,
      baseline.opsPerSecond,
      1,
    ]);
    rows.push([
      `${name}: replay and compare ${compared} messages`,
      messages,
      replay.seconds * 1000,
      replay.opsPerSecond,
      replay.seconds / baseline.seconds,
    ]);
  }
  printTable('Replay against the emulated host (answerReplay from the JSON)', rows);
}
