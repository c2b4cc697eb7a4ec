/**
 * A transcript record turned into what the machines reason about: a typed message, or the located reason it
 * is not one. The host and the client adapter build these from messages they already parsed, so the machines
 * never parse twice.
 */
import { ProtoplayError, describeError } from '../../errors';
import { base64ToBytes } from '../../transcript/bytes';
import type { Direction, TranscriptMessage } from '../../transcript/model';
import { RecentReadings } from '../../transcript/recent-readings';
import { parseClientMessage, parseServerMessage } from './codec';
import type { RddlsimMessage } from './messages';

/** A wire message with its parse result, or a connection event. */
export type DecodedMessage =
  | {
      kind: 'data';
      index: number;
      dir: Direction;
      framing: 'nul' | 'none';
      result: { ok: true; message: RddlsimMessage } | { ok: false; error: ProtoplayError };
    }
  | { kind: 'open' | 'close' | 'error'; index: number; dir: Direction };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * How many of the latest decodes are kept. Validation runs the machines of both roles over a message one
 * after the other, and a reader reads the same messages a batch later (a thousand at most, see
 * `readRecordingInChunks` and `inspectStreamed`): within this many messages they all meet the same decode.
 * No more than that: a decoded turn of a big instance takes tens of KB, and twice as many (2048) made
 * `inspect` of a 77 MB crossing_traffic recording need a 58 MB heap where it now needs under 40.
 */
export const RECENT_DECODES = 1024;

/** The latest decodes (see `RecentReadings`): parsing is most of what reading a big recording costs. */
const recentDecodes = new RecentReadings<DecodedMessage>(RECENT_DECODES);

/**
 * Parses one transcript record in the direction it travelled (client messages c2s, server messages s2c).
 * A record decoded lately gets the same decode back: callers must not change what they are given.
 */
export function decodeTranscriptMessage(message: TranscriptMessage): DecodedMessage {
  return recentDecodes.read(message, decodeAfresh);
}

function decodeAfresh(message: TranscriptMessage): DecodedMessage {
  const { index, dir } = message;
  if (message.kind !== 'data') return { kind: message.kind, index, dir };
  const framing = message.framing === 'none' ? 'none' : 'nul';
  const source = `message ${index}`;
  try {
    const text = message.text ?? decodeStrictly(message.base64 ?? '', source);
    const parsed = dir === 'c2s' ? parseClientMessage(text, source) : parseServerMessage(text, source);
    return { kind: 'data', index, dir, framing, result: { ok: true, message: parsed } };
  } catch (error) {
    const failure =
      error instanceof ProtoplayError
        ? error
        : new ProtoplayError('rddlsim.message.invalid', describeError(error));
    return { kind: 'data', index, dir, framing, result: { ok: false, error: failure } };
  }
}

function decodeStrictly(base64: string, source: string): string {
  try {
    return strictUtf8.decode(base64ToBytes(base64));
  } catch {
    throw new ProtoplayError('rddlsim.xml.malformed', 'malformed XML: the bytes are not valid UTF-8', {
      source,
      line: 1,
      column: 1,
    });
  }
}

/** How a message reads in a violation: `<turn>`, `malformed XML (...)`, `connection closed`. */
export function describeDecoded(decoded: DecodedMessage): string {
  if (decoded.kind !== 'data')
    return decoded.kind === 'close' ? 'the connection closed' : `a connection ${decoded.kind}`;
  if (!decoded.result.ok) {
    const { error } = decoded.result;
    const at = error.location ? ` (line ${error.location.line}, column ${error.location.column})` : '';
    return error.message + at;
  }
  const { message } = decoded.result;
  return message.type === 'session-init-null' ? 'the text null' : `<${message.type}>`;
}
