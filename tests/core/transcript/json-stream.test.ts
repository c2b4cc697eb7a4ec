/**
 * Protoplay JSON read in chunks gives what the whole-file reader gives: the same messages handed over and
 * the same located problems, for a sound file, a file cut at any offset (fixed seed), garbage in the
 * middle, a message or annotation of the wrong shape (what came before it kept, located at its line), items
 * spread over several lines, and at any chunk size (chunks that split lines and multi-byte characters).
 * Files not laid out one field per line are left to the whole-file reader.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImportProblem } from '../../../src/core/protocols/contract';
import { importProblem } from '../../../src/core/transcript/import';
import { readTranscriptJson, serialiseTranscript } from '../../../src/core/transcript/json-format';
import { streamTranscriptJson, transcriptJsonStreams } from '../../../src/core/transcript/json-stream';
import type { Annotation, Transcript, TranscriptMessage } from '../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { loadRecording } from '../protocols/rddlsim/recordings';

function written(): Transcript {
  const recorded = loadRecording('sysadmin_inst_pomdp__1');
  let t = 0;
  const recorder = new TranscriptRecorder({ protocol: 'rddlsim', now: () => (t += 1), meta: { seed: 9 } });
  recorder.addConnection('session-1', 'session 1');
  recorder.addConnection('session-2', 'session 2');
  for (const message of recorded.messages.slice(0, 40)) {
    if (message.text === undefined) continue;
    recorder.text(message.index % 3 === 0 ? 'session-2' : 'session-1', message.dir, message.text);
    if (message.index % 7 === 0) recorder.annotate('note', { at: message.index, text: 'a "quoted" ] }' });
  }
  recorder.text('session-1', 's2c', 'odd: "quotes" \\ back } ] [ { , : \n line \t tab é 😀 \u0001');
  recorder.annotate('reward', { kind: 'step', turn: 1, reward: -1.5 });
  recorder.event('session-1', 's2c', 'close');
  return recorder.transcript;
}

const text = serialiseTranscript(written());
const bytes = new TextEncoder().encode(text);

function streamed(input: Uint8Array, chunk: number): Read {
  const messages: TranscriptMessage[] = [];
  const annotations: Annotation[] = [];
  const problems: ImportProblem[] = [];
  const reader = streamTranscriptJson('t.json', {
    message: (message) => messages.push(message),
    annotation(annotation) {
      // Each annotation comes after the message it hangs off.
      expect(annotation.index).toBeLessThan(messages.length);
      annotations.push(annotation);
    },
    problem: (problem) => problems.push(problem),
  });
  for (let at = 0; at < input.length; at += chunk) reader.push(input.slice(at, at + chunk));
  reader.end();
  return { messages, annotations, problems, session: reader.session };
}

interface Read {
  messages: TranscriptMessage[];
  annotations: Annotation[];
  problems: ImportProblem[];
  session: boolean;
}

function whole(input: Uint8Array): Read {
  try {
    const { transcript, damage } = readTranscriptJson(new TextDecoder().decode(input), 't.json');
    return {
      messages: transcript?.messages ?? [],
      annotations: transcript?.annotations ?? [],
      problems: damage ? [importProblem(damage, 't.json')] : [],
      session: transcript !== undefined,
    };
  } catch (error) {
    return { messages: [], annotations: [], problems: [importProblem(error, 't.json')], session: false };
  }
}

function expectSame(input: Uint8Array, chunk = 7): void {
  const expected = whole(input);
  const got = streamed(input, chunk);
  expect(got.problems).toEqual(expected.problems);
  expect(got.session).toBe(expected.session);
  // A file the whole reader keeps no session of (its header is damaged) may still hand over messages.
  if (expected.session) {
    expect(got.messages).toEqual(expected.messages);
    expect(got.annotations).toEqual(expected.annotations);
  }
}

describe('Protoplay JSON read in chunks', () => {
  it('hands over every message of a sound file, at any chunk size', () => {
    expect(transcriptJsonStreams(bytes)).toBe(true);
    const expected = whole(bytes);
    expect(expected.messages.length).toBeGreaterThan(30);
    expect(expected.annotations.length).toBeGreaterThan(5);
    for (const chunk of [1, 3, 64, 4096, bytes.length]) {
      const got = streamed(bytes, chunk);
      expect(got.problems).toEqual([]);
      expect(got.messages).toEqual(expected.messages);
      expect(got.annotations).toEqual(expected.annotations);
    }
  });

  it('reports a file cut at any offset as the whole-file reader does, keeping the same messages', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: bytes.length - 1 }),
        fc.integer({ min: 1, max: 5000 }),
        (cut, chunk) => {
          expectSame(bytes.subarray(0, cut), chunk);
        },
      ),
      { seed: 16, numRuns: 300 },
    );
    // At every line end, with and without its newline.
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
      const before = new TextEncoder().encode(text.slice(0, at));
      expectSame(before);
      expectSame(new TextEncoder().encode(text.slice(0, at + 1)));
    }
  });

  it('reports garbage in the middle at the same line and column', () => {
    const lines = text.split('\n');
    for (const at of [3, 9, 12, 20, lines.length - 8, lines.length - 3, lines.length - 2, lines.length - 1]) {
      for (const garbage of ['@@', '    {"index": 1', '  ]', '  ],', '', '}', '    {"a":1}}']) {
        const damaged = [...lines.slice(0, at), garbage, ...lines.slice(at)].join('\n');
        expectSame(new TextEncoder().encode(damaged));
      }
    }
  });

  it('reports a message of the wrong shape as the whole-file reader does, also before damage', () => {
    const wrong = text.replace('"dir":"s2c"', '"dir":"up"');
    expect(wrong).not.toBe(text);
    expectSame(new TextEncoder().encode(wrong));
    // The messages before it stay a session, as in the whole-file reading.
    expect(streamed(new TextEncoder().encode(wrong), 7)).toMatchObject({ session: true, messages: [{}] });
    const cut = new TextEncoder().encode(wrong.slice(0, text.length - 2000));
    expectSame(cut);
    expect(streamed(cut, 100).problems[0]!.message).toMatch(/and before it messages\[\d+\]\.dir/);
  });

  it('keeps the messages before one of the wrong shape and the session, located at its line', () => {
    const wrong = text.replace(/("index":10,"t":\d+,"conn":"session-\d","dir":)"(c2s|s2c)"/, '$1"up"');
    expect(wrong).toContain('"dir":"up"');
    const input = new TextEncoder().encode(wrong);
    for (const chunk of [1, 5, 64, 4096, input.length]) expectSame(input, chunk);
    const got = streamed(input, 64);
    expect(got.session).toBe(true);
    expect(got.messages).toEqual(written().messages.slice(0, 10));
    expect(got.annotations).toEqual(written().annotations.filter((annotation) => annotation.index < 10));
    expect(got.annotations.length).toBeGreaterThan(0);
    expect(got.problems).toEqual([
      {
        file: 't.json',
        line: wrong.split('\n').findIndex((row) => row.startsWith('    {"index":10,"t":')) + 1,
        message: `messages[10].dir: expected "c2s" or "s2c", got "up"; kept the header, 10 complete messages and ${got.annotations.length} annotations before it`,
      },
    ]);
  });

  it('keeps every message and the annotations before one of the wrong shape, located at its line', () => {
    const wrong = text.replace('{"index":14,"type":"note"', '{"index":14,"type":"remark"');
    expect(wrong).not.toBe(text);
    const input = new TextEncoder().encode(wrong);
    for (const chunk of [1, 7, 64, 4096, input.length]) expectSame(input, chunk);
    const got = streamed(input, 64);
    expect(got.session).toBe(true);
    expect(got.messages).toEqual(written().messages);
    expect(got.annotations).toEqual(written().annotations.slice(0, 2));
    expect(got.problems).toEqual([
      {
        file: 't.json',
        line: wrong.split('\n').findIndex((row) => row.startsWith('    {"index":14,"type":')) + 1,
        message: expect.stringMatching(
          /^annotations\[2\]\.type: expected "world" or .+, got "remark"; kept the header, \d+ complete messages and 2 annotations before it$/,
        ),
      },
    ]);
    // With both wrong, the message is named; a wrong annotation before damage, as a wrong message.
    const both = wrong.replace(/("index":10,"t":\d+,"conn":"session-\d","dir":)"(c2s|s2c)"/, '$1"up"');
    expectSame(new TextEncoder().encode(both), 64);
    expect(streamed(new TextEncoder().encode(both), 64).problems[0]!.message).toMatch(/^messages\[10\]/);
    const cut = new TextEncoder().encode(wrong.slice(0, wrong.indexOf('{"index":35,"type"') + 10));
    for (const chunk of [3, 4096]) expectSame(cut, chunk);
    expect(streamed(cut, 64).problems[0]!.message).toMatch(
      /^the file ends inside annotation 5, and before it annotations\[2\]\.type: .+ and 2 annotations before it$/,
    );
  });

  it('locates a wrong item of a file whose items are spread over several lines at the line it starts', () => {
    const wrong = text
      .replace(/("index":10,"t":\d+,"conn":"session-\d","dir":)"(c2s|s2c)"/, '$1"up"')
      .replace('{"index":14,"type":"note"', '{"index":14,"type":"remark"');
    const pretty = JSON.stringify(JSON.parse(wrong), null, 2);
    const input = new TextEncoder().encode(pretty);
    for (const chunk of [1, 64, 4096, input.length]) expectSame(input, chunk);
    const got = streamed(input, 4096);
    expect(got.session).toBe(true);
    expect(got.messages).toHaveLength(10);
    const rows = pretty.split('\n');
    expect(rows[got.problems[0]!.line! - 1]).toBe('    {');
    expect(rows[got.problems[0]!.line!]).toBe('      "index": 10,');
    // A wrong annotation alone: located at its opening line too.
    const annotation = JSON.stringify(
      JSON.parse(text.replace('{"index":14,"type":"note"', '{"index":14,"type":"remark"')),
      null,
      2,
    );
    const annotationInput = new TextEncoder().encode(annotation);
    for (const chunk of [64, 4096]) expectSame(annotationInput, chunk);
    const line = streamed(annotationInput, 4096).problems[0]!.line!;
    expect(annotation.split('\n').slice(line - 1, line + 1)).toEqual(['    {', '      "index": 14,']);
  });

  it('reads items spread over several lines, and leaves one-line files to the whole-file reader', () => {
    const pretty = JSON.stringify(JSON.parse(text), null, 2);
    expect(transcriptJsonStreams(new TextEncoder().encode(pretty))).toBe(true);
    expectSame(new TextEncoder().encode(pretty), 4096);
    expect(streamed(new TextEncoder().encode(pretty), 4096).messages.length).toBeGreaterThan(30);
    expect(transcriptJsonStreams(new TextEncoder().encode(JSON.stringify(JSON.parse(text))))).toBe(false);
  });
});
