/**
 * Protoplay JSON read in chunks gives what the whole-file reader gives: the same messages handed over and
 * the same located problems, for a sound file, a file cut at any offset (fixed seed), garbage in the
 * middle, a message of the wrong shape, items spread over several lines, and at any chunk size (chunks
 * that split lines and multi-byte characters). Files not laid out one field per line are left to the
 * whole-file reader.
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
  // A file the whole reader keeps no session of may still hand over the messages before its wrong one.
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
    const cut = new TextEncoder().encode(wrong.slice(0, text.length - 2000));
    expectSame(cut);
    expect(streamed(cut, 100).problems[0]!.message).toMatch(/and before it messages\[\d+\]\.dir/);
  });

  it('reads items spread over several lines, and leaves one-line files to the whole-file reader', () => {
    const pretty = JSON.stringify(JSON.parse(text), null, 2);
    expect(transcriptJsonStreams(new TextEncoder().encode(pretty))).toBe(true);
    expectSame(new TextEncoder().encode(pretty), 4096);
    expect(streamed(new TextEncoder().encode(pretty), 4096).messages.length).toBeGreaterThan(30);
    expect(transcriptJsonStreams(new TextEncoder().encode(JSON.stringify(JSON.parse(text))))).toBe(false);
  });
});
