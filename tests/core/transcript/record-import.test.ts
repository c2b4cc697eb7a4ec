import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../src/core/errors';
import { readRecordFile } from '../../../src/core/transcript/record-import';
import { importRddlsimRecordFile } from '../../../src/core/protocols/rddlsim/recording-formats';
import { exportWireStreams } from '../../../src/core/transcript/wire-export';
import { EDGE_CASES, MAIN_SESSIONS, loadRecording, recordingBytes } from '../protocols/rddlsim/recordings';
import { inspectRecording } from '../../../src/core/protocols/inspection';
import { PROTOCOLS } from '../../../src/core/protocols/registry';

const encoder = new TextEncoder();

describe('importRecordFile on the recorded sessions', () => {
  it.each(MAIN_SESSIONS)('gives back exactly the raw byte streams of %s', (name) => {
    const streams = exportWireStreams(loadRecording(name), 'nul');
    expect(streams.map((s) => s.dir)).toEqual(['c2s', 's2c']);
    expect(streams[0]!.bytes).toEqual(recordingBytes(`${name}.c2s.raw`));
    expect(streams[1]!.bytes).toEqual(recordingBytes(`${name}.s2c.raw`));
  });

  it('splits a record holding two pipelined messages', () => {
    const messages = loadRecording('edge-cases/pipelined').messages.filter(
      (m) => m.dir === 'c2s' && m.kind === 'data',
    );
    expect(messages.map((m) => m.text)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>\n<session-request><problem-name>sysadmin_inst_mdp__1</problem-name><client-name>p</client-name></session-request>',
      '<?xml version="1.0" encoding="UTF-8"?>\n<round-request/>',
    ]);
  });

  it('splits the no-header stream by root element: session-init, then round-init and turn from one record', () => {
    const server = loadRecording('edge-cases/no_header_flag').messages.filter(
      (m) => m.dir === 's2c' && m.kind === 'data',
    );
    expect(server.map((m) => [/^<([a-z-]+)/.exec(m.text!)![1], m.framing])).toEqual([
      ['session-init', 'none'],
      ['round-init', 'none'],
      ['turn', 'none'],
    ]);
    expect(server[1]!.t).toBe(server[2]!.t);
  });

  it('keeps bytes exactly as sent, whitespace before the declaration included', () => {
    const message = loadRecording('edge-cases/leading_ws').messages[2]!;
    expect(message.text).toBe('\n<?xml version="1.0" encoding="UTF-8"?>\n<round-request/>');
  });

  it('records connection closes with their direction and time', () => {
    const { messages } = loadRecording('sysadmin_inst_mdp__1');
    expect(messages.slice(-2).map((m) => [m.kind, m.dir])).toEqual([
      ['close', 's2c'],
      ['close', 'c2s'],
    ]);
    expect(messages[0]!.t).toBe(117);
  });

  it.each(EDGE_CASES)('imports edge case %s with one connection and dense indices', (name) => {
    const transcript = loadRecording(`edge-cases/${name}`);
    expect(transcript.connections).toEqual([{ id: 'session-1', label: 'session 1' }]);
    transcript.messages.forEach((message, index) => expect(message.index).toBe(index));
  });
});

