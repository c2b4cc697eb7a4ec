/** Log rows of a MASSim transcript as the message log shows them. */
import type { MessageSummary } from '../reading';
import type { MassimFrame, MassimRows } from './reading';

/**
 * Row `i` of `rows` as a message summary: its simulation as the round (from 1) and its step as the turn,
 * so the log places each message in the match.
 */
export function massimRowSummary(
  rows: Omit<MassimRows, 'from'> & { from?: number },
  i: number,
  connections: readonly string[],
  frames: readonly MassimFrame[],
): MessageSummary {
  const frame = frames[rows.frame[i]!];
  const unreadable = rows.unreadable[i];
  return {
    index: (rows.from ?? 0) + i,
    dir: rows.dir[i]!,
    conn: connections[rows.conn[i]!] ?? '',
    t: rows.t[i]!,
    type: rows.type[i]!,
    ...(frame ? { round: frame.simulation + 1, turn: frame.step } : {}),
    gist: rows.gist[i]!,
    ...(unreadable ? { unreadable } : {}),
  };
}
