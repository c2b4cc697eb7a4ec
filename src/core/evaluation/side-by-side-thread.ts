/**
 * Reading and lining up two transcripts of one seed off the page's main thread. A long MASSim match has
 * tens of thousands of messages per side: reading them with the protocol's reader and lining them up takes
 * seconds, which on the main thread would freeze the page. The thread does both; its owner (the page)
 * hands it the transcripts and takes the results back in slices small enough that neither the posting nor
 * the receiving blocks the page for long, and ends the thread to cancel.
 *
 * Plain data only crosses: the same messages would cross a Node worker thread's port.
 */
import { findProtocol } from '../protocols/registry';
import type { Protocol } from '../protocols/contract';
import type { MessageSummary, SessionNote } from '../protocols/reading';
import type { Annotation, Direction, Transcript, TranscriptMessage } from '../transcript/model';
import { alignTranscripts, type AlignedRow, type TranscriptAlignment } from './transcript-alignment';

/** Messages per slice, both ways: a slice of long MASSim messages is cloned in about 15 ms. */
export const SIDE_BY_SIDE_SLICE = 1000;

/** From the owner to the thread. */
export type ToSideBySideThread =
  /** A transcript's header (everything but its messages and annotations), under a key the owner chooses. */
  | { kind: 'transcript'; key: string; transcript: Transcript }
  /** The next messages and annotations of the transcript under `key`. */
  | { kind: 'messages'; key: string; messages: TranscriptMessage[]; annotations: Annotation[] }
  /** Read both transcripts (by key; absent: an empty side) and line them up. */
  | {
      kind: 'align';
      job: number;
      protocol: string;
      keys: [string | undefined, string | undefined];
      policyDirection: Direction;
    };

/** Rows packed in typed arrays (transferred, not cloned): -1 where a side has nothing. */
export interface PackedRows {
  a: Int32Array<ArrayBuffer>;
  b: Int32Array<ArrayBuffer>;
  differs: Uint8Array<ArrayBuffer>;
}

/** From the thread to its owner. */
export type FromSideBySideThread =
  /** `done` of `total` messages read (both sides), then the lining up. */
  | { kind: 'progress'; job: number; done: number; total: number }
  /** The next summaries of one side. */
  | { kind: 'summaries'; job: number; side: 0 | 1; summaries: MessageSummary[] }
  | {
      kind: 'aligned';
      job: number;
      notes: [SessionNote[], SessionNote[]];
      rows: PackedRows;
      differences: number[];
    }
  | { kind: 'failed'; job: number; error: string };

/** One transcript read: the reader's summaries and notes. */
export interface ReadSummaries {
  summaries: MessageSummary[];
  notes: SessionNote[];
}

/**
 * Reads a transcript with a fresh reader of the protocol, slice by slice (annotations go in once the
 * message they hang off has been read), calling `progress` with the messages read so far.
 */
export function readTranscript(
  protocol: Protocol,
  transcript: Transcript,
  progress?: (read: number) => void,
): ReadSummaries {
  const reader = protocol.createReader();
  const { messages } = transcript;
  const annotations: Annotation[] = [...transcript.annotations].sort((x, y) => x.index - y.index);
  let read = 0;
  let attached = 0;
  do {
    const from = read;
    read = Math.min(messages.length, read + SIDE_BY_SIDE_SLICE);
    let until = attached;
    while (until < annotations.length && (read === messages.length || annotations[until]!.index < read))
      until++;
    reader.append(messages.slice(from, read), annotations.slice(attached, until));
    attached = until;
    progress?.(read);
  } while (read < messages.length);
  return { summaries: [...reader.messages], notes: [...reader.notes] };
}

/** Rows as typed arrays. */
export function packRows(rows: readonly AlignedRow[]): PackedRows {
  const packed: PackedRows = {
    a: new Int32Array(rows.length),
    b: new Int32Array(rows.length),
    differs: new Uint8Array(rows.length),
  };
  rows.forEach((row, k) => {
    packed.a[k] = row.a ?? -1;
    packed.b[k] = row.b ?? -1;
    packed.differs[k] = row.differs ? 1 : 0;
  });
  return packed;
}

/**
 * Rows back from typed arrays: those from `from` up to `to` (default all), pushed onto `into` (default a
 * new array), which is returned.
 */
export function unpackRows(
  packed: PackedRows,
  from = 0,
  to = packed.a.length,
  into: AlignedRow[] = [],
): AlignedRow[] {
  const end = Math.min(to, packed.a.length);
  for (let k = from; k < end; k++) {
    const a = packed.a[k]!;
    const b = packed.b[k]!;
    into.push({ ...(a >= 0 ? { a } : {}), ...(b >= 0 ? { b } : {}), differs: packed.differs[k] === 1 });
  }
  return into;
}

/** What a thread needs from where it runs. */
export interface SideBySideEndpoint {
  post(message: FromSideBySideThread, transfer?: ArrayBuffer[]): void;
  listen(handler: (message: ToSideBySideThread) => void): void;
}

/** Serves reading and lining up until the owner ends the thread. */
export function serveSideBySide(endpoint: SideBySideEndpoint): void {
  const transcripts = new Map<string, Transcript>();
  endpoint.listen((message) => {
    if (message.kind === 'transcript') {
      transcripts.set(message.key, {
        ...message.transcript,
        messages: [...message.transcript.messages],
        annotations: [...message.transcript.annotations],
      });
      return;
    }
    if (message.kind === 'messages') {
      const transcript = transcripts.get(message.key);
      if (!transcript) return;
      for (const m of message.messages) transcript.messages.push(m);
      for (const a of message.annotations) transcript.annotations.push(a);
      return;
    }
    const { job } = message;
    try {
      const protocol = findProtocol(message.protocol);
      if (!protocol) throw new Error(`unknown protocol "${message.protocol}"`);
      const sides = message.keys.map((key) => (key === undefined ? undefined : transcripts.get(key)));
      const total = sides.reduce((n, t) => n + (t?.messages.length ?? 0), 0);
      const read: ReadSummaries[] = [];
      let before = 0;
      for (const side of sides) {
        read.push(
          side
            ? readTranscript(protocol, side, (done) =>
                endpoint.post({ kind: 'progress', job, done: before + done, total }),
              )
            : { summaries: [], notes: [] },
        );
        before += side?.messages.length ?? 0;
      }
      const [a, b] = [read[0]!, read[1]!];
      const alignment: TranscriptAlignment = alignTranscripts(
        { summaries: a.summaries, messages: sides[0]?.messages ?? [] },
        { summaries: b.summaries, messages: sides[1]?.messages ?? [] },
        message.policyDirection,
      );
      for (const side of [0, 1] as const) {
        const { summaries } = read[side]!;
        for (let k = 0; k < summaries.length; k += SIDE_BY_SIDE_SLICE)
          endpoint.post({
            kind: 'summaries',
            job,
            side,
            summaries: summaries.slice(k, k + SIDE_BY_SIDE_SLICE),
          });
      }
      const rows = packRows(alignment.rows);
      endpoint.post(
        {
          kind: 'aligned',
          job,
          notes: [a.notes, b.notes],
          rows,
          differences: alignment.differences,
        },
        [rows.a.buffer, rows.b.buffer, rows.differs.buffer],
      );
    } catch (error) {
      endpoint.post({ kind: 'failed', job, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
