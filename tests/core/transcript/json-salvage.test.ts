/**
 * A Protoplay JSON transcript cut short or damaged keeps its header and every complete message and
 * annotation before the damage, with one located error; a file whose header is damaged keeps nothing and
 * says so. Cuts at every kind of offset (fixed seed), garbage in the middle, through the import path too.
 * Valid JSON with a message or annotation of the wrong shape keeps what comes before it, with the error
 * located where that item starts, in any layout; a header of the wrong shape keeps nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../src/core/errors';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import { importRecording } from '../../../src/core/transcript/import';
import {
  parseTranscriptJson,
  readTranscriptJson,
  serialiseTranscript,
} from '../../../src/core/transcript/json-format';
import type { Transcript } from '../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { loadRecording } from '../protocols/rddlsim/recordings';

/** A recorded rddlsim session, with annotations and texts that hold every character JSON escapes. */
function written(): { transcript: Transcript; text: string } {
  const recorded = loadRecording('sysadmin_inst_pomdp__1');
  let t = 0;
  const recorder = new TranscriptRecorder({ protocol: 'rddlsim', now: () => (t += 1), meta: { seed: 9 } });
  recorder.addConnection('session-1', 'session 1');
  for (const message of recorded.messages.slice(0, 60)) {
    if (message.text === undefined) continue;
    recorder.text(message.conn, message.dir, message.text);
    if (message.index % 7 === 0) recorder.annotate('note', { at: message.index, text: 'a "quoted" ] }' });
  }
  recorder.text('session-1', 's2c', 'odd text: "quotes" \\ back } ] [ { , : \n new line \t tab é 😀 \u0001');
  recorder.annotate('reward', { kind: 'step', turn: 1, reward: -1.5 });
  recorder.event('session-1', 's2c', 'close');
  const transcript = recorder.transcript;
  return { transcript, text: serialiseTranscript(transcript) };
}

const { transcript, text } = written();
/** Where each message's and annotation's JSON ends in the text. */
const messageEnds = transcript.messages.map((message) => endOf(JSON.stringify(message)));
const annotationEnds = transcript.annotations.map((annotation) => endOf(JSON.stringify(annotation)));
/** The comma after `"startedAt": N`: the header is complete once a reading gets past the number. */
const startedAtEnd = text.indexOf(',', text.indexOf('"startedAt"'));

function endOf(json: string): number {
  const at = text.indexOf(`    ${json}`);
  expect(at).toBeGreaterThan(0);
  return at + 4 + json.length;
}

/** The messages and annotations wholly inside the first `length` characters. */
function completeBefore(length: number) {
  const messages = messageEnds.filter((end) => end <= length).length;
  const annotations =
    messages === transcript.messages.length ? annotationEnds.filter((end) => end <= length).length : 0;
  return { messages, annotations };
}

