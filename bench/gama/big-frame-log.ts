/**
 * Writes a large GAMA frame log for import benchmarks: one episode of scenario C (twelve scavengers, 21 x 11
 * observations) played by the emulator with random moves, its frames repeated as further episodes (each
 * starts with its scenario message) until the file holds the messages asked for; the last episode is cut
 * there, as a recording stopped mid-episode would be.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { findScavengerScenario, SCAVENGER_ACTIONS } from '../../src/core/envs/scavenger';
import { playGamaEpisodes, writeGamaFrameLog } from '../../src/core/protocols/gama';
import { Rng } from '../../src/core/random';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';

/** Cycles of the episode played; each is about 24 messages (a request and a reply per scavenger). */
const EPISODE_CYCLES = 250;

/** The frame lines of one played episode (no comments). */
async function playedEpisode(): Promise<string[]> {
  const rng = new Rng(1);
  // Tags would send scavengers to time-out, and they would ask less: moves keep every one asking.
  const moves = SCAVENGER_ACTIONS.filter((action) => action !== 'tag');
  const recorder = new TranscriptRecorder({ protocol: 'gama', now: () => 0 });
  await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario('C')!, seed: 1, maxCycles: EPISODE_CYCLES },
    decide: () => moves[rng.nextInt(moves.length)]!,
    episodes: 1,
    recorder,
  });
  return writeGamaFrameLog(recorder.transcript)
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Writes a frame log of exactly `messages` frames to `path`; resolves with its size in bytes. */
export async function writeBigGamaFrameLog(path: string, messages: number): Promise<{ size: number }> {
  const episode = await playedEpisode();
  const out = createWriteStream(path);
  let size = 0;
  const write = async (text: string) => {
    size += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('# gama-frame-log: one frame per line; episodes of a played one, repeated\n');
  for (let written = 0; written < messages;) {
    const lines = episode.slice(0, messages - written);
    await write(`${lines.join('\n')}\n`);
    written += lines.length;
  }
  out.end();
  await once(out, 'finish');
  return { size };
}
