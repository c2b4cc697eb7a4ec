/**
 * What an import found, in one report for every consumer: the page's import summary, `protoplay inspect`
 * and its `--json`. Reads the inputs with the registered recording formats, validates every session with
 * its protocol's machines, and reads its rounds with the protocol's reader.
 */
import {
  PROTOPLAY_JSON_FORMAT,
  chosenFormats,
  importRecording,
  type ImportChoice,
  type ImportResult,
} from '../transcript/import';
import { streamTranscriptJson, transcriptJsonStreams } from '../transcript/json-stream';
import type { Annotation, Transcript, TranscriptMessage } from '../transcript/model';
import { ValidationFold, validateTranscript, type TranscriptViolation } from '../transcript/validate';
import type { ImportInput, ImportProblem, Protocol, RoundEndReading } from './contract';
import type { RoundSummary, TranscriptReader } from './reading';

/** Messages (or annotations) handed to a reader at once, by an inspection and by the page's summary. */
export const READER_BATCH = 1000;

/** One session of the inspected inputs. */
export interface InspectedSession {
  /** 1-based. */
  session: number;
  /** The names of the inputs the session was read from (one file, a pair of streams, a replay folder's files...). */
  files: string[];
  connections: number;
  messages: number;
  /**
   * Each round (run, episode, simulation) with its total reward when the session reported one, and why
   * it ended before its planned length when the protocol can tell (`Protocol.roundEnds`).
   */
  rounds: InspectedRound[];
  violations: TranscriptViolation[];
  /**
   * Why the messages were not checked against the protocol's rules, when they were not: they were rebuilt
   * from a recording without wire traffic (`meta.wire: "synthesised"`, e.g. a MASSim server replay).
   */
  unchecked?: string;
  /** Messages the protocol's reader could not read, with why. */
  unreadable: { index: number; reason: string }[];
}

export interface InspectedRound {
  round: number;
  reward: number | null;
  endedEarly?: string;
}

/**
 * Loads what a protocol needs to say why rounds ended early (an interpreter, for rddlsim): undefined when
 * it has nothing to say. Asked once the inputs' protocol is known, so that the others' cost nothing.
 */
export type RoundEndLoader = (protocol: Protocol) => Promise<(() => RoundEndReading) | undefined>;

/** The protocol's own round-end reading (`Protocol.roundEnds`), loaded. */
export const loadRoundEnds: RoundEndLoader = async (protocol) => protocol.roundEnds?.load();

function inspectedRounds(
  rounds: readonly RoundSummary[],
  ends: RoundEndReading | undefined,
): InspectedRound[] {
  const whys = new Map(ends?.ended.map((end) => [end.round, end.why]));
  return rounds.map((round) => {
    const why = whys.get(round.round);
    return {
      round: round.round,
      reward: round.total ?? null,
      ...(why !== undefined ? { endedEarly: why } : {}),
    };
  });
}

/** Everything `inspect` prints. */
export interface InspectionReport {
  protocol: string;
  format: string;
  description: string;
  /** How sure detection was, from 0 to 1 (0 when the format was forced and did not recognise the input). */
  confidence: number;
  sessions: InspectedSession[];
  /** Parts of the inputs that could not be read, located. */
  problems: ImportProblem[];
  /** The transcripts themselves, for callers that show them. */
  transcripts: Transcript[];
}

/** Imports, validates and reads the inputs. Throws only when no format reads them (see `importRecording`). */
export function inspectRecording(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  choice: ImportChoice = {},
): InspectionReport {
  return inspectImported(importRecording(inputs, protocols, choice), protocols);
}

/**
 * `inspectRecording`, with the rounds that ended early saying why when their protocol can tell (its
 * round-end reading is loaded once the inputs' protocol is known).
 */
export async function inspectRecordingWithRoundEnds(
  inputs: readonly ImportInput[],
  protocols: readonly Protocol[],
  choice: ImportChoice = {},
  roundEnds: RoundEndLoader = loadRoundEnds,
): Promise<InspectionReport> {
  const result = importRecording(inputs, protocols, choice);
  const protocol = protocols.find((candidate) => candidate.id === result.protocol);
  return inspectImported(result, protocols, protocol && (await roundEnds(protocol)));
}

