/**
 * "Continue in the playground": how long a recording takes to be played again against the emulated host
 * and compared, through the path the page runs (`answerReplay` on the transcript read back from its JSON,
 * as the session worker does), against the baseline of playing and recording the same session in the
 * same run. MASSim: the playground's default match shape (2 teams x 5 agents, 200 steps, 40 x 40), agents
 * wandering; GAMA: one 1,000-cycle episode of scenario C (12 scavengers), random moves without tags.
 * Two more rows per session: the replay watched as the page watches it (progress and a cancel check, with
 * a pause every 40 ms of work), and `protoplay replay FILE --json` run in this process on the JSON file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommandLine } from '../../cli/command-line/dispatch';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import { TOOL_COMMANDS } from '../../cli/tools';
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

/** `protoplay replay FILE --json` in this process, its output kept; exit 0 expected. */
async function replayCommand(file: string): Promise<void> {
  let out = '';
  const sink = { write: (text: string) => ((out += text), true) };
  const code = await runCommandLine(
    ['replay', file, '--json'],
    PROTOCOL_COMMANDS,
    { io: { stdout: sink, stderr: sink, cwd: process.cwd() } },
    TOOL_COMMANDS,
  );
  if (code !== 0) throw new Error(`protoplay replay exited ${code}: ${out.slice(0, 300)}`);
}

/** The replay as the session worker runs it: the JSON read back, then played and compared. */
async function replayFromJson(json: string, watched = false): Promise<number> {
  let reports = 0;
  const answer = await answerReplay(
    parseTranscriptJson(json),
    PROTOCOLS,
    {},
    watched ? { progress: () => reports++, cancelled: () => false } : undefined,
  );
  if (watched && reports === 0) throw new Error('the watched replay reported no progress');
  if (!('report' in answer) || answer.report.differing !== 0)
    throw new Error(`the replay did not reproduce the recording: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.report.compared;
}

export default async function replayBench(): Promise<void> {
  const rows: (string | number)[][] = [['session', 'messages', 'ms per session', 'messages/s', 'x baseline']];
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-replay-bench-'));
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
    const watched: Rate = await measureRate(
      `${name}: replay watched (progress, cancel check)`,
      messages,
      () => replayFromJson(json, true),
      { repeats: 3 },
    );
    rows.push([
      `${name}: replay watched (progress, cancel check)`,
      messages,
      watched.seconds * 1000,
      watched.opsPerSecond,
      watched.seconds / baseline.seconds,
    ]);
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    await writeFile(file, json);
    const command: Rate = await measureRate(
      `${name}: protoplay replay`,
      messages,
      () => replayCommand(file),
      {
        repeats: 3,
      },
    );
    rows.push([
      `${name}: protoplay replay FILE --json`,
      messages,
      command.seconds * 1000,
      command.opsPerSecond,
      command.seconds / baseline.seconds,
    ]);
  }
  await rm(dir, { recursive: true, force: true });
  printTable('Replay against the emulated host (answerReplay from the JSON)', rows);
}
