import { describe, expect, it } from 'vitest';
import { findScavengerScenario, SCAVENGER_ACTIONS } from '../../../../../src/core/envs/scavenger';
import {
  gamaFrameLogFormat,
  gamaProtocol,
  playGamaEpisodes,
  writeGamaFrameLog,
} from '../../../../../src/core/protocols/gama';
import {
  episodeResults,
  GAMA_EPISODE_NOTE,
  GamaEpisodeResults,
} from '../../../../../src/core/protocols/gama/playground/episode-results';
import type { GamaEpisodeView } from '../../../../../src/core/protocols/gama/playground/options';
import type { PlaygroundServices } from '../../../../../src/core/protocols/session-contract';
import { Rng } from '../../../../../src/core/random';
import type { Annotation, Transcript, TranscriptMessage } from '../../../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../../../src/core/transcript/recorder';

/** Episodes played by the emulator with random moves, recorded as a playground session records them. */
async function played(scenario: string, seed: number, episodes: number, maxCycles: number) {
  const rng = new Rng(seed);
  const recorder = new TranscriptRecorder({ protocol: 'gama', now: () => 0 });
  const results = await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario(scenario)!, seed, maxCycles },
    decide: () => SCAVENGER_ACTIONS[rng.nextInt(SCAVENGER_ACTIONS.length)]!,
    episodes,
    recorder,
  });
  return { results, transcript: recorder.transcript };
}

/** The same episodes as a real GAMA model's frame log gives them: the wire only. */
function frameLog(transcript: Transcript): Transcript {
  const text = writeGamaFrameLog(transcript);
  const read = gamaFrameLogFormat.read([{ name: 'x.gamalog', bytes: new TextEncoder().encode(text) }]);
  expect(read.problems).toEqual([]);
  return read.transcripts[0]!;
}

/** A damaged copy: frames lost, garbled, cut short, closes added, connections interleaved. */
function damaged(transcript: Transcript, seed: number): Transcript {
  const rng = new Rng(seed);
  const messages: TranscriptMessage[] = [];
  for (const message of transcript.messages) {
    const roll = rng.nextInt(40);
    if (roll === 0) continue;
    if (roll === 1 && message.text !== undefined)
      messages.push({ ...message, text: message.text.slice(0, 9) });
    else if (roll === 2)
      messages.push(message, { ...message, kind: 'close', text: undefined } as TranscriptMessage);
    else if (roll === 3) messages.push({ ...message, conn: `episode ${1 + rng.nextInt(4)}` });
    else messages.push(message);
  }
  return { ...transcript, messages: messages.slice(0, messages.length - rng.nextInt(50)) };
}

/** Reads `source` into a growing copy in pieces, asking after each: the answers are the whole read's. */
function expectSameWhileGrowing(source: Transcript, seed: number, pieces = 40): number {
  const rng = new Rng(seed);
  const growing: Transcript = { ...source, messages: [], annotations: [] };
  const results = new GamaEpisodeResults();
  let asked = 0;
  const average = Math.max(1, Math.ceil(source.messages.length / pieces));
  while (
    growing.messages.length < source.messages.length ||
    growing.annotations.length < source.annotations.length
  ) {
    const end = growing.messages.length + 1 + rng.nextInt(2 * average);
    growing.messages.push(...source.messages.slice(growing.messages.length, end));
    // Annotations come with the messages they belong to.
    while (
      growing.annotations.length < source.annotations.length &&
      source.annotations[growing.annotations.length]!.index < growing.messages.length
    )
      growing.annotations.push(source.annotations[growing.annotations.length]!);
    if (growing.messages.length >= source.messages.length)
      growing.annotations.push(...source.annotations.slice(growing.annotations.length));
    expect(results.read(growing)).toEqual(episodeResults(growing));
    asked++;
  }
  expect(results.read(growing)).toEqual(episodeResults(source));
  return asked;
}

/** The notes a playground session records at each episode's end. */
function withNotes(
  transcript: Transcript,
  results: Awaited<ReturnType<typeof played>>['results'],
): Transcript {
  const ends = transcript.messages.flatMap((m, i) => (m.kind === 'close' ? [i] : []));
  const notes: Annotation[] = results.map((result, i) => ({
    index: ends[i] ?? transcript.messages.length - 1,
    type: 'note',
    data: { code: GAMA_EPISODE_NOTE, text: `episode ${i + 1}`, episode: i + 1, result },
  }));
  return {
    ...transcript,
    annotations: [...transcript.annotations, ...notes].sort((a, b) => a.index - b.index),
  };
}

