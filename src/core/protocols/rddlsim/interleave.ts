/**
 * Puts the two directions of an rddlsim connection back in one order when only the byte streams are
 * known (`c2s.raw` / `s2c.raw` captures carry no timing). The server only ever answers: after each client
 * message comes the server's answer up to the point where it waits again (after session-init, a turn, a
 * resource-notification or the session-end that follows the last round-end).
 */
import type { Direction, TranscriptMessage } from '../../transcript/model';
import { CLIENT_ROOTS, SERVER_ROOTS } from './messages';

/** A message of one direction, as framed. */
export interface DirectedText {
  dir: Direction;
  text: string | undefined;
  /** Original bytes when they are not UTF-8. */
  bytes: Uint8Array;
  framing: NonNullable<TranscriptMessage['framing']>;
}

/** The root element name of a message text (or `null` for the literal null), if it has one. */
export function rootName(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (text === 'null') return 'null';
  return /^\s*(?:<\?[^]*?\?>\s*)?<([A-Za-z_][\w.-]*)/.exec(text)?.[1];
}

/** Whether the server waits for the client after sending this message (else more of its answer follows). */
function serverWaitsAfter(root: string | undefined, next: string | undefined): boolean {
  if (root === 'round-init') return false;
  if (root === 'round-end') return next !== 'session-end';
  return true;
}

/** Orders client and server messages of one connection by cause: each client message, then its answer. */
export function interleaveByCause(
  client: readonly DirectedText[],
  server: readonly DirectedText[],
): DirectedText[] {
  const ordered: DirectedText[] = [];
  let s = 0;
  for (const message of client) {
    ordered.push(message);
    while (s < server.length) {
      const answer = server[s++]!;
      ordered.push(answer);
      if (serverWaitsAfter(rootName(answer.text), rootName(server[s]?.text))) break;
    }
  }
  ordered.push(...server.slice(s));
  return ordered;
}

/** Which way a message went, judged from its root element; undefined for roots of neither side. */
export function directionOfRoot(root: string | undefined): Direction | undefined {
  if (root === undefined) return undefined;
  if (root === 'null' || SERVER_ROOTS.includes(root)) return 's2c';
  if (CLIENT_ROOTS.includes(root)) return 'c2s';
  return undefined;
}