describe('record files joined end to end', () => {
  const joined = (...names: string[]) =>
    new Uint8Array(names.flatMap((name) => [...recordingBytes(`${name}.transcript`)]));
  const sessionOf = (name: string, session: number) => {
    const conn = `session-${session}`;
    return loadRecording(name).messages.map((message) => ({ ...message, conn }));
  };

  it('reads each connection as a session of its own, as the files given apart', () => {
    const file = joined('sysadmin_inst_mdp__1', 'elevators_inst_mdp__1');
    const report = inspectRecording([{ name: 'two.transcript', bytes: file }], PROTOCOLS);
    expect(report.format).toBe('rddlsim-record-file');
    expect(report.problems).toEqual([]);
    expect(report.transcripts.map((t) => t.messages)).toEqual([
      sessionOf('sysadmin_inst_mdp__1', 1),
      sessionOf('elevators_inst_mdp__1', 2),
    ]);
    expect(report.transcripts[1]!.connections).toEqual([{ id: 'session-2', label: 'session 2' }]);
    expect(report.sessions.map((s) => [s.violations, s.unreadable, s.rounds.length])).toEqual([
      [[], [], 3],
      [[], [], 2],
    ]);
    // Sessions are numbered on over several files.
    const more = inspectRecording(
      [
        { name: 'two.transcript', bytes: file },
        { name: 'one.transcript', bytes: joined('game_of_life_inst_mdp__1') },
      ],
      PROTOCOLS,
    );
    expect(more.transcripts.map((t) => t.messages[0]!.conn)).toEqual(['session-1', 'session-2', 'session-3']);
    expect(() => importRddlsimRecordFile(file, { name: 'two.transcript' })).toThrow(
      'two.transcript records 2 sessions, one after the other; expected one',
    );
  });

  it('starts a new session where the records are numbered from 1 again, even when the server did not close', () => {
    const file = joined('edge-cases/pddl', 'sysadmin_inst_mdp__1');
    const report = inspectRecording([{ name: 'two.transcript', bytes: file }], PROTOCOLS);
    expect(report.transcripts.map((t) => t.messages)).toEqual([
      sessionOf('edge-cases/pddl', 1),
      sessionOf('sysadmin_inst_mdp__1', 2),
    ]);
    expect(report.sessions[1]!.violations).toEqual([]);
  });
});

describe('readRecordFile', () => {
  it('yields the records with their bytes untouched', () => {
    const records = [
      ...readRecordFile(
        encoder.encode('@@ 1 C>S 5 3\na\0b\n@@ 2 S>C 7 CLOSE\n@@ 3 S>C 8 ERROR ECONNRESET\n'),
      ),
    ];
    expect(records).toEqual([
      { seq: 1, dir: 'c2s', ms: 5, kind: 'data', bytes: encoder.encode('a\0b') },
      { seq: 2, dir: 's2c', ms: 7, kind: 'close' },
      { seq: 3, dir: 's2c', ms: 8, kind: 'error', detail: 'ECONNRESET' },
    ]);
  });

  it('locates a wrong record length at the header that states it, not where the next header was due', () => {
    const file = '@@ 1 C>S 5 3\nabc\n@@ 2 S>C 6 20\nshort body\nmore\n@@ 3 C>S 7 2\nok\n';
    const read = () => [...readRecordFile(encoder.encode(file), 'f.transcript')];
    expect(read).toThrow("record announces 20 bytes, but what follows them (line 6: ' C>S 7 2')");
    try {
      read();
    } catch (error) {
      expect((error as ProtoplayError).location).toMatchObject({ source: 'f.transcript', line: 3 });
    }
  });

  it('locates a broken header and a record cut short', () => {
    const broken = () => [
      ...readRecordFile(encoder.encode('@@ 1 C>S 5 1\nx\n@@ not a header\n'), 'f.transcript'),
    ];
    expect(broken).toThrow(ProtoplayError);
    expect(broken).toThrow("not a record header: '@@ not a header'");
    try {
      broken();
    } catch (error) {
      expect((error as ProtoplayError).location).toMatchObject({ source: 'f.transcript', line: 3 });
    }
    expect(() => [...readRecordFile(encoder.encode('@@ 1 C>S 5 10\nabc'))]).toThrow('announces 10 bytes');
  });

  it('turns an unterminated rest into a message without framing', () => {
    const transcript = importRddlsimRecordFile(
      encoder.encode('@@ 1 C>S 0 11\n<actions/>\0\n@@ 2 C>S 1 4\n<act\n'),
    );
    expect(transcript.messages.map((m) => [m.text, m.framing])).toEqual([
      ['<actions/>', undefined],
      ['<act', 'none'],
    ]);
  });
});
