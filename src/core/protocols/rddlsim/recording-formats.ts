/**
 * The recordings of rddlsim sessions Protoplay reads: record files (`*.transcript`, chunks as a relay saw
 * them, with timing), the two raw byte streams of one connection (`*.c2s.raw` and `*.s2c.raw`), and
 * messages pasted from a log. Each reader keeps what it could read and reports the rest, located.
 */
import type { ImportInput, ImportOutcome, RecordingFormat } from '../contract';
import { ProtoplayError } from '../../errors';
import type { Transcript } from '../../transcript/model';
import { importProblem } from '../../transcript/import';
import { importRecordFile, looksLikeRecordFile } from '../../transcript/record-import';
import { directionOfRoot, rootName } from './interleave';
import { importRawStreams, readRddlsimWireText, streamRddlsimWireText } from './raw-import';
import { rddlsimPyrddlgymStreamFormat } from './recording-pyrddlgym';
import { rddlsimStreamFraming } from './stream-framing';

const latin1 = new TextDecoder('latin1');

function start(input: ImportInput): string {
  return latin1.decode(input.bytes.subarray(0, 4096));
}

/** True when the text starts (after blanks and NULs) with an rddlsim message's root element. */
function startsWithRddlsimMessage(text: string): boolean {
  return directionOfRoot(rootName(text.replace(/^[\s\0]+/, ''))) !== undefined;
}

/** Record files: `@@ <seq> C>S|S>C <ms> <length>` records, one session per connection recorded. */
export const rddlsimRecordFileFormat: RecordingFormat = {
  id: 'rddlsim-record-file',
  description: 'a recorded rddlsim session (record file)',
  detect: (inputs) =>
    inputs.length > 0 && inputs.every((input) => looksLikeRecordFile(start(input))) ? 0.95 : 0,
  read: (inputs) => {
    const outcome: Required<ImportOutcome> = { transcripts: [], problems: [], sources: [] };
    for (const input of inputs) {
      const sessions = importRecordFile(input.bytes, {
        protocol: 'rddlsim',
        framing: rddlsimStreamFraming,
        name: input.name,
        firstSession: outcome.transcripts.length + 1,
        onDamage: (error) => outcome.problems.push(importProblem(error, input.name)),
      });
      outcome.transcripts.push(...sessions);
      outcome.sources.push(...sessions.map(() => [input.name]));
    }
    return outcome;
  },
};

const rawSuffix = /\.(c2s|s2c)\.raw$/;

/** Captures of one connection's two directions, paired by their common name. */
export const rddlsimRawStreamsFormat: RecordingFormat = {
  id: 'rddlsim-raw-streams',
  description: 'rddlsim byte streams of one connection (.c2s.raw and .s2c.raw)',
  detect: (inputs) =>
    inputs.length > 0 &&
    inputs.every((input) => rawSuffix.test(input.name) && startsWithRddlsimMessage(start(input)))
      ? 0.9
      : 0,
  read: (inputs) => {
    const outcome: Required<ImportOutcome> = { transcripts: [], problems: [], sources: [] };
    const pairs = new Map<string, { c2s?: ImportInput; s2c?: ImportInput }>();
    for (const input of inputs) {
      const match = rawSuffix.exec(input.name)!;
      const stem = input.name.slice(0, match.index);
      const pair = pairs.get(stem) ?? {};
      pair[match[1] as 'c2s' | 's2c'] = input;
      pairs.set(stem, pair);
    }
    let session = 0;
    for (const [stem, pair] of pairs) {
      session++;
      const missing = pair.c2s ? (pair.s2c ? undefined : 's2c') : 'c2s';
      if (missing)
        outcome.problems.push({
          file: (pair.c2s ?? pair.s2c)!.name,
          message: `half of the conversation is missing: no ${stem}.${missing}.raw (what the ${missing === 'c2s' ? 'client' : 'server'} sent); the transcript holds one side only`,
        });
      try {
        outcome.transcripts.push(
          importRawStreams(
            { c2s: pair.c2s?.bytes ?? new Uint8Array(), s2c: pair.s2c?.bytes ?? new Uint8Array() },
            {
              name: stem,
              conn: `session-${session}`,
              onDamage: (error) => outcome.problems.push(importProblem(error, stem)),
            },
          ),
        );
        outcome.sources.push([pair.c2s, pair.s2c].flatMap((half) => (half ? [half.name] : [])));
      } catch (error) {
        outcome.problems.push(importProblem(error, stem));
      }
    }
    return outcome;
  },
};

/**
 * Whether a text opens with a log's own lines and then an rddlsim message: the lines before the first
 * element hold no markup and no NUL (they are text, not another format's bytes), and the first element is an
 * rddlsim message's root. The message may start a line or follow a log line's prefix on it
 * (`10:00:01 sent <round-request/>`).
 */
function startsWithLogThenRddlsimMessage(text: string): boolean {
  const element = text.search(/<[A-Za-z_?]/);
  if (element <= 0) return false;
  const before = text.slice(0, element);
  return (
    !/[\0<>{]/.test(before) &&
    /\S/.test(before) &&
    directionOfRoot(rootName(text.slice(element))) !== undefined
  );
}

/** XML messages pasted from a log (NULs possibly lost), both directions mixed. */
export const rddlsimWireTextFormat: RecordingFormat = {
  id: 'rddlsim-wire-text',
  description: 'rddlsim XML messages',
  detect: (inputs) => {
    if (inputs.length !== 1 || rawSuffix.test(inputs[0]!.name)) return 0;
    const text = start(inputs[0]!);
    if (startsWithRddlsimMessage(text)) return 0.8;
    // A log's own lines first (skipped and reported when read): less sure than a text that opens with a message.
    return startsWithLogThenRddlsimMessage(text) ? 0.6 : 0;
  },
  read: (inputs) => {
    // The same reader as a file read in chunks, so both report alike.
    const outcome: Required<ImportOutcome> = { transcripts: [], problems: [], sources: [] };
    for (const input of inputs) {
      const sessions = readRddlsimWireText(input.bytes, input.name, outcome.problems);
      outcome.transcripts.push(...sessions);
      outcome.sources.push(...sessions.map(() => [input.name]));
    }
    return outcome;
  },
  stream: (name, sink) => streamRddlsimWireText(name, sink),
};

/** Every rddlsim recording format, most specific first. */
export const RDDLSIM_RECORDING_FORMATS: readonly RecordingFormat[] = [
  rddlsimRecordFileFormat,
  rddlsimPyrddlgymStreamFormat,
  rddlsimRawStreamsFormat,
  rddlsimWireTextFormat,
];

/**
 * Reads an rddlsim record file of one session (see `importRecordFile`), throwing a located error on a
 * damaged record, and an error when the file records several sessions.
 */
export function importRddlsimRecordFile(bytes: Uint8Array, options: { name?: string } = {}): Transcript {
  const sessions = importRecordFile(bytes, {
    ...options,
    protocol: 'rddlsim',
    framing: rddlsimStreamFraming,
  });
  if (sessions.length > 1)
    throw new ProtoplayError(
      'transcript.record.sessions',
      `${options.name ?? 'the record file'} records ${sessions.length} sessions, one after the other; expected one`,
    );
  return sessions[0]!;
}
