/**
 * The recordings of rddlsim sessions Protoplay reads: record files (`*.transcript`, chunks as a relay saw
 * them, with timing), the two raw byte streams of one connection (`*.c2s.raw` and `*.s2c.raw`), and
 * messages pasted from a log. Each reader keeps what it could read and reports the rest, located.
 */
import type {
  ImportInput,
  ImportOutcome,
  ImportProblem,
  RecordingFormat,
  RecordingStreamSink,
  StreamFrame,
} from '../contract';
import { decodeWireBytes } from '../../transcript/bytes';
import { ServerStreamSplitter } from './framing';
import { importProblem } from '../../transcript/import';
import { importRecordFile, looksLikeRecordFile } from '../../transcript/record-import';
import { directionOfRoot, rootName } from './interleave';
import { importRawStreams } from './raw-import';
import type { TranscriptMessage } from '../../transcript/model';
import { rddlsimPyrddlgymStreamFormat } from './recording-pyrddlgym';
import { rddlsimStreamFraming } from './stream-framing';

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder();

function start(input: ImportInput): string {
  return latin1.decode(input.bytes.subarray(0, 4096));
}

/** True when the text starts (after blanks and NULs) with an rddlsim message's root element. */
function startsWithRddlsimMessage(text: string): boolean {
  return directionOfRoot(rootName(text.replace(/^[\s\0]+/, ''))) !== undefined;
}

/** Reads each input on its own, gathering transcripts and problems. */
function eachInput(
  inputs: readonly ImportInput[],
  read: (input: ImportInput, problems: ImportProblem[]) => ImportOutcome['transcripts'][number],
): ImportOutcome {
  const outcome: ImportOutcome = { transcripts: [], problems: [] };
  for (const input of inputs) {
    try {
      outcome.transcripts.push(read(input, outcome.problems));
    } catch (error) {
      outcome.problems.push(importProblem(error, input.name));
    }
  }
  return outcome;
}

/** Record files: `@@ <seq> C>S|S>C <ms> <length>` records. */
export const rddlsimRecordFileFormat: RecordingFormat = {
  id: 'rddlsim-record-file',
  description: 'a recorded rddlsim session (record file)',
  detect: (inputs) =>
    inputs.length > 0 && inputs.every((input) => looksLikeRecordFile(start(input))) ? 0.95 : 0,
  read: (inputs) =>
    eachInput(inputs, (input, problems) =>
      importRecordFile(input.bytes, {
        protocol: 'rddlsim',
        framing: rddlsimStreamFraming,
        name: input.name,
        conn: inputs.length > 1 ? `session-${inputs.indexOf(input) + 1}` : 'session-1',
        onDamage: (error) => problems.push(importProblem(error, input.name)),
      }),
    ),
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
    const outcome: ImportOutcome = { transcripts: [], problems: [] };
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
            { name: stem, conn: `session-${session}` },
          ),
        );
      } catch (error) {
        outcome.problems.push(importProblem(error, stem));
      }
    }
    return outcome;
  },
};

/** XML messages pasted from a log (NULs possibly lost), both directions mixed. */
export const rddlsimWireTextFormat: RecordingFormat = {
  id: 'rddlsim-wire-text',
  description: 'rddlsim XML messages',
  detect: (inputs) =>
    inputs.length === 1 && !rawSuffix.test(inputs[0]!.name) && startsWithRddlsimMessage(start(inputs[0]!))
      ? 0.8
      : 0,
  read: (inputs) => {
    // The same reader as a file read in chunks, so both report alike.
    const outcome: ImportOutcome = { transcripts: [], problems: [] };
    for (const input of inputs) {
      const messages: TranscriptMessage[] = [];
      const reader = streamWireText(input.name, {
        message: (message) => messages.push(message),
        problem: (problem) => outcome.problems.push(problem),
      });
      reader.push(input.bytes);
      reader.end();
      outcome.transcripts.push({
        format: 'protoplay-transcript',
        version: 2,
        protocol: 'rddlsim',
        startedAt: 0,
        meta: { source: input.name, imported: 'wire-text', timing: 'unknown' },
        connections: [{ id: 'session-1', label: 'session 1' }],
        messages,
        annotations: [],
      });
    }
    return outcome;
  },
  stream: streamWireText,
};

/**
 * The wire text of one file fed in chunks: each message found by its root element (or its NUL). A piece
 * that is not an rddlsim message is skipped and reported, and a last message cut off by the end of the file
 * is reported with the byte it starts at (the reader then says what is wrong with it).
 */
function streamWireText(name: string, sink: RecordingStreamSink) {
  const splitter = new ServerStreamSplitter({ findEnd: 'root' });
  let index = 0;
  let pushed = 0;
  const take = (frames: StreamFrame[]) => {
    for (const frame of frames) {
      // Decoded once: strictly (what the transcript keeps), leniently only to name a message that is not UTF-8.
      const payload = decodeWireBytes(frame.bytes);
      const text = 'text' in payload ? payload.text : utf8.decode(frame.bytes);
      if (text.trim() === '') continue;
      const dir = directionOfRoot(rootName(text));
      if (!dir) {
        sink.problem({
          file: name,
          message: `message ${index + 1} is not an rddlsim message, skipped: ${text.trim().slice(0, 60)}`,
        });
        continue;
      }
      sink.message({
        index: index++,
        conn: 'session-1',
        dir,
        t: 0,
        kind: 'data',
        ...payload,
        ...(frame.framing === 'none' ? { framing: 'none' as const } : {}),
      });
    }
  };
  return {
    push(chunk: Uint8Array) {
      pushed += chunk.length;
      // The frames are read before the chunk may be reused, and the splitter keeps no view of it past that.
      take(splitter.push(chunk));
      splitter.release();
    },
    end() {
      const startsAt = pushed - splitter.pendingLength;
      const rest = splitter.end();
      const last = rest.length ? utf8.decode(rest[rest.length - 1]!.bytes).trimEnd() : '';
      if (last !== '' && !/(?:\/>|<\/[\w.-]+>)$/.test(last))
        sink.problem({
          file: name,
          byte: startsAt,
          message: `the file ends in the middle of a message (${last.slice(0, 40)}...)`,
        });
      take(rest);
    },
  };
}

/** Every rddlsim recording format, most specific first. */
export const RDDLSIM_RECORDING_FORMATS: readonly RecordingFormat[] = [
  rddlsimRecordFileFormat,
  rddlsimPyrddlgymStreamFormat,
  rddlsimRawStreamsFormat,
  rddlsimWireTextFormat,
];

/** Reads an rddlsim record file (see `importRecordFile`), throwing a located error on a damaged record. */
export function importRddlsimRecordFile(bytes: Uint8Array, options: { name?: string; conn?: string } = {}) {
  return importRecordFile(bytes, { ...options, protocol: 'rddlsim', framing: rddlsimStreamFraming });
}
