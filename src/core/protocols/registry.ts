/**
 * Every protocol Protoplay offers, in the order pickers and help list them. Adding a protocol is one folder
 * (`src/core/protocols/<id>/`, exporting its `Protocol`) and one line here; the transcript layer, the
 * workers, the page and the command line take everything else from the definition.
 */
import { ProtoplayError } from '../errors';
import { importRecording } from '../transcript/import';
import type { Transcript } from '../transcript/model';
import type { Protocol } from './contract';
import { aisysProtocol } from './aisys/protocol';
import { gamaProtocol } from './gama/protocol';
import { massimProtocol } from './massim/protocol';
import { rddlsimProtocol } from './rddlsim/protocol';
import { EXTRA_PROTOCOLS } from './extra-protocols';

const registered: Protocol[] = [rddlsimProtocol, massimProtocol, aisysProtocol, gamaProtocol];
addProtocols(EXTRA_PROTOCOLS);

/** The registered protocols: the built-in ones, then those added to the build or at start-up. */
export const PROTOCOLS: readonly Protocol[] = registered;

/**
 * Adds protocols from outside `src/` (see `extra-protocols.ts`): the command line calls it at start-up
 * with the modules of `PROTOPLAY_EXTRA_PROTOCOLS`. An id already registered is refused.
 */
export function addProtocols(extra: readonly Protocol[]): void {
  for (const protocol of extra) {
    if (registered.some((known) => known.id === protocol.id))
      throw new ProtoplayError('protocol.duplicate', `a protocol '${protocol.id}' is already registered`);
    registered.push(protocol);
  }
}

/** The protocol with this id, if registered. */
export function findProtocol(id: string): Protocol | undefined {
  return PROTOCOLS.find((protocol) => protocol.id === id);
}

/** The protocol with this id, or the first (the default) for an unknown id, e.g. from an old link. */
export function protocolOrDefault(id: string | undefined): Protocol {
  return (id === undefined ? undefined : findProtocol(id)) ?? PROTOCOLS[0]!;
}

/**
 * Reads one transcript from a file or pasted text in any registered format, for callers that want exactly
 * one session: throws a located ProtoplayError when nothing could be read (what was damaged is in the
 * error), and when the input holds more than one session.
 */
export function readOneTranscript(input: Uint8Array | string, name = 'pasted text'): Transcript {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const result = importRecording([{ name, bytes }], PROTOCOLS);
  const [transcript, ...others] = result.transcripts;
  const problem = result.problems[0];
  if (!transcript || problem) {
    const where = problem ? { source: problem.file, line: problem.line ?? 1, column: 1 } : undefined;
    throw new ProtoplayError(
      'transcript.import.damaged',
      problem?.message ?? `${name} holds no session`,
      where,
    );
  }
  if (others.length > 0)
    throw new ProtoplayError(
      'transcript.import.sessions',
      `${name} holds ${result.transcripts.length} sessions; open it with the importer that lists them`,
    );
  return transcript;
}
