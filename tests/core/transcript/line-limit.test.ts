/**
 * The readers of recordings fed in chunks hold at most a limit of one line (one message, for pyRDDLGym's
 * `\n\n\n` streams) that has not ended: a longer one is reported with its file and line and skipped, and
 * the reading goes on after it. The inputs are real sessions (the rddlsim and aisysprojserver conformance
 * recordings, a GAMA session played here) written as each format lays them out, with one line made longer
 * than a small limit given for the test; the last test feeds each format's own reader (as `inspect` uses
 * it) a line longer than the default limit, 16 MiB.
 */
import { describe, expect, it } from 'vitest';
import type {
  ImportProblem,
  RecordingStreamReader,
  RecordingStreamSink,
} from '../../../src/core/protocols/contract';
import { aisysJsonlFormat, streamAisysJsonl } from '../../../src/core/protocols/aisys/recording';
import {
  gamaFrameLogFormat,
  streamGamaFrameLog,
  writeGamaFrameLog,
} from '../../../src/core/protocols/gama/recording';
import {
  rddlsimPyrddlgymStreamFormat,
  streamPyrddlgymLog,
} from '../../../src/core/protocols/rddlsim/recording-pyrddlgym';
import { massimTimelineFormat } from '../../../src/core/protocols/massim/recording-formats';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { streamTranscriptJson } from '../../../src/core/transcript/json-stream';
import { MAX_LINE_CHARACTERS } from '../../../src/core/transcript/line-limit';
import type { Annotation, TranscriptMessage } from '../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { recordingBytes as aisysRecording } from '../protocols/aisys/recordings';
import { playRecorded } from '../protocols/gama/support';
import { loadRecording } from '../protocols/rddlsim/recordings';

const LIMIT = 4096;
const encoder = new TextEncoder();

interface Read {
  messages: TranscriptMessage[];
  annotations: Annotation[];
  problems: ImportProblem[];
}

/** A reader and what it hands over. */
function reading(create: (sink: RecordingStreamSink) => RecordingStreamReader) {
  const read: Read = { messages: [], annotations: [], problems: [] };
  const reader = create({
    message: (message) => read.messages.push(message),
    annotation: (annotation) => read.annotations.push(annotation),
    problem: (problem) => read.problems.push(problem),
  });
  return { reader, read };
}

/** What a reader hands over for `text` fed in chunks of `size` bytes. */
function streamed(create: (sink: RecordingStreamSink) => RecordingStreamReader, text: string, size: number) {
  const { reader, read } = reading(create);
  const bytes = encoder.encode(text);
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.slice(at, at + size));
  reader.end();
  return read;
}

/** The 1-based line of `text` on which `index` is. */
function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Feeds the start of a line that never ends, `length` characters, and says whether it was reported before the end. */
function reportedBeforeTheEnd(
  create: (sink: RecordingStreamSink) => RecordingStreamReader,
  before: string,
  length: number,
): ImportProblem[] {
  const { reader, read } = reading(create);
  reader.push(encoder.encode(before));
  const piece = encoder.encode('x'.repeat(1000));
  for (let fed = 0; fed < length; fed += piece.length) reader.push(piece);
  return read.problems;
}

