/**
 * Opening files for the playground's views: read them with whichever registered format knows them, keep
 * what precedes any damage, validate the session with its protocol's machines, and sum it up for the line
 * the page shows after an import. Pure and protocol-blind: the protocols are handed in.
 */
import { describeError, ProtoplayError } from '../errors';
import type {
  EarlyRoundEnd,
  ImportInput,
  ImportProblem,
  Protocol,
  RoundEndReading,
} from '../protocols/contract';
import { forEachBatch, forgetRows, READER_BATCH } from '../protocols/inspection';
import type { RoundSummary } from '../protocols/reading';
import type {
  ImportedSession,
  ImportSummary,
  SharedReading,
  TranscriptGrowth,
} from '../protocols/session-contract';
import { detectFormats, importRecording, PROTOPLAY_JSON_FORMAT } from '../transcript/import';
import { streamTranscriptJson, transcriptJsonStreams } from '../transcript/json-stream';
import type { Annotation, Transcript, TranscriptMessage } from '../transcript/model';
import { ValidationFold, type TranscriptViolation } from '../transcript/validate';

/** An opened recording: the session to show, its protocol, and the summary. */
export interface OpenedRecording {
  transcript: Transcript;
  protocol: Protocol;
  summary: ImportSummary;
}

/** Where a problem is, as `file:line` or `file, byte n`. */
export function problemPlace(problem: ImportProblem): string {
  if (problem.line !== undefined) return `${problem.file}:${problem.line}`;
  if (problem.byte !== undefined) return `${problem.file}, byte ${problem.byte}`;
  return problem.file;
}

/** A recording read but not yet validated: the session to show, and what sums it up afterwards. */
export interface ReadRecording {
  transcript: Transcript;
  protocol: Protocol;
  /** The names of the files the session shown was read from (all of them when the format cannot tell). */
  files: readonly string[];
  /**
   * Validates the session and sums it up (the longer part of opening a big recording); with `roundEnds`
   * (the protocol's `roundEnds`, loaded), the rounds that ended early say why.
   */
  summarise(roundEnds?: () => RoundEndReading): ImportSummary;
}

/** Which of the sessions a recording holds to show. */
export interface SessionChoice {
  /** Its number, from 1 (default 1). */
  session?: number;
}

/**
 * Reads a recording, leaving its validation for later: the page can be shown the session while it is
 * validated. Shows the chosen session (the first by default); the summary's figures are its own, and it
 * lists every session the files held. Throws a located ProtoplayError when the files hold no session at
 * all (the first problem says why), and a ProtoplayError when they hold no session of the chosen number.
 */
export function readRecording(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  { session = 1 }: SessionChoice = {},
): ReadRecording {
  const result = importRecording(inputs, protocols);
  const names = inputs.map((input) => input.name).join(', ') || 'nothing';
  const count = result.transcripts.length;
  if (count > 0 && !(Number.isInteger(session) && session >= 1 && session <= count))
    throw new ProtoplayError(
      'transcript.import.session',
      `there is no session ${String(session)}: ${names} ${inputs.length === 1 ? 'holds' : 'hold'} ${count === 1 ? 'one session' : `${count} sessions`}`,
    );
  const transcript = result.transcripts[session - 1];
  const protocol = transcript && protocols.find((p) => p.id === transcript.protocol);
  if (!transcript || !protocol) {
    const problem = result.problems[0];
    throw new ProtoplayError(
      'transcript.import.damaged',
      problem ? `${problemPlace(problem)}: ${problem.message}` : `${names} holds no session`,
    );
  }
  const sessionList = result.transcripts.map((each, i) => ({
    session: i + 1,
    files: [...(result.sources[i] ?? [])],
    messages: each.messages.length,
  }));
  const summarise = (roundEnds?: () => RoundEndReading): ImportSummary => {
    const { violations, rounds, earlyRoundEnds } = summariseTranscript(transcript, protocol, roundEnds);
    const connections = new Set(transcript.messages.map((message) => message.conn));
    return summaryOf(protocol, result.description, { shown: session, sessionList }, transcript, {
      connections,
      rounds: rounds.length,
      violations,
      earlyRoundEnds,
      problems: result.problems,
    });
  };
  return { transcript, protocol, files: result.sources[session - 1] ?? [], summarise };
}