describe('reading a damaged Protoplay JSON transcript', () => {
  it('holds enough messages and annotations to cut', () => {
    expect(transcript.messages.length).toBeGreaterThan(50);
    expect(transcript.annotations.length).toBeGreaterThan(5);
    expect(readTranscriptJson(text)).toEqual({ transcript });
  });

  it('keeps exactly the messages complete before any cut, and says where the file ends', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: text.length - 2 }), (length) => {
        const cut = text.slice(0, length);
        const read = readTranscriptJson(cut, 'cut.json');
        expect(read.damage).toBeInstanceOf(ProtoplayError);
        expect(read.damage!.location).toMatchObject({ source: 'cut.json', line: cut.split('\n').length });
        expect(read.damage!.message).toMatch(/^the file ends /);
        if (length <= startedAtEnd) {
          expect(read.transcript).toBeUndefined();
          expect(read.damage!.message).toMatch(/nothing could be kept/);
          return;
        }
        const expected = completeBefore(length);
        expect(read.transcript!.messages).toEqual(transcript.messages.slice(0, expected.messages));
        expect(read.transcript!.annotations).toEqual(transcript.annotations.slice(0, expected.annotations));
        expect(read.transcript).toMatchObject({ protocol: 'rddlsim', startedAt: transcript.startedAt });
        expect(read.damage!.message).toContain(
          `kept the header, ${expected.messages} complete message${expected.messages === 1 ? '' : 's'}`,
        );
      }),
      { seed: 20261126, numRuns: 400 },
    );
  });

  it('salvages other layouts too: the whole transcript on one line, cut anywhere', () => {
    const oneLine = `${JSON.stringify(transcript)}\n`;
    const ends = transcript.messages.map((message) => {
      const json = JSON.stringify(message);
      return oneLine.indexOf(json) + json.length;
    });
    const headerEnd = oneLine.indexOf(',', oneLine.indexOf('"startedAt"'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: oneLine.length - 3 }), (length) => {
        const read = readTranscriptJson(oneLine.slice(0, length), 'one.json');
        expect(read.damage!.location).toMatchObject({ line: 1, column: length + 1 });
        if (length <= headerEnd) {
          expect(read.transcript).toBeUndefined();
        } else {
          const complete = ends.filter((end) => end <= length).length;
          expect(read.transcript!.messages).toEqual(transcript.messages.slice(0, complete));
        }
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });

  it('names the message the file ends inside, and everything at the very end', () => {
    const inside = text.slice(0, messageEnds[41]! - 3);
    expect(readTranscriptJson(inside, 'cut.json').damage!.message).toMatch(
      /^the file ends inside message 41; kept the header, 41 complete messages and 0 annotations before it$/,
    );
    const between = text.slice(0, messageEnds[41]!);
    expect(readTranscriptJson(between).damage!.message).toMatch(/^the file ends after message 41;/);
    const lastBrace = text.slice(0, text.length - 2);
    const read = readTranscriptJson(lastBrace);
    expect(read.transcript).toEqual(transcript);
    expect(read.damage!.message).toMatch(/^the file ends after "annotations";/);
  });

  it('keeps the messages before garbage in the middle, located at the garbage', () => {
    const garbage = fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 0, maxLength: 40 })
      .map((codes) => String.fromCharCode(0, ...codes));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: text.length - 1 }),
        fc.integer({ min: 0, max: 60 }),
        garbage,
        (at, removed, junk) => {
          const damaged = text.slice(0, at) + junk + text.slice(at + removed);
          const read = readTranscriptJson(damaged, 'damaged.json');
          expect(read.damage).toBeInstanceOf(ProtoplayError);
          expect(read.damage!.location!.line).toBeGreaterThanOrEqual(text.slice(0, at).split('\n').length);
          if (at < startedAtEnd) {
            expect(read.transcript).toBeUndefined();
            return;
          }
          const expected = completeBefore(at);
          expect(read.transcript!.messages).toEqual(transcript.messages.slice(0, expected.messages));
          expect(read.transcript!.annotations).toEqual(transcript.annotations.slice(0, expected.annotations));
        },
      ),
      { seed: 20261126, numRuns: 300 },
    );
  });

  it('says where JSON that is not valid is, with line and column', () => {
    const line = text.split('\n').findIndex((row) => row.includes('"index":20,'));
    const rows = text.split('\n');
    rows[line] = rows[line]!.replace('"dir":', '"dir" ');
    const read = readTranscriptJson(rows.join('\n'), 'bad.json');
    expect(read.transcript!.messages).toHaveLength(20);
    expect(read.damage!.location).toMatchObject({ source: 'bad.json', line: line + 1 });
    expect(read.damage!.message).toMatch(
      new RegExp(
        `^not valid JSON at line ${line + 1} col 5 \\(inside message 20\\): .+; kept the header, 20 complete messages`,
      ),
    );
  });

  it('keeps the messages before one of the wrong shape when the file is also cut', () => {
    const cut = text
      .slice(0, messageEnds[20]! - 5)
      .replace(/("index":5,"t":\d+,"conn":"session-1","dir":)"(c2s|s2c)"/, '$1"up"');
    expect(cut).toContain('"dir":"up"');
    const read = readTranscriptJson(cut, 'cut.json');
    expect(read.transcript!.messages).toEqual(transcript.messages.slice(0, 5));
    expect(read.damage!.message).toBe(
      'the file ends inside message 20, and before it messages[5].dir: expected "c2s" or "s2c", got "up"; kept the header, 5 complete messages and 0 annotations before it',
    );
  });

  it('gives what was kept to validation and rewards through the import, with the located error', () => {
    const cut = new TextEncoder().encode(text.slice(0, messageEnds[30]! + 20));
    const result = importRecording([{ name: 'cut.json', bytes: cut }], PROTOCOLS);
    expect(result.format).toBe('protoplay-json');
    expect(result.transcripts).toHaveLength(1);
    expect(result.transcripts[0]!.messages).toHaveLength(31);
    expect(result.problems).toEqual([
      {
        file: 'cut.json',
        line: text.slice(0, messageEnds[30]! + 20).split('\n').length,
        message: expect.stringMatching(/^the file ends inside message 31;/),
      },
    ]);
  });

  it('keeps nothing from a file cut inside its header, and says so', () => {
    const result = importRecording(
      [
        {
          name: 'head.json',
          bytes: new TextEncoder().encode(text.slice(0, text.indexOf('"startedAt"') + 13)),
        },
      ],
      PROTOCOLS,
    );
    expect(result.transcripts).toEqual([]);
    expect(result.problems).toEqual([
      {
        file: 'head.json',
        line: 5,
        message:
          'the file ends inside "startedAt"; the header (format, version, protocol, startedAt) is not complete, so nothing could be kept',
      },
    ]);
  });
});

