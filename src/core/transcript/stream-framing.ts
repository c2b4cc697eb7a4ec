/**
 * How each protocol's byte streams divide into messages, for importers that start from raw bytes. A protocol
 * appears here once its framing is implemented; importing another protocol's byte stream is refused with a
 * clear error rather than guessed.
 */
import { ProtoplayError } from '../errors';
import { NulSplitter, ServerStreamSplitter, type WireFrame } from '../protocols/rddlsim/framing';
import type { Direction, ProtocolId, TranscriptMessage } from './model';

/** Turns a byte stream, fed in chunks, into message frames. */
export interface MessageSplitter {
  push(chunk: Uint8Array): WireFrame[];
  /** End of stream: whatever is left, unterminated. */
  end(): WireFrame[];
}

/** The splitter for one direction of one protocol's connection. */
export function messageSplitter(protocol: ProtocolId, dir: Direction): MessageSplitter {
  if (protocol === 'rddlsim') return dir === 'c2s' ? new NulSplitter() : new ServerStreamSplitter();
  throw new ProtoplayError(
    'transcript.framing.unsupported',
    `importing raw ${protocol} byte streams is not supported yet; import a Protoplay JSON transcript instead`,
  );
}

/** The framing a message has when its record says nothing: the protocol's usual one. */
export function defaultFraming(protocol: ProtocolId): NonNullable<TranscriptMessage['framing']> {
  return protocol === 'rddlsim' || protocol === 'massim' ? 'nul' : 'frame';
}