describe('a line longer than the limit, read in chunks', () => {
  /** A Protoplay JSON transcript, as the writer lays it out, of a real session's first messages. */
  function transcriptText(longAt: number | undefined): string {
    const recorded = loadRecording('sysadmin_inst_mdp__1').messages.filter((m) => m.text !== undefined);
    let t = 0;
    const recorder = new TranscriptRecorder({ protocol: 'rddlsim', now: () => (t += 1) });
    recorder.addConnection('session-1', 'session 1');
    recorded.slice(0, 30).forEach((message, i) => {
      const padding = i === longAt ? `<!--${'x'.repeat(LIMIT)}-->` : '';
      recorder.text('session-1', message.dir, `${message.text!}${padding}`);
      if (i % 4 === 0) recorder.annotate('note', { text: `after message ${i}` });
    });
    return serialiseTranscript(recorder.transcript);
  }
  const json = (sink: RecordingStreamSink) =>
    streamTranscriptJson('t.json', sink, { maxLineCharacters: LIMIT });

  it('Protoplay JSON: skips the message on it, located, and reads every message and annotation after it', () => {
    const sound = streamed(json, transcriptText(undefined), 1000);
    expect(sound.problems).toEqual([]);
    const text = transcriptText(12);
    const line = lineAt(text, text.indexOf('{"index":12,'));
    for (const size of [1000, 1 << 20]) {
      const read = streamed(json, text, size);
      expect(read.problems).toEqual([
        {
          file: 't.json',
          line,
          message: expect.stringMatching(
            /^message 12 is on a line longer than 4,096 characters \([\d,]+ characters\): skipped; the reading goes on at the next line$/,
          ),
        },
      ]);
      expect(read.messages).toEqual(sound.messages.filter((message) => message.index !== 12));
      expect(read.annotations).toEqual(sound.annotations);
    }
  });

  it('Protoplay JSON: a file cut inside such a line keeps everything before it and says where it ends', () => {
    const text = transcriptText(12);
    const start = text.indexOf('{"index":12,');
    const cut = text.slice(0, start + LIMIT + 100);
    const read = streamed(json, cut, 1000);
    expect(read.problems).toEqual([
      {
        file: 't.json',
        line: lineAt(text, start),
        message:
          'the file ends inside message 12, on a line longer than 4,096 characters; kept the header, 12 complete messages and 0 annotations before it',
      },
    ]);
    expect(read.messages.map((message) => message.index)).toEqual([...Array(12).keys()]);
  });

  it('aisysprojserver .jsonl: skips the exchange on it, located, reports it before it ends, and reads on', () => {
    const name = '02-simple-v1-parallel.jsonl';
    const lines = new TextDecoder().decode(aisysRecording(name)).split('\n');
    const long = 3;
    const padded = lines.map((line, i) =>
      i === long ? line.replace('{', `{"padding":"${'x'.repeat(LIMIT)}",`) : line,
    );
    const blank = lines.map((line, i) => (i === long ? '' : line));
    const jsonl = (sink: RecordingStreamSink) => streamAisysJsonl(name, sink, { maxLineCharacters: LIMIT });
    const expected = streamed(jsonl, blank.join('\n'), 1 << 20);
    expect(expected.problems).toEqual([]);
    const tooLong = {
      file: name,
      line: long + 1,
      message: 'a line longer than 4,096 characters is not an exchange; skipped to the next line',
    };
    for (const size of [100, 1000, 1 << 20]) {
      const read = streamed(jsonl, padded.join('\n'), size);
      expect(read.problems).toEqual([tooLong]);
      expect(read.messages).toEqual(expected.messages);
    }
    // A line that never ends is reported as soon as it is longer than the limit, not gathered to the end.
    expect(reportedBeforeTheEnd(jsonl, `${lines.slice(0, long).join('\n')}\n`, LIMIT * 4)).toEqual([tooLong]);
  });

  it('GAMA frame log: skips the frame on it, located, reports it before it ends, and reads on', async () => {
    const { transcript } = await playRecorded(() => 'move_left', { scenario: 'A', maxCycles: 5 });
    const lines = writeGamaFrameLog(transcript).split('\n');
    const long = lines.findIndex((line, i) => i > 5 && line.startsWith('{ "id": "Scav. 1", "request"'));
    expect(long).toBeGreaterThan(5);
    const padded = lines.map((line, i) => (i === long ? `${line}${' '.repeat(LIMIT)}` : line));
    const gama = (sink: RecordingStreamSink) =>
      streamGamaFrameLog('s.gamalog', sink, { maxLineCharacters: LIMIT });
    const expected = streamed(gama, lines.map((line, i) => (i === long ? '' : line)).join('\n'), 1 << 20);
    const tooLong = {
      file: 's.gamalog',
      line: long + 1,
      message: 'a line longer than 4,096 characters is not a frame; skipped to the next line',
    };
    for (const size of [100, 1000, 1 << 20]) {
      const read = streamed(gama, padded.join('\n'), size);
      expect(read.problems).toEqual([tooLong, ...expected.problems]);
      expect(read.messages).toEqual(expected.messages);
    }
    expect(reportedBeforeTheEnd(gama, `${lines.slice(0, long).join('\n')}\n`, LIMIT * 4)).toEqual([tooLong]);
  });

  it("pyRDDLGym's \\n\\n\\n log: skips the message, located, reports it before it ends, and reads on", () => {
    const texts = loadRecording('sysadmin_inst_mdp__1')
      .messages.filter((m) => m.kind === 'data')
      .map((m) => m.text!.replace(/^<\?xml[^>]*\?>\s*/, ''))
      .slice(0, 12);
    const long = 7;
    const padded = texts.map((text, i) => (i === long ? `${text}\n${'x'.repeat(LIMIT)}` : text));
    const log = (list: string[]) => list.map((text) => `${text}\n\n\n`).join('');
    const pyrddlgym = (sink: RecordingStreamSink) =>
      streamPyrddlgymLog('s.log', sink, { maxMessageBytes: LIMIT });
    const expected = streamed(pyrddlgym, log(texts.filter((_, i) => i !== long)), 1 << 20);
    expect(expected.problems).toEqual([]);
    const text = log(padded);
    const tooLong = {
      file: 's.log',
      line: lineAt(text, text.indexOf(padded[long]!)),
      message: expect.stringMatching(
        /^a message longer than 4,096 bytes \('<actions>.*\.\.\.'\) has no \\n\\n\\n within it: not an rddlsim message, skipped to the next \\n\\n\\n$/,
      ),
    };
    for (const size of [1, 2, 100, 1000, 1 << 20]) {
      const read = streamed(pyrddlgym, text, size);
      expect(read.problems).toEqual([tooLong]);
      expect(read.messages.map((m) => m.text)).toEqual(expected.messages.map((m) => m.text));
    }
    expect(reportedBeforeTheEnd(pyrddlgym, log(texts.slice(0, long)), LIMIT * 4)).toEqual([
      { ...tooLong, message: expect.stringContaining("('xxxxxxxx") },
    ]);
  });

  it('holds at most 16 MiB of a line by default, in each format that inspect reads in chunks', () => {
    expect(MAX_LINE_CHARACTERS).toBe(16 * 1024 * 1024);
    const mebibyte = encoder.encode('x'.repeat(1 << 20));
    const feedLong = (reader: RecordingStreamReader) => {
      for (let fed = 0; fed <= MAX_LINE_CHARACTERS; fed += mebibyte.length) reader.push(mebibyte);
    };
    const formats: [string, (sink: RecordingStreamSink) => RecordingStreamReader][] = [
      ['a.jsonl', (sink) => aisysJsonlFormat.stream!('a.jsonl', sink)],
      ['g.gamalog', (sink) => gamaFrameLogFormat.stream!('g.gamalog', sink)],
      ['p.log', (sink) => rddlsimPyrddlgymStreamFormat.stream!('p.log', sink)],
      ['all.timeline.jsonl', (sink) => massimTimelineFormat.stream!('all.timeline.jsonl', sink)],
    ];
    for (const [file, create] of formats) {
      const { reader, read } = reading(create);
      feedLong(reader);
      // Said (and dropped) before the line ends.
      expect(read.problems).toEqual([
        { file, line: 1, message: expect.stringMatching(/longer than (16 MiB|16777216 characters)/) },
      ]);
      reader.end();
    }
    // Protoplay JSON: a file cut inside a message on such a line says so at its end.
    const text = transcriptText(undefined);
    const start = text.indexOf('{"index":4,');
    const { reader, read } = reading((sink) => streamTranscriptJson('t.json', sink));
    reader.push(encoder.encode(text.slice(0, start + 20)));
    feedLong(reader);
    reader.end();
    expect(read.problems).toEqual([
      {
        file: 't.json',
        line: lineAt(text, start),
        message: expect.stringContaining(
          'the file ends inside message 4, on a line longer than 16 MiB; kept the header, 4 complete messages',
        ),
      },
    ]);
    expect(read.messages).toHaveLength(4);
  });
});