/** `text` with message 5's direction made wrong. */
const wrongDir = text.replace(/("index":5,"t":\d+,"conn":"session-1","dir":)"(c2s|s2c)"/, '$1"up"');
const WRONG_DIR = 'messages[5].dir: expected "c2s" or "s2c", got "up"';

/** The line (from 1) of the first row that starts with `start`. */
function lineOf(lines: string, start: string): number {
  const at = lines.split('\n').findIndex((row) => row.startsWith(start));
  expect(at).toBeGreaterThan(0);
  return at + 1;
}

describe('reading valid Protoplay JSON with a message or annotation of the wrong shape', () => {
  it('keeps the header, the messages before a wrong one and their annotations, located at its line', () => {
    expect(wrongDir).toContain('"dir":"up"');
    const read = readTranscriptJson(wrongDir, 'wrong.json');
    expect(read.transcript!.messages).toEqual(transcript.messages.slice(0, 5));
    const annotations = transcript.annotations.filter((annotation) => annotation.index < 5);
    expect(annotations).toHaveLength(1);
    expect(read.transcript!.annotations).toEqual(annotations);
    expect(read.transcript).toMatchObject({
      protocol: 'rddlsim',
      startedAt: transcript.startedAt,
      meta: { seed: 9 },
      connections: transcript.connections,
    });
    expect(read.damage).toBeInstanceOf(ProtoplayError);
    expect(read.damage!.message).toBe(
      `${WRONG_DIR}; kept the header, 5 complete messages and 1 annotation before it`,
    );
    expect(read.damage!.location).toEqual({
      source: 'wrong.json',
      line: lineOf(wrongDir, '    {"index":5,"t":'),
      column: 5,
    });
    // The strict reader still refuses the file.
    expect(() => parseTranscriptJson(wrongDir)).toThrow(WRONG_DIR);
  });

  it('keeps every message and the annotations before a wrong annotation, located at its line', () => {
    const wrong = text.replace('{"index":14,"type":"note"', '{"index":14,"type":"remark"');
    expect(wrong).not.toBe(text);
    const read = readTranscriptJson(wrong, 'wrong.json');
    expect(read.transcript!.messages).toEqual(transcript.messages);
    expect(read.transcript!.annotations).toEqual(transcript.annotations.slice(0, 2));
    expect(read.damage!.message).toBe(
      `annotations[2].type: expected "world" or "policy-log" or "error" or "violation" or "note" or "reward", got "remark"; kept the header, ${transcript.messages.length} complete messages and 2 annotations before it`,
    );
    expect(read.damage!.location).toEqual({
      source: 'wrong.json',
      line: lineOf(wrong, '    {"index":14,"type":'),
      column: 5,
    });
    // An annotation of a message that is not there is wrong too.
    const beyond = text.replace('{"index":21,"type":"note"', '{"index":900,"type":"note"');
    expect(readTranscriptJson(beyond).damage!.message).toMatch(
      /^annotations\[3\]\.index: expected a message index from 0 to \d+, got 900; kept the header, \d+ complete messages and 3 annotations before it$/,
    );
  });

  it('names the wrong message when an annotation of a message kept is wrong too, and keeps those before it', () => {
    const both = wrongDir.replace('{"index":0,"type":"note"', '{"index":0,"type":"remark"');
    const read = readTranscriptJson(both, 'both.json');
    expect(read.transcript!.messages).toEqual(transcript.messages.slice(0, 5));
    expect(read.transcript!.annotations).toEqual([]);
    expect(read.damage!.message).toBe(
      `${WRONG_DIR}; kept the header, 5 complete messages and 0 annotations before it`,
    );
    expect(read.damage!.location!.line).toBe(lineOf(both, '    {"index":5,"t":'));
  });

  it('locates the wrong message in other layouts: items over several lines, everything on one line', () => {
    const value = JSON.parse(wrongDir) as unknown;
    const pretty = JSON.stringify(value, null, 2);
    const rows = pretty.split('\n');
    // Message 5 is the sixth item of the messages list, each opened by `{` alone on its line.
    const messagesAt = rows.indexOf('  "messages": [');
    const opening = rows.map((row, i) => (i > messagesAt && row === '    {' ? i : -1)).filter((i) => i >= 0);
    expect(rows[opening[5]! + 1]).toBe('      "index": 5,');
    const readPretty = readTranscriptJson(pretty, 'pretty.json');
    expect(readPretty.transcript!.messages).toEqual(transcript.messages.slice(0, 5));
    expect(readPretty.damage!.message).toBe(
      `${WRONG_DIR}; kept the header, 5 complete messages and 1 annotation before it`,
    );
    expect(readPretty.damage!.location).toEqual({ source: 'pretty.json', line: opening[5]! + 1, column: 5 });

    const oneLine = JSON.stringify(value);
    const readOne = readTranscriptJson(oneLine, 'one.json');
    expect(readOne.transcript!.messages).toEqual(transcript.messages.slice(0, 5));
    expect(readOne.damage!.message).toBe(readPretty.damage!.message);
    expect(readOne.damage!.location).toEqual({
      source: 'one.json',
      line: 1,
      column: oneLine.indexOf('{"index":5,"t":') + 1,
    });
  });

  it('still keeps nothing from a file whose header is of the wrong shape', () => {
    const wrong = text.replace('"version": 2,', '"version": 7,');
    expect(wrong).not.toBe(text);
    expect(() => readTranscriptJson(wrong, 'head.json')).toThrow('version: expected 1 or 2, got 7');
  });

  it('keeps the annotations before a wrong one when the file is also cut', () => {
    const wrong = text.replace('{"index":14,"type":"note"', '{"index":14,"type":"remark"');
    const cut = wrong.slice(0, wrong.indexOf('{"index":35,"type"') + 10);
    const read = readTranscriptJson(cut, 'cut.json');
    expect(read.transcript!.messages).toEqual(transcript.messages);
    expect(read.transcript!.annotations).toEqual(transcript.annotations.slice(0, 2));
    expect(read.damage!.message).toBe(
      `the file ends inside annotation 5, and before it annotations[2].type: expected "world" or "policy-log" or "error" or "violation" or "note" or "reward", got "remark"; kept the header, ${transcript.messages.length} complete messages and 2 annotations before it`,
    );
    expect(read.damage!.location!.line).toBe(cut.split('\n').length);
  });

  it('gives the import one transcript of what was kept and one located problem', () => {
    const result = importRecording(
      [{ name: 'wrong.json', bytes: new TextEncoder().encode(wrongDir) }],
      PROTOCOLS,
    );
    expect(result.format).toBe('protoplay-json');
    expect(result.transcripts).toHaveLength(1);
    expect(result.transcripts[0]!.messages).toEqual(transcript.messages.slice(0, 5));
    expect(result.problems).toEqual([
      {
        file: 'wrong.json',
        line: lineOf(wrongDir, '    {"index":5,"t":'),
        message: `${WRONG_DIR}; kept the header, 5 complete messages and 1 annotation before it`,
      },
    ]);
  });
});
