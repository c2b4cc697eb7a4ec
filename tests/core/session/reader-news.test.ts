import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../../src/core/transcript/model';
import { createRddlsimReader } from '../../../src/core/protocols/rddlsim/reader';
import { ReaderNewsBuilder, applyRoundNews } from '../../../src/core/session/reader-news';
import type { ReaderNews } from '../../../src/core/protocols/session-contract';
import { playEmulatedSession, splitIntoBatches } from './emulated-transcript';

/** What the page builds from the news: rows, turn places, rounds and notes. */
function gather(newsList: ReaderNews[]) {
  const messages = newsList.flatMap((n) => n.messages);
  const turns = newsList.flatMap((n) => n.turns);
  const notes = newsList.flatMap((n) => n.notes);
  const rounds: ReaderNews['rounds'] = [];
  for (const news of newsList) applyRoundNews(rounds, news);
  return { messages, turns, rounds, notes };
}

/** A batch's news as the page gets it: serialised when taken, as the session worker sends it. */
function taken(
  builder: ReaderNewsBuilder,
  batch: { messages: Transcript['messages']; annotations: Transcript['annotations'] },
): ReaderNews {
  return JSON.parse(JSON.stringify(builder.take(batch.messages, batch.annotations))) as ReaderNews;
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
    const news = splitIntoBatches(transcript, 7).map((b) => taken(builder, b));
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

  it('sends each step reward once: a long round costs a batch its new steps, not the round so far', async () => {
    const transcript = await playEmulatedSession(2);
    const builder = new ReaderNewsBuilder(createRddlsimReader());
    const news = splitIntoBatches(transcript, 3).map((b) => taken(builder, b));
    const whole = readAtOnce(transcript);
    const steps = whole.rounds.reduce((sum, r) => sum + r.stepRewards.length, 0);
    expect(steps).toBeGreaterThan(10);
    const sent = news.reduce((sum, n) => sum + n.rounds.reduce((s, r) => s + r.stepRewards.length, 0), 0);
    expect(sent).toBe(steps);
    expect(gather(news).rounds).toEqual(whole.rounds);
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
