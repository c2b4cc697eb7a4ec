/**
 * The episodes question (`ask('episodes')`, the results table) asked of a 100,000-frame GAMA frame log
 * while it is read, as the page asks it of a big file still being imported: the log grows by 2,000 frames
 * at a time and the views ask after each piece. Through the views' path (the runner's shown transcript,
 * which reads only the frames added since the last question), and the whole read it replaced
 * (`episodeResults` over every frame at each question), in the same run. Figures: the mean time a
 * question, the time of all questions together, and the last question's.
 *
 * `GAMA_EPISODES_MESSAGES=N` changes the size.
 */
import { findScavengerScenario, SCAVENGER_ACTIONS } from '../../src/core/envs/scavenger';
import {
  gamaFrameLogFormat,
  gamaProtocol,
  playGamaEpisodes,
  writeGamaFrameLog,
} from '../../src/core/protocols/gama';
import { episodeResults } from '../../src/core/protocols/gama/playground/episode-results';
import { Rng } from '../../src/core/random';
import type { Transcript } from '../../src/core/transcript/model';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { printTable, showingServices } from '../lib';

const MESSAGES = Number(process.env.GAMA_EPISODES_MESSAGES ?? 100_000);
/** Frames read between two questions. */
const PIECE = 2000;

const services = showingServices();

/** Episodes of scenario C (random moves, 250 cycles each) as a frame log read whole, to `MESSAGES` frames. */
async function bigFrameLog(): Promise<Transcript> {
  const rng = new Rng(1);
  const moves = SCAVENGER_ACTIONS.filter((action) => action !== 'tag');
  const recorder = new TranscriptRecorder({ protocol: 'gama', now: () => 0 });
  await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario('C')!, seed: 1, maxCycles: 250 },
    decide: () => moves[rng.nextInt(moves.length)]!,
    episodes: 1,
    recorder,
  });
  const episode = writeGamaFrameLog(recorder.transcript)
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
  const lines: string[] = [];
  while (lines.length < MESSAGES) lines.push(...episode.slice(0, MESSAGES - lines.length));
  const read = gamaFrameLogFormat.read([
    { name: 'big.gamalog', bytes: new TextEncoder().encode(`${lines.join('\n')}\n`) },
  ]);
  if (read.problems.length) throw new Error(JSON.stringify(read.problems.slice(0, 3)));
  return read.transcripts[0]!;
}

/** Grows a copy of `whole` piece by piece, asking after each; the time of every question in ms. */
function growAndAsk(
  whole: Transcript,
  ask: (growing: Transcript) => unknown,
): { times: number[]; last: unknown } {
  const growing: Transcript = { ...whole, messages: [] };
  const times: number[] = [];
  let last: unknown;
  for (let at = 0; at < whole.messages.length; at += PIECE) {
    growing.messages.push(...whole.messages.slice(at, at + PIECE));
    const start = performance.now();
    last = ask(growing);
    times.push(performance.now() - start);
  }
  return { times, last };
}

export default async function run(): Promise<void> {
  const whole = await bigFrameLog();
  const runner = await gamaProtocol.playground!.loadRunner();
  const rows: (string | number)[][] = [
    ['path', 'frames', 'questions', 'ms/question', 'all questions ms', 'last ms'],
  ];
  const wholeRead = growAndAsk(whole, (growing) => episodeResults(growing));
  let shown: ReturnType<typeof runner.show> | undefined;
  const incremental = growAndAsk(whole, (growing) => {
    shown ??= runner.show(
      {
        transcript: growing,
        origin: 'imported',
        name: 'big.gamalog',
        growing: { done: false, onGrow: () => undefined },
      },
      services,
    );
    return shown.ask('episodes', []);
  });
  shown?.abandon();
  if (JSON.stringify(wholeRead.last) !== JSON.stringify(incremental.last))
    throw new Error('the incremental results differ from the whole read');
  const sum = (times: number[]) => times.reduce((total, t) => total + t, 0);
  for (const [label, { times }] of [
    ['whole read each question (before)', wholeRead],
    ['shown transcript, incremental', incremental],
  ] as const)
    rows.push([
      label,
      whole.messages.length,
      times.length,
      sum(times) / times.length,
      sum(times),
      times.at(-1)!,
    ]);
  printTable(
    `GAMA episode results while a ${whole.messages.length.toLocaleString('en-US')}-frame log is read, ` +
      `a question every ${PIECE} frames (ratio ${(sum(wholeRead.times) / sum(incremental.times)).toFixed(0)}x)`,
    rows,
  );
}
