/**
 * What the side-by-side view of one seed shows: both policies' transcripts read by their protocol's reader
 * (the same summaries the live message log shows), lined up row by row, with the rows where the policies'
 * messages differ. A seed of several sessions (MASSim's two matches) is read one session at a time.
 */
import { alignTranscripts, type TranscriptAlignment } from '../core/evaluation/transcript-alignment';
import type { Protocol } from '../core/protocols/contract';
import type { MessageSummary, SessionNote } from '../core/protocols/reading';
import type { Transcript, TranscriptMessage } from '../core/transcript/model';

/** One transcript as the view reads it. */
export interface ReadSide {
  transcript: Transcript;
  summaries: readonly MessageSummary[];
  messages: readonly TranscriptMessage[];
  notes: readonly SessionNote[];
}

/** Both sides of one session, lined up. */
export interface SideBySide {
  sides: [ReadSide, ReadSide];
  alignment: TranscriptAlignment;
}

function read(protocol: Protocol, transcript: Transcript): ReadSide {
  const reader = protocol.createReader();
  reader.append(transcript.messages, transcript.annotations);
  return {
    transcript,
    summaries: reader.messages,
    messages: transcript.messages,
    notes: reader.notes,
  };
}

/** Reads and lines up the `session`-th transcript of each side (an empty one where a side has none). */
export function sideBySide(
  protocol: Protocol,
  transcripts: readonly [readonly Transcript[], readonly Transcript[]],
  session: number,
): SideBySide {
  const empty = (): Transcript => ({
    format: 'protoplay-transcript',
    version: 2,
    protocol: protocol.id,
    startedAt: 0,
    meta: {},
    connections: [],
    messages: [],
    annotations: [],
  });
  const a = read(protocol, transcripts[0][session] ?? empty());
  const b = read(protocol, transcripts[1][session] ?? empty());
  return {
    sides: [a, b],
    alignment: alignTranscripts(a, b, protocol.evaluation?.policyDirection ?? 'c2s'),
  };
}

/**
 * Both sides of each session, read once each (reading is most of the cost: a long match has tens of
 * thousands of messages) and only when asked for.
 */
export class SideBySideSessions {
  readonly #protocol: Protocol;
  readonly #transcripts: readonly [readonly Transcript[], readonly Transcript[]];
  readonly #read = new Map<number, SideBySide>();

  constructor(protocol: Protocol, transcripts: readonly [readonly Transcript[], readonly Transcript[]]) {
    this.#protocol = protocol;
    this.#transcripts = transcripts;
  }

  /** Sessions on the longer side. */
  get count(): number {
    return Math.max(this.#transcripts[0].length, this.#transcripts[1].length);
  }

  /** The `session`-th session of both sides, lined up. */
  session(session: number): SideBySide {
    let read = this.#read.get(session);
    if (!read) {
      read = sideBySide(this.#protocol, this.#transcripts, session);
      this.#read.set(session, read);
    }
    return read;
  }

  /** The first session (by position) where the two sides differ; 0 when none does. */
  firstDiffering(): number {
    for (let session = 0; session < this.count; session++)
      if (this.session(session).alignment.differences.length > 0) return session;
    return 0;
  }
}