/** Validates and reads what `importRecording` found; with `roundEnds`, early round ends say why. */
function inspectImported(
  result: ImportResult,
  protocols: readonly Protocol[],
  roundEnds?: () => RoundEndReading,
): InspectionReport {
  const protocol = protocols.find((candidate) => candidate.id === result.protocol);
  const sessions = result.transcripts.map((transcript, i): InspectedSession => {
    const reader = protocol?.createReader();
    const ends = roundEnds?.();
    if (reader && ends) readWithRoundEnds(transcript, reader, ends);
    else reader?.append(transcript.messages, transcript.annotations);
    const synthesised = transcript.meta.wire === 'synthesised';
    return {
      session: i + 1,
      files: result.sources[i] ?? [],
      connections: new Set(transcript.messages.map((message) => message.conn)).size,
      messages: transcript.messages.length,
      rounds: inspectedRounds(reader?.rounds ?? [], ends),
      violations: protocol ? validateTranscript(transcript, protocol).violations : [],
      ...(synthesised
        ? {
            unchecked: `the messages were rebuilt from a recording without wire traffic (${String(transcript.meta.source ?? 'unknown')}), not recorded`,
          }
        : {}),
      unreadable: (reader?.messages ?? []).flatMap((row) =>
        row.unreadable === undefined ? [] : [{ index: row.index, reason: row.unreadable }],
      ),
    };
  });
  return {
    protocol: result.protocol,
    format: result.format,
    description: result.description,
    confidence: result.confidence,
    sessions,
    problems: result.problems,
    transcripts: result.transcripts,
  };
}

/**
 * A transcript's messages a batch at a time (`READER_BATCH`), each batch with the annotations that hang off
 * its messages (up to its last message's index; what is left comes last, with no messages): what a reader
 * is handed in batches, as a whole `append` would hand it. Work done on a batch by several parties (the
 * machines, a reader, a round-end reading) meets the same parses, still remembered (see rddlsim
 * `decoded-message.ts`).
 */
export function forEachBatch(
  transcript: Transcript,
  visit: (messages: TranscriptMessage[], annotations: Annotation[]) => void,
): void {
  const { messages, annotations } = transcript;
  let annotated = 0;
  for (let start = 0; start < messages.length; start += READER_BATCH) {
    const batch = messages.slice(start, start + READER_BATCH);
    const last = batch[batch.length - 1]!.index;
    let end = annotated;
    while (end < annotations.length && annotations[end]!.index <= last) end++;
    visit(batch, annotations.slice(annotated, end));
    annotated = end;
  }
  if (annotated < annotations.length) visit([], annotations.slice(annotated));
}

/**
 * Hands a transcript to its reader a batch at a time, and each batch to the round-end reading right after,
 * while the reader's parses of it are still remembered: read after the whole, every message would be
 * parsed again.
 */
function readWithRoundEnds(transcript: Transcript, reader: TranscriptReader, ends: RoundEndReading): void {
  forEachBatch(transcript, (messages, annotations) => {
    reader.append(messages, annotations);
    for (const message of messages) ends.accept(message);
  });
}

/** True when everything was read and nothing broke a rule. */
export function inspectionIsClean(report: InspectionReport): boolean {
  return (
    report.problems.length === 0 &&
    report.sessions.every((session) => session.violations.length === 0 && session.unreadable.length === 0)
  );
}

/** A file read in chunks: its name, its first bytes (for detection) and all its bytes, chunk by chunk. */
export interface StreamedInput {
  name: string;
  /** At least the first 4 KiB (or the whole file when shorter). */
  start: Uint8Array;
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * Inspects files too big to hold: each file is read in chunks by its format's streaming reader (one session,
 * or each of the sessions a format can tell apart in it: `RecordingStreamSink.session`),
 * validated and read message by message (with the annotations a format carries), keeping only what the
 * report prints (counts, rounds, violations, unreadable messages, problems). The report is the one `inspectRecording` gives, without transcripts.
 * Returns undefined when the detected (or chosen) format cannot read in chunks: the caller reads whole.
 */
