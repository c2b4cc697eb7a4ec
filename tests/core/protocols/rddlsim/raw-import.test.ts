import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importRawStreams,
  importRddlsimWireText,
  streamRddlsimWireText,
} from '../../../../src/core/protocols/rddlsim/raw-import';
import { inspectRecording } from '../../../../src/core/protocols/inspection';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import type { ImportProblem } from '../../../../src/core/protocols/contract';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import { detectFormats } from '../../../../src/core/transcript/import';
import { MAIN_SESSIONS, SHARED, loadRecording, recordingBytes } from './recordings';

const SHARED_CONFORMANCE = join(SHARED, 'conformance');

/** Every file under a folder. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

const encoder = new TextEncoder();

/** Direction and text of the data messages, in order. */
const dataOf = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.text, m.framing]);

/** The texts of a recorded session's messages, in order. */
const recordedTexts = (name: string) =>
  loadRecording(name)
    .messages.filter((m) => m.kind === 'data')
    .map((m) => m.text!);

/** Lines (1-based) and bytes (0-based) of a text, as a wire-text reader locates them. */
function placeOf(text: string, at: number): { line: number; byte: number } {
  return {
    line: text.slice(0, at).split('\n').length,
    byte: encoder.encode(text.slice(0, at)).length,
  };
}

/** What a function throws. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Reads a wire text fed in chunks of `size` bytes. */
function readInChunks(text: string | Uint8Array, size: number, maxMessageBytes?: number) {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
  const messages: TranscriptMessage[] = [];
  const problems: ImportProblem[] = [];
  const reader = streamRddlsimWireText(
    'log.txt',
    { message: (m) => messages.push(m), problem: (p) => problems.push(p) },
    maxMessageBytes === undefined ? {} : { maxMessageBytes },
  );
  for (let i = 0; i < bytes.length; i += size) reader.push(bytes.slice(i, i + size));
  reader.end();
  return { messages, problems };
}

describe('importRawStreams', () => {
  it.each([...MAIN_SESSIONS, 'edge-cases/javaclient_term'])(
    'orders the c2s/s2c pair of %s as the timed recording does',
    (name) => {
      const raw = importRawStreams(
        { c2s: recordingBytes(`${name}.c2s.raw`), s2c: recordingBytes(`${name}.s2c.raw`) },
        { name },
      );
      expect(dataOf(raw)).toEqual(dataOf(loadRecording(name)));
      expect(raw.meta).toMatchObject({ timing: 'unknown', source: name });
      expect(raw.messages.every((m) => m.t === 0)).toBe(true);
    },
  );

  it.each(['s2c', 'c2s'] as const)(
    'reports a %s stream cut in half as a file that ends in the middle of a message, not as a broken rule',
    (dir) => {
      const name = 'sysadmin_inst_mdp__1';
      const whole = recordingBytes(`${name}.${dir}.raw`);
      // Cut 20 bytes before the end of a message half way in.
      const cut = whole.slice(0, whole.indexOf(0, whole.length >> 1) - 20);
      const lastStart = cut.lastIndexOf(0) + 1;
      const inputs = (['c2s', 's2c'] as const).map((d) => ({
        name: `sysadmin.${d}.raw`,
        bytes: d === dir ? cut : recordingBytes(`${name}.${d}.raw`),
      }));
      const report = inspectRecording(inputs, PROTOCOLS);
      expect(report.problems).toEqual([
        {
          file: `sysadmin.${dir}.raw`,
          line: new TextDecoder().decode(cut.subarray(0, lastStart)).split('\n').length,
          byte: lastStart,
          message: expect.stringMatching(
            /^the file ends in the middle of a message \(<(turn|actions)>.*\.\.\.\); it is left out$/,
          ),
        },
      ]);
      // What was read of the cut stream is kept, up to the message cut off.
      const kept = report.transcripts[0]!.messages.filter((m) => m.dir === dir).map((m) => m.text);
      const texts = new TextDecoder().decode(cut.subarray(0, lastStart)).split('\0').slice(0, -1);
      expect(kept).toEqual(texts);
      const session = report.sessions[0]!;
      expect(session.unreadable).toEqual([]);
      expect(session.violations.map((v) => v.rule)).not.toContain('rddlsim.message.malformed');
    },
  );

  it('throws the cut, located, when no one takes it, and keeps blank space after the last message out', () => {
    const c2s = recordingBytes('sysadmin_inst_mdp__1.c2s.raw');
    const s2c = recordingBytes('sysadmin_inst_mdp__1.s2c.raw');
    const read = () => importRawStreams({ c2s: c2s.slice(0, 100), s2c }, { name: 'sys' });
    expect(read).toThrow(
      'the file ends in the middle of a message (<session-request><problem-name>sysadmin_...); it is left out',
    );
    expect(thrown(read)).toMatchObject({ location: { source: 'sys.c2s.raw', line: 1, offset: 0 } });
    const blank = importRawStreams({ c2s: new Uint8Array([...c2s, 0x0a]), s2c });
    expect(dataOf(blank)).toEqual(dataOf(importRawStreams({ c2s, s2c })));
  });
});

