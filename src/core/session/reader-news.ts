/**
 * Reading a live session's transcript where it is recorded, in the session worker: every message is
 * parsed once, here, and the page receives the reading (log rows, where the turns are, round rewards,
 * notes) with each batch instead of parsing every message itself. A turn's fluents are not sent: the page
 * reads them from the message when it shows that turn. The news of a batch is what changed since the
 * previous one.
 */
import type { Annotation, TranscriptMessage } from '../transcript/model';
import type { RoundSummary, TranscriptReader } from '../protocols/reading';
import type { ReaderNews } from '../protocols/session-contract';

/** Turns what a reader reads into news, batch by batch. */
export class ReaderNewsBuilder {
  readonly #reader: TranscriptReader;
  #messagesSent = 0;
  #turnsSent = 0;
  #roundsSent = 0;
  /** How many step rewards of the last round sent were sent. */
  #stepsSent = 0;
  #notesSent = 0;

  constructor(reader: TranscriptReader) {
    this.#reader = reader;
  }

  /**
   * Reads the new messages and annotations; returns what changed. Rows, turns and notes only grow; the
   * round under way changes as its steps end, so the last round sent is sent again, with only the step
   * rewards it did not carry before (`stepsFrom`): a round of a million turns costs each batch its new
   * steps, not the whole round again.
   */
  take(messages: readonly TranscriptMessage[], annotations: readonly Annotation[]): ReaderNews {
    const reader = this.#reader;
    reader.append(messages, annotations);
    const roundsFrom = Math.max(0, this.#roundsSent - 1);
    const stepsFrom = this.#roundsSent > 0 ? this.#stepsSent : 0;
    const rounds = reader.rounds.slice(roundsFrom);
    if (stepsFrom > 0 && rounds[0])
      rounds[0] = { ...rounds[0], stepRewards: rounds[0].stepRewards.slice(stepsFrom) };
    const news: ReaderNews = {
      messages: reader.messages.slice(this.#messagesSent),
      turns: reader.turns
        .slice(this.#turnsSent)
        .map(({ index, round, turn, reward }) => ({ index, round, turn, reward })),
      roundsFrom,
      stepsFrom,
      rounds,
      notes: reader.notes.slice(this.#notesSent),
    };
    this.#messagesSent = reader.messages.length;
    this.#turnsSent = reader.turns.length;
    this.#roundsSent = reader.rounds.length;
    this.#stepsSent = reader.rounds[reader.rounds.length - 1]?.stepRewards.length ?? 0;
    this.#notesSent = reader.notes.length;
    return news;
  }
}

/**
 * Applies a batch's round news to the rounds gathered so far (in place): rounds from `roundsFrom` on are
 * replaced, the first of them keeping the step rewards it had before `stepsFrom`.
 */
export function applyRoundNews(
  rounds: RoundSummary[],
  news: Pick<ReaderNews, 'roundsFrom' | 'stepsFrom' | 'rounds'>,
): void {
  news.rounds.forEach((round, i) => {
    const at = news.roundsFrom + i;
    const known = rounds[at];
    if (i === 0 && news.stepsFrom > 0 && known) {
      const steps = known.stepRewards;
      steps.length = news.stepsFrom;
      for (const reward of round.stepRewards) steps.push(reward);
      rounds[at] = { ...round, stepRewards: steps };
    } else {
      rounds[at] = round;
    }
  });
  rounds.length = news.roundsFrom + news.rounds.length;
}