describe('the episode results of a GAMA transcript, read as it grows', () => {
  it('are the whole read’s at every step, for frame logs of every scenario', async () => {
    for (const [i, scenario] of ['A', 'B', 'C'].entries()) {
      const { transcript } = await played(scenario, i + 1, 3, 40);
      const log = frameLog(transcript);
      expect(episodeResults(log)).toHaveLength(3);
      expect(episodeResults(log).every((view) => view.fromWire)).toBe(true);
      expect(expectSameWhileGrowing(log, i)).toBeGreaterThan(10);
    }
  });

  it('are the whole read’s at every step, for damaged copies', async () => {
    const { transcript } = await played('C', 5, 4, 30);
    const log = frameLog(transcript);
    for (let seed = 1; seed <= 6; seed++) {
      const copy = damaged(log, seed);
      expect(episodeResults(copy).length).toBeGreaterThan(0);
      expectSameWhileGrowing(copy, seed);
    }
  });

  it('switch to the recorded results once a note comes, and back to the wire for another transcript', async () => {
    const { transcript, results: playedResults } = await played('B', 2, 3, 30);
    const noted = withNotes(transcript, playedResults);
    expectSameWhileGrowing(noted, 3);
    const results = new GamaEpisodeResults();
    const recorded = results.read(noted);
    expect(recorded.map((view: GamaEpisodeView) => view.fromWire)).toEqual([false, false, false]);
    expect(recorded.map((view) => view.result)).toEqual(playedResults);
    // Another transcript, without notes: its wire.
    const log = frameLog(transcript);
    expect(results.read(log)).toEqual(episodeResults(log));
    expect(results.read(log).every((view) => view.fromWire)).toBe(true);
  });

  it('read again from the start a transcript cut shorter or replaced', async () => {
    const log = frameLog((await played('C', 3, 3, 30)).transcript);
    const other = frameLog((await played('A', 4, 2, 50)).transcript);
    const results = new GamaEpisodeResults();
    const same: Transcript = { ...log, messages: [...log.messages] };
    expect(results.read(same)).toEqual(episodeResults(log));
    same.messages.length = Math.floor(log.messages.length / 2);
    expect(results.read(same)).toEqual(episodeResults(same));
    expect(results.read(same)).not.toEqual(episodeResults(log));
    expect(results.read(other)).toEqual(episodeResults(other));
    expect(results.read(log)).toEqual(episodeResults(log));
  });
});

describe('the cost of the episodes question', () => {
  function services(): PlaygroundServices {
    return {
      spawnPolicy: () => {
        throw new Error('no policy for a shown transcript');
      },
      listener: { update: () => undefined },
      nextFrame: () => undefined,
      keepTranscript: async () => undefined,
    };
  }

  it('reads only what was added since the last question, asked as the views ask a shown transcript', async () => {
    const log = frameLog((await played('C', 1, 1, 250)).transcript);
    // 100,000 frames: the played episode again and again, each on its own connection.
    const perEpisode = log.messages.length;
    const all: TranscriptMessage[] = Array.from({ length: 100_000 }, (_, i) => ({
      ...log.messages[i % perEpisode]!,
      index: i,
      conn: `episode ${1 + Math.floor(i / perEpisode)}`,
    }));
    let looked = 0;
    const transcript: Transcript = {
      ...log,
      messages: new Proxy<TranscriptMessage[]>([], {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) looked++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      }),
    };
    const growing = { done: false, onGrow: (_listener: () => void) => undefined };
    const runner = await gamaProtocol.playground!.loadRunner();
    const shown = runner.show({ transcript, origin: 'imported', growing }, services());
    let questions = 0;
    let lookedByQuestions = 0;
    for (let at = 0; at < all.length; at += 2000) {
      transcript.messages.push(...all.slice(at, at + 2000));
      for (let q = 0; q < 5; q++) {
        const before = looked;
        const views = shown.ask('episodes', []) as GamaEpisodeView[];
        lookedByQuestions += looked - before;
        questions++;
        if (q === 0 && at % 20_000 === 0)
          expect(views).toEqual(episodeResults({ ...transcript, messages: all.slice(0, at + 2000) }));
      }
    }
    growing.done = true;
    expect(shown.ask('episodes', [])).toEqual(episodeResults({ ...transcript, messages: all }));
    // Every frame read once over the 250 questions; the whole read would look at all of them each time.
    expect(questions).toBe(250);
    expect(lookedByQuestions).toBeLessThanOrEqual(all.length + questions);
    shown.abandon();
  });
});