/**
 * Validates a whole transcript and reads its rounds in one pass, a batch of messages at a time: the
 * machines step through a batch, then the reader reads it (with the annotations that hang off its
 * messages, each after its message), so a protocol that parses a message for its machines can hand the
 * reader the same parse while it is still among the latest few (see aisys `recorded-readings.ts`, rddlsim
 * `decoded-message.ts`). The violations and rounds are those of `validateTranscript` and a reader fed the
 * whole transcript at once. With `roundEnds`, each message goes to a round-end reading too, right after
 * the machines (it meets the same parse).
 */
export function summariseTranscript(
  transcript: Transcript,
  protocol: Protocol,
  roundEnds?: () => RoundEndReading,
): {
  violations: readonly TranscriptViolation[];
  rounds: readonly RoundSummary[];
  earlyRoundEnds: readonly EarlyRoundEnd[];
} {
  // A transcript rebuilt without wire traffic is not checked (see `validateTranscript`).
  const checked = transcript.meta.wire !== 'synthesised';
  const validation = new ValidationFold(protocol);
  const reader = protocol.createReader({ forgetMessages: true });
  const ends = roundEnds?.();
  forEachBatch(transcript, (batch, annotations) => {
    if (checked) for (const message of batch) validation.accept(message);
    if (ends) for (const message of batch) ends.accept(message);
    reader.append(batch, annotations);
    forgetRows(reader);
  });
  return {
    violations: checked ? validation.finish().violations : [],
    rounds: reader.rounds,
    earlyRoundEnds: ends?.ended ?? [],
  };
}

function summaryOf(
  protocol: Protocol,
  format: string,
  { shown, sessionList }: { shown: number; sessionList: readonly ImportedSession[] },
  transcript: Transcript,
  found: {
    connections: Set<string>;
    rounds: number;
    violations: readonly TranscriptViolation[];
    earlyRoundEnds: readonly EarlyRoundEnd[];
    problems: readonly ImportProblem[];
  },
): ImportSummary {
  for (const connection of transcript.connections) found.connections.add(connection.id);
  return {
    protocol: protocol.id,
    format,
    sessions: sessionList.length,
    shown,
    sessionList: sessionList.map((each) => ({ ...each, files: [...each.files] })),
    messages: transcript.messages.length,
    connections: found.connections.size,
    rounds: found.rounds,
    violations: found.violations.map((violation) => ({
      index: violation.index,
      rule: violation.rule,
      message: violation.message,
      conn: violation.conn,
      ...(violation.channel !== undefined ? { channel: violation.channel } : {}),
    })),
    earlyRoundEnds: found.earlyRoundEnds.map((end) => ({ ...end })),
    problems: found.problems.map((problem) => ({ ...problem })),
  };
}

/** One file read in chunks: its name, size, first bytes (for detection) and all its bytes, chunk by chunk. */
export interface ChunkedFile {
  name: string;
  size: number;
  /** At least the first 64 KiB (or the whole file when shorter). */
  start: Uint8Array;
  chunks: AsyncIterable<Uint8Array>;
}

/** How far the reading of a file read in chunks has come. */
export interface ReadingProgress {
  bytes: number;
  total: number;
  messages: number;
}

/** Options of `readRecordingInChunks`. */
export interface ChunkedReadingOptions {
  /**
   * Work the views need before they can show the session (the page's worker loads the protocol's runner):
   * started once the format is known, and the file past its first chunk is read only after it settles
   * (failed or not: the caller meets its failure), so that reading the file does not keep it waiting and
   * the first messages are on screen sooner.
   */
  prepare?: (protocol: Protocol) => Promise<unknown>;
  /**
   * The protocol's round-end reading, once loaded (undefined until then, or when it has none): every
   * message goes to it after the machines; the messages read before it was there are handed to it first.
   */
  roundEnds?: (protocol: Protocol) => (() => RoundEndReading) | undefined;
  /**
   * The size from which Protoplay JSON is read in chunks (default `JSON_CHUNKED_FROM_BYTES`); a smaller
   * file is left to the whole read.
   */
  jsonChunkedFromBytes?: number;
}

