/** The views' reading of a counter transcript: a row per message, a round per game, a turn per state. */
import type {
  MessageSummary,
  RoundSummary,
  SessionNote,
  TranscriptReader,
  TurnSnapshot,
} from '../../../src/core/protocols/reading';
import type { Annotation, TranscriptMessage } from '../../../src/core/transcript/model';
import { readCounterMessage } from './messages';

export function createCounterReader(): TranscriptReader {
  const messages: MessageSummary[] = [];
  const rounds: RoundSummary[] = [];
  const turns: TurnSnapshot[] = [];
  const notes: SessionNote[] = [];
  return {
    messages,
    rounds,
    turns,
    notes,
    append(newMessages: readonly TranscriptMessage[], annotations: readonly Annotation[]) {
      for (const message of newMessages) {
        const base = { index: message.index, dir: message.dir, conn: message.conn, t: message.t };
        if (message.kind !== 'data') {
          messages.push({ ...base, type: message.kind, gist: message.text ?? '' });
          continue;
        }
        const read = readCounterMessage(message.text);
        if (!read) {
          messages.push({ ...base, type: '?', gist: '', unreadable: 'not a counter message' });
          continue;
        }
        if (read.type === 'start') rounds.push({ round: rounds.length + 1, stepRewards: [] });
        const round = rounds[rounds.length - 1];
        if (read.type === 'state') {
          // Read alone (the page reads a turn from its message), a state is a turn of no known round.
          if (round && turns.some((turn) => turn.round === round.round))
            round.stepRewards.push(Number(read.reward));
          const number = round?.round ?? 0;
          turns.push({
            index: message.index,
            round: number,
            turn: turns.filter((turn) => turn.round === number).length + 1,
            reward: Number(read.reward),
            observed: [{ name: 'value', args: [], value: String(read.value) }],
            noObservation: false,
          });
        }
        if (read.type === 'end' && round) {
          if (read.reward !== undefined) round.stepRewards.push(Number(read.reward));
          round.total = Number(read.total);
          round.endIndex = message.index;
        }
        const gist =
          read.type === 'add'
            ? `+${String(read.amount)}`
            : read.type === 'state'
              ? `value ${String(read.value)}`
              : '';
        messages.push({ ...base, type: read.type, gist, ...(round ? { round: round.round } : {}) });
      }
      for (const annotation of annotations) {
        if (annotation.type === 'violation' || annotation.type === 'note' || annotation.type === 'error')
          notes.push({
            index: annotation.index,
            kind: annotation.type,
            text: String((annotation.data as { message?: string })?.message ?? annotation.data),
          });
      }
    },
  };
}
