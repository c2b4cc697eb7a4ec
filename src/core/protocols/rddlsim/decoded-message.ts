/**
 * A transcript record turned into what the machines reason about: a typed message, or the located reason it
 * is not one. The host and the client adapter build these from messages they already parsed, so the machines
 * never parse twice.
 */
import { ProtoplayError, describeError } from '../../errors';
import { base64ToBytes } from '../../transcript/bytes';
import type { Direction, TranscriptMessage } from '../../transcript/model';
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
 * A power of two (a record's slot is its index's last bits).
 */
export const RECENT_DECODES = 2048;

/** A decode, and the record with the fields it was computed from. */
interface RecentDecode {
  message: TranscriptMessage;
  decoded: DecodedMessage;
  index: number;
  dir: Direction;
  kind: TranscriptMessage['kind'];
  framing: TranscriptMessage['framing'];
  text: string | undefined;
  base64: string | undefined;
}

/**
 * The latest decodes, in the slot of their record's index: parsing is most of what reading a big recording
 * costs, and each message would otherwise be parsed by each machine and again by the reader. A fixed
 * number of slots, so it never grows with the session; only the same record object, its fields unchanged
 * since, gets a decode back (another record with the same index, or a record changed since, is parsed
 * afresh).
 */
const recentDecodes: (RecentDecode | undefined)[] = new Array<RecentDecode | undefined>(RECENT_DECODES);

/**
 * Parses one transcript record in the direction it travelled (client messages c2s, server messages s2c).
 * A record decoded lately gets the same decode back: callers must not change what they are given.
 */
export function decodeTranscriptMessage(message: TranscriptMessage): DecodedMessage {
  const slot = message.index & (RECENT_DECODES - 1);
  const recent = recentDecodes[slot];
  if (
    recent &&
    recent.message === message &&
    recent.text === message.text &&
    recent.index === message.index &&
    recent.dir === message.dir &&
    recent.kind === message.kind &&
    recent.framing === message.framing &&
    recent.base64 === message.base64
  )
    return recent.decoded;
  const decoded = decodeAfresh(message);
  recentDecodes[slot] = {
    message,
    decoded,
    index: message.index,
    dir: message.dir,
    kind: message.kind,
    framing: message.framing,
    text: message.text,
    base64: message.base64,
  };
  return decoded;
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