/**
 * From this size the page reads Protoplay JSON in chunks. Below it the whole read is the faster one: one
 * `JSON.parse`, done before any view starts drawing (measured with `npm run bench -- browser/import` on
 * 50 and 80 MB transcripts: 0.4 s later to the first chart, but 0.4 s sooner to the whole import, and
 * fewer long tasks, since the page draws while the worker validates rather than while it also reads).
 * Above it a whole read would hold the text, its parse and the session at once (over 1 GB from a few
 * hundred MB), and from about 512 MB the text is longer than a JavaScript string can be.
 */
export const JSON_CHUNKED_FROM_BYTES = 128 << 20;

/** A recording being read in chunks: shown as it grows, summed up once read and validated. */
export interface ChunkedRecording {
  /** Grows in place until `growing.done`. */
  transcript: Transcript;
  protocol: Protocol;
  growing: TranscriptGrowth;
  /** Resolves once the whole file is read and validated; a file that cannot be read on is a problem. */
  summary: Promise<ImportSummary>;
}

/**
 * Reads one file in chunks with its format's streaming reader (`RecordingFormat.stream`), validating and
 * reading rounds message by message: resolves once the first chunk is read, with a transcript that grows
 * as the rest is read (the views show it from its first messages on, instead of after the whole file).
 * The transcript's header (source, meta, connections) is the one the format gives the file's first bytes.
 * A file of several sessions (a format that tells them apart: `RecordingStreamSink.session`) shows its
 * first; the others are counted in the summary's `sessionList`, to be read whole when chosen.
 * A runner that reads every message for its views can take over the reading of rounds
 * (`TranscriptGrowth.share`): each batch is then read once, right after it was validated, while the
 * protocol's parses of it are still remembered.
 * Protoplay JSON of `JSON_CHUNKED_FROM_BYTES` or more is read in chunks when laid out as Protoplay writes
 * it (one message per line), as `protoplay inspect` reads a big one; its annotations grow with the
 * messages. Damage is reported as the command line reports it, and what was read before it is kept.
 * Resolves undefined when the detected format needs its files whole (smaller Protoplay JSON, or laid out
 * otherwise, or whose header does not fit the first bytes; several files; no streaming reader); throws a
 * located ProtoplayError when the first chunk holds no message at all.
 */