export async function inspectStreamed(
  inputs: readonly StreamedInput[],
  protocols: readonly Protocol[],
  choice: ImportChoice = {},
  roundEnds?: RoundEndLoader,
): Promise<InspectionReport | undefined> {
  const best = chosenFormats(
    inputs.map((input) => ({ name: input.name, bytes: input.start })),
    protocols,
    choice,
  )[0];
  const protocol = protocols.find((candidate) => candidate.id === best?.protocol);
  const format = protocol?.recordingFormats.find((candidate) => candidate.id === best?.format);
  // Protoplay JSON is read in chunks when each file's start names its protocol and is laid out as the
  // writer lays it out (one message per line), one session per file; else it is read whole.
  const json = best?.format === PROTOPLAY_JSON_FORMAT && best.confidence > 0;
  const streamer =
    json && inputs.every((input) => transcriptJsonStreams(input.start))
      ? streamTranscriptJson
      : format?.stream?.bind(format);
  if (!best || !protocol || !streamer) return undefined;
  const createEnds = await roundEnds?.(protocol);
  const problems: ImportProblem[] = [];
  const sessions: InspectedSession[] = [];
  for (const input of inputs) {
    /** What one session of the file keeps while it is read. */
    const sessionState = () => ({
      reader: protocol.createReader({ forgetMessages: true }),
      validation: new ValidationFold(protocol),
      ends: createEnds?.(),
      connections: new Set<string>(),
      unreadable: [] as InspectedSession['unreadable'],
      messages: 0,
    });
    let current = sessionState();
    let batch: TranscriptMessage[] = [];
    // Annotations go with the messages, each after the message it hangs off (already in the batch or
    // handed over before), as the whole-file reading hands them to the reader.
    let annotations: Annotation[] = [];
    const flush = () => {
      const { reader, unreadable } = current;
      reader.append(batch, annotations);
      batch = [];
      annotations = [];
      for (const row of reader.messages)
        if (row.unreadable !== undefined) unreadable.push({ index: row.index, reason: row.unreadable });
      forgetRows(reader);
    };
    const close = () => {
      flush();
      sessions.push({
        session: sessions.length + 1,
        files: [input.name],
        connections: current.connections.size,
        messages: current.messages,
        rounds: inspectedRounds(current.reader.rounds, current.ends),
        violations: current.validation.finish().violations,
        unreadable: current.unreadable,
      });
    };
    const stream = streamer(input.name, {
      message(message) {
        current.messages++;
        current.connections.add(message.conn);
        current.validation.accept(message);
        current.ends?.accept(message);
        batch.push(message);
        if (batch.length >= READER_BATCH) flush();
      },
      annotation(annotation) {
        annotations.push(annotation);
        if (annotations.length >= READER_BATCH) flush();
      },
      problem: (problem) => problems.push(problem),
      // The file's next session (a log of several runs): the one read so far is complete.
      session() {
        close();
        current = sessionState();
      },
    });
    for await (const chunk of input.chunks) stream.push(chunk);
    stream.end();
    // What the whole-file reader would not keep as a session (a Protoplay JSON header that cannot be read).
    if ('session' in stream && !stream.session) {
      flush();
      continue;
    }
    close();
  }
  return {
    protocol: best.protocol,
    format: best.format,
    description: best.description,
    confidence: best.confidence,
    sessions,
    problems,
    transcripts: [],
  };
}

/**
 * Drops the per-message rows, per-turn snapshots and notes a reader has built (what a log or a scrubber
 * shows), keeping its position and rounds: a streamed inspection has read what it needs from them.
 */
export function forgetRows(reader: TranscriptReader): void {
  for (const rows of [reader.messages, reader.turns, reader.notes])
    if (Array.isArray(rows)) (rows as unknown[]).length = 0;
}