describe('importRddlsimWireText', () => {
  it('finds messages by root element, tells directions by root, and keeps NUL framing when present', () => {
    const pasted = [
      '<?xml version="1.0" encoding="UTF-8"?>\n<session-request><problem-name>p</problem-name><client-name>c</client-name></session-request>\0',
      '\n<session-init><task>AA==</task><session-id>1</session-id><num-rounds>1</num-rounds><time-allowed>1.0</time-allowed></session-init>\n',
      '<round-request/>\n',
    ].join('');
    const transcript = importRddlsimWireText(pasted);
    expect(transcript.messages.map((m) => [m.dir, m.framing])).toEqual([
      ['c2s', undefined],
      ['s2c', 'none'],
      ['c2s', 'none'],
    ]);
    // The newline between two messages belongs to neither.
    expect(transcript.messages[1]!.text).toMatch(/^<session-init>/);
  });

  it('says which pasted message is not rddlsim, and where', () => {
    const read = () => importRddlsimWireText('<round-request/>\n<html/>');
    expect(read).toThrow("not an rddlsim message, skipped: '<html/>'");
    expect(thrown(read)).toMatchObject({ location: { source: 'pasted text', line: 2, offset: 17 } });
  });
});

describe('rddlsim wire text (messages copied from a log)', () => {
  const name = 'sysadmin_inst_mdp__1';
  const texts = recordedTexts(name);

  it.each([
    ['one per line', '\n'],
    ['blank lines between them', '\n\n  \n'],
    ['CRLF line ends', '\r\n'],
  ])('reads a real session pasted %s as the recording, every message sound', (_, separator) => {
    const log = `${separator}${texts.join(separator)}${separator}`;
    const report = inspectRecording([{ name: 'log.txt', bytes: encoder.encode(log) }], PROTOCOLS);
    expect(report.format).toBe('rddlsim-wire-text');
    expect(report.problems).toEqual([]);
    expect(report.transcripts[0]!.messages.map((m) => m.text)).toEqual(texts);
    expect(report.sessions[0]).toMatchObject({ violations: [], unreadable: [] });
    expect(report.sessions[0]!.rounds.map((r) => r.reward)).toEqual([261.5, 207.25, 254.5]);
    // Read in chunks, whatever their size, the same messages.
    for (const size of [7, 4096])
      expect(readInChunks(log, size)).toEqual({ messages: report.transcripts[0]!.messages, problems: [] });
  });

  it("skips a log's own lines between messages, each located by line and byte, and loses no message", () => {
    const noise = ['2024-05-01 10:00:01 INFO got session init', '2024-05-01 10:00:02 WARN policy slow'];
    const lines = [...texts.slice(0, 1), noise[0]!, ...texts.slice(1, 6), noise[1]!, ...texts.slice(6)];
    const log = lines.join('\n') + '\n';
    const report = inspectRecording([{ name: 'log.txt', bytes: encoder.encode(log) }], PROTOCOLS);
    expect(report.problems).toEqual(
      noise.map((line) => ({
        file: 'log.txt',
        ...placeOf(log, log.indexOf(line)),
        message: `not an rddlsim message, skipped: '${line}'`,
      })),
    );
    expect(report.transcripts[0]!.messages.map((m) => m.text)).toEqual(texts);
    expect(report.sessions[0]).toMatchObject({ violations: [], unreadable: [] });
    expect(readInChunks(log, 5).problems).toEqual(report.problems);
  });

  it('detects a log that opens with its own lines, less sure, and skips them located, losing no message', () => {
    const noise = '2024-05-01 10:00:00 INFO client starting\n2024-05-01 10:00:01 INFO connected';
    for (const log of [
      `${noise}\n${texts.join('\n')}\n`,
      // The first message on a log line of its own, after the line's prefix.
      `${noise}\n2024-05-01 10:00:02 INFO sent ${texts.join('\n')}\n`,
    ]) {
      const file = { name: 'log.txt', bytes: encoder.encode(log) };
      expect(detectFormats([file], PROTOCOLS)[0]).toMatchObject({
        protocol: 'rddlsim',
        format: 'rddlsim-wire-text',
        confidence: 0.6,
      });
      const report = inspectRecording([file], PROTOCOLS);
      const skipped = log.slice(0, log.indexOf('<')).trim().replace(/\s+/g, ' ').slice(0, 60);
      expect(report.problems).toEqual([
        { file: 'log.txt', line: 1, byte: 0, message: `not an rddlsim message, skipped: '${skipped}'` },
      ]);
      expect(report.transcripts[0]!.messages.map((m) => m.text)).toEqual(texts);
      expect(report.sessions[0]!.rounds.map((r) => r.reward)).toEqual([261.5, 207.25, 254.5]);
      expect(readInChunks(log, 100).problems).toEqual(report.problems);
    }
  });

  it('takes no other file for wire text: every conformance recording, record file and server log', () => {
    const files = filesUnder(SHARED_CONFORMANCE);
    expect(files.length).toBeGreaterThan(200);
    const taken = files.filter((path) =>
      detectFormats([{ name: path, bytes: new Uint8Array(readFileSync(path)) }], PROTOCOLS).some(
        (candidate) => candidate.format === 'rddlsim-wire-text',
      ),
    );
    expect(taken).toEqual([]);
  });

  it('reports a last message cut off by the end of the file once, at the line and byte it starts at', () => {
    const log = texts.join('\n');
    const cutAt = log.length - 30;
    const cut = log.slice(0, cutAt);
    const start = cut.lastIndexOf('<?xml');
    for (const size of [3, 1 << 20])
      expect(readInChunks(cut, size).problems).toEqual([
        {
          file: 'log.txt',
          ...placeOf(cut, start),
          message: 'the file ends in the middle of a message (<session-end><instance-name>sysadmin_ins...)',
        },
      ]);
    // A message whose root closes with the file's last byte is whole.
    expect(readInChunks(log, 1000).problems).toEqual([]);
  });

  it('reports a message longer than rddlsim reads at once once, located, and reads on after it', () => {
    const max = 4096;
    const long = `<?xml version="1.0" encoding="UTF-8"?>\n<turn>${'A'.repeat(5 * max)}</turn>`;
    const log = [...texts.slice(0, 5), long, ...texts.slice(5, 8)].join('\0') + '\0';
    const { messages, problems } = readInChunks(log, 1000, max);
    expect(problems).toEqual([
      {
        file: 'log.txt',
        ...placeOf(log, log.indexOf(long)),
        message: `a message of ${encoder.encode(long).length.toLocaleString('en')} bytes (<turn>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...) is longer than the 4,096 bytes rddlsim reads at once: its first part is kept and the rest skipped`,
      },
    ]);
    // Its first part is what rddlsim would read; the messages after it are all there.
    expect(messages.map((m) => m.text!.length)).toEqual([
      ...texts.slice(0, 5).map((t) => t.length),
      max - 1,
      ...texts.slice(5, 8).map((t) => t.length),
    ]);
  });

  it('reports a long message cut off by the end of the file once, where it starts', () => {
    const max = 4096;
    const head = texts.slice(0, 5).join('\0') + '\0';
    const long = `<?xml version="1.0" encoding="UTF-8"?>\n<turn>${'A'.repeat(20 * max)}`;
    const log = head + long;
    for (const size of [1000, max, 1 << 20]) {
      const { messages, problems } = readInChunks(log, size, max);
      expect(problems).toEqual([
        {
          file: 'log.txt',
          ...placeOf(log, head.length),
          message: `the file ends in the middle of a message (<turn>${'A'.repeat(34)}...), after ${long.length.toLocaleString('en')} bytes, longer than the 4,096 bytes rddlsim reads at once: its first part is kept`,
        },
      ]);
      expect(messages).toHaveLength(6);
    }
  });
});
