/**
 * Reading a live session's transcript where it is recorded, in the session worker: every message is
 * parsed once, here, and the page receives the reading (log rows, where the turns are, round rewards,
 * notes) with each batch instead of parsing every message itself. A turn's fluents are not sent: the page
 * reads them from the message when it shows that turn. The news of a batch is what changed since the
 * previous one.
 */
import type { Annotation, TranscriptMessage } from '../transcript/model';
import type { TranscriptReader } from '../protocols/reading';
import type { ReaderNews } from '../protocols/session-contract';

/** Turns what a reader reads into news, batch by batch. */
export class ReaderNewsBuilder {
  readonly #reader: TranscriptReader;
  #messagesSent = 0;
  #turnsSent = 0;
  #roundsSent = 0;
  #notesSent = 0;

  constructor(reader: TranscriptReader) {
    this.#reader = reader;
  }

  /**
   * Reads the new messages and annotations; returns what changed. Rows, turns and notes only grow; the
   * round under way changes as its steps end, so the last round sent is sent again.
   */
  take(messages: readonly TranscriptMessage[], annotations: readonly Annotation[]): ReaderNews {
    const reader = this.#reader;
    reader.append(messages, annotations);
    const roundsFrom = Math.max(0, this.#roundsSent - 1);
    const news: ReaderNews = {
      messages: reader.messages.slice(this.#messagesSent),
      turns: reader.turns
        .slice(this.#turnsSent)
        .map(({ index, round, turn, reward }) => ({ index, round, turn, reward })),
      roundsFrom,
      rounds: reader.rounds.slice(roundsFrom),
      notes: reader.notes.slice(this.#notesSent),
    };
    this.#messagesSent = reader.messages.length;
    this.#turnsSent = reader.turns.length;
    this.#roundsSent = reader.rounds.length;
    this.#notesSent = reader.notes.length;
    return news;
  }
}