export async function readRecordingInChunks(
  file: ChunkedFile,
  protocols: readonly Protocol[],
  onProgress: (progress: ReadingProgress) => void = () => undefined,
  { prepare, roundEnds, jsonChunkedFromBytes = JSON_CHUNKED_FROM_BYTES }: ChunkedReadingOptions = {},
): Promise<ChunkedRecording | undefined> {
  const first = [{ name: file.name, bytes: file.start }];
  const best = detectFormats(first, protocols)[0];
  const protocol = protocols.find((candidate) => candidate.id === best?.protocol);
  if (!best || !protocol) return undefined;
  // Protoplay JSON laid out as the writer lays it out (one message per line) is read in chunks as the
  // command line's `inspect` reads it; the header comes from the first bytes, read as a file cut short.
  const json = best.format === PROTOPLAY_JSON_FORMAT;
  const format = json
    ? undefined
    : protocol.recordingFormats.find((candidate) => candidate.id === best.format);
  const streamer = json
    ? file.size >= jsonChunkedFromBytes && transcriptJsonStreams(file.start)
      ? streamTranscriptJson
      : undefined
    : format?.stream?.bind(format);
  if (!streamer) return undefined;
  const head = (json ? importRecording(first, protocols) : format!.read(first)).transcripts[0];
  if (!head || head.protocol !== protocol.id) return undefined;
  // Started now, while the first chunk is read; the rest of the file waits for it (see `prepare`).
  const prepared = prepare?.(protocol).then(
    () => undefined,
    () => undefined,
  );
  // A transcript rebuilt without wire traffic is not checked (see `validateTranscript`).
  const checked = head.meta.wire !== 'synthesised';
  const transcript: Transcript = {
    ...head,
    connections: [...head.connections],
    messages: [],
    annotations: [],
  };
  const problems: ImportProblem[] = [];
  const validation = new ValidationFold(protocol);
  const reader = protocol.createReader({ forgetMessages: true });
  /** The runner's reading, once it shares it (`TranscriptGrowth.share`): the summary's reader then rests. */
  let shared: SharedReading | undefined;
  const connections = new Set<string>();
  let ends: RoundEndReading | undefined;
  /** Hands a round-end reading every message so far once the protocol's is there. */
  const followEnds = () => {
    const create = roundEnds?.(protocol);
    if (!create) return;
    ends = create();
    for (const message of transcript.messages) ends.accept(message);
  };
  let batch: TranscriptMessage[] = [];
  // The annotations read since the last batch, each after the message it hangs off (Protoplay JSON).
  let annotations: Annotation[] = [];
  const readBatch = () => {
    if (shared) shared.read();
    else {
      reader.append(batch, annotations);
      forgetRows(reader);
    }
    batch = [];
    annotations = [];
  };
  // The message counts of the file's later sessions (a log of several runs): the first is the one shown.
  const later: number[] = [];
  const stream = streamer(file.name, {
    message(message) {
      if (later.length > 0) {
        later[later.length - 1]!++;
        return;
      }
      transcript.messages.push(message);
      if (!connections.has(message.conn)) {
        connections.add(message.conn);
        if (!transcript.connections.some((connection) => connection.id === message.conn))
          transcript.connections.push({ id: message.conn });
      }
      if (checked) validation.accept(message);
      if (ends) ends.accept(message);
      else if (roundEnds && transcript.messages.length % READER_BATCH === 0) followEnds();
      batch.push(message);
      if (batch.length >= READER_BATCH) readBatch();
    },
    annotation(annotation) {
      if (later.length > 0) return;
      transcript.annotations.push(annotation);
      annotations.push(annotation);
      if (annotations.length >= READER_BATCH) readBatch();
    },
    problem: (problem) => problems.push(problem),
    session: () => void later.push(0),
  });
  const listeners: (() => void)[] = [];
  const growing = {
    done: false,
    onGrow: (listener: () => void) => void listeners.push(listener),
    share: (reading: SharedReading) => {
      shared = reading;
    },
  };
  const grew = () => listeners.forEach((listener) => listener());
  let bytes = 0;
  const chunks = file.chunks[Symbol.asyncIterator]();
  /** Reads the next chunk; false at the end of the file (or where it could not be read on). */
  const readChunk = async (): Promise<boolean> => {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await chunks.next();
    } catch (error) {
      problems.push({
        file: file.name,
        byte: bytes,
        message: `the file could not be read on: ${describeError(error)}`,
      });
      return false;
    }
    if (next.done) return false;
    stream.push(next.value);
    bytes += next.value.length;
    onProgress({ bytes, total: file.size, messages: transcript.messages.length });
    return true;
  };
  const finish = (): ImportSummary => {
    stream.end();
    if (!ends) followEnds();
    readBatch();
    growing.done = true;
    grew();
    onProgress({ bytes, total: file.size, messages: transcript.messages.length });
    // The first session is the one read as it grows; the others are counted.
    const sessionList = [transcript.messages.length, ...later].map((messages, i) => ({
      session: i + 1,
      files: [file.name],
      messages,
    }));
    return summaryOf(protocol, best.description, { shown: 1, sessionList }, transcript, {
      connections,
      rounds: shared ? shared.rounds() : reader.rounds.length,
      violations: checked ? validation.finish().violations : [],
      earlyRoundEnds: ends?.ended ?? [],
      problems,
    });
  };
  // The first chunk decides: a file whose first chunk holds no message is read whole, to say why.
  let more = await readChunk();
  while (more && transcript.messages.length === 0) more = await readChunk();
  if (transcript.messages.length === 0) {
    const summary = finish();
    const problem = summary.problems[0];
    throw new ProtoplayError(
      'transcript.import.damaged',
      problem ? `${problemPlace(problem)}: ${problem.message}` : `${file.name} holds no session`,
    );
  }
  const summary = (async () => {
    await prepared;
    while (more) {
      grew();
      more = await readChunk();
    }
    return finish();
  })();
  return { transcript, protocol, growing, summary };
}

/**
 * Reads, validates and sums up a recording (the chosen session, the first by default). Throws as
 * `readRecording` does.
 */
export function openRecording(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  choice: SessionChoice = {},
): OpenedRecording {
  const read = readRecording(inputs, protocols, choice);
  return { transcript: read.transcript, protocol: read.protocol, summary: read.summarise() };
}
