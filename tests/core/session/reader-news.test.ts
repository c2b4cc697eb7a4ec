import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../../src/core/transcript/model';
import { createRddlsimReader } from '../../../src/core/protocols/rddlsim/reader';
import { ReaderNewsBuilder } from '../../../src/core/session/reader-news';
import type { ReaderNews } from '../../../src/core/protocols/session-contract';
import { playEmulatedSession, splitIntoBatches } from './emulated-transcript';

/** What the page builds from the news: rows, turn places, rounds and notes. */
function gather(newsList: ReaderNews[]) {
  const messages = newsList.flatMap((n) => n.messages);
  const turns = newsList.flatMap((n) => n.turns);
  const notes = newsList.flatMap((n) => n.notes);
  const rounds: ReaderNews['rounds'] = [];
  for (const news of newsList) rounds.splice(news.roundsFrom, Infinity, ...news.rounds);
  return { messages, turns, rounds, notes };
}

/** The page's own reading of the whole transcript at once. */
function readAtOnce(transcript: Transcript) {
  const reader = createRddlsimReader();
  reader.append(transcript.messages, transcript.annotations);
  return reader;
}

describe('the session worker’s reading news', () => {
  it('adds up, batch by batch, to the page’s reading of the whole transcript', async () => {
    const transcript = await playEmulatedSession(4);
    const builder = new ReaderNewsBuilder(createRddlsimReader());
    const news = splitIntoBatches(transcript, 7).map((b) => builder.take(b.messages, b.annotations));
    const whole = readAtOnce(transcript);
    const gathered = gather(news);
    expect(gathered.messages).toEqual(whole.messages);
    expect(gathered.rounds).toEqual(whole.rounds);
    expect(gathered.notes).toEqual(whole.notes);
    expect(gathered.turns).toEqual(
      whole.turns.map(({ index, round, turn, reward }) => ({ index, round, turn, reward })),
    );
    // Rounds under way are sent again as they grow, finished ones once.
    expect(news.some((n) => n.roundsFrom > 0)).toBe(true);
  });

  it('sends no fluents: the page reads those from the message it shows', async () => {
    const transcript = await playEmulatedSession(1);
    const news = new ReaderNewsBuilder(createRddlsimReader()).take(
      transcript.messages,
      transcript.annotations,
    );
    expect(news.turns.length).toBeGreaterThan(0);
    for (const turn of news.turns)
      expect(Object.keys(turn).sort()).toEqual(['index', 'reward', 'round', 'turn']);
  });
});
