/**
 * Where one rddlsim session ends and the next begins in a text of several (a log of several runs, wire
 * text copied from a server that served them one after the other). rddlsim serves one session per
 * connection and ends it with `session-end`: a client's `session-request` after the server's
 * `session-end` opens the next session. A `session-request` before the session ended stays in the
 * session it came in, where the machines report it.
 */
import type { Direction } from '../../transcript/model';
import type { RecordingStreamSink } from '../contract';
import { rootName } from './interleave';

/** Follows a stream of rddlsim messages in order, numbering the sessions they belong to from 1. */
export class RddlsimSessionBoundaries {
  #ended = false;
  #session = 1;

  /**
   * Takes the next message (its direction and root element): true when it opens a session after the
   * first, whose connection `conn` then is.
   */
  opens(dir: Direction, root: string | undefined): boolean {
    if (dir === 's2c') {
      if (root === 'session-end') this.#ended = true;
      return false;
    }
    if (!this.#ended || root !== 'session-request') return false;
    this.#ended = false;
    this.#session++;
    return true;
  }

  /** The connection id of the session of the last message taken (`session-<n>`). */
  get conn(): string {
    return `session-${this.#session}`;
  }
}

/** Messages in order (direction and text), cut into the sessions they hold (one at least). */
export function splitRddlsimSessions<T extends { dir: Direction; text?: string | undefined }>(
  messages: readonly T[],
): T[][] {
  const boundaries = new RddlsimSessionBoundaries();
  const sessions: T[][] = [[]];
  for (const message of messages) {
    if (boundaries.opens(message.dir, rootName(message.text))) sessions.push([]);
    sessions[sessions.length - 1]!.push(message);
  }
  return sessions;
}

/**
 * Numbers the messages a streaming reader hands `sink`, in order: from 0 within each session, each on its
 * session's connection, `sink.session()` called where the next session begins. A sink that takes no
 * sessions gets one session (`session-1`), numbered on.
 */
export function numberRddlsimMessages(
  sink: RecordingStreamSink,
): (dir: Direction, root: string | undefined) => { index: number; conn: string } {
  const boundaries = sink.session ? new RddlsimSessionBoundaries() : undefined;
  let index = 0;
  return (dir, root) => {
    if (boundaries?.opens(dir, root)) {
      index = 0;
      sink.session!();
    }
    return { index: index++, conn: boundaries?.conn ?? 'session-1' };
  };
}
