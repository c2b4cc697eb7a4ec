import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import { openRecording, readRecording } from '../../../src/core/session/open-recording';
import { importRecording } from '../../../src/core/transcript/import';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { RDDLSIM_RECORDINGS } from '../protocols/rddlsim/recordings';

const recordFile = (name: string) =>
  readFileSync(resolve(RDDLSIM_RECORDINGS, `${name}.transcript`), 'latin1');
const input = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });

describe('opening a recording for the views', () => {
  it('sums up a real session: one session, its rounds, nothing broken, nothing unreadable', () => {
    const { protocol, summary, transcript } = openRecording(
      [input('sysadmin.transcript', recordFile('sysadmin_inst_mdp__1'))],
      PROTOCOLS,
    );
    expect(protocol.id).toBe(transcript.protocol);
    expect(summary).toMatchObject({
      protocol: transcript.protocol,
      sessions: 1,
      messages: transcript.messages.length,
      connections: 1,
      rounds: 3,
      violations: [],
      problems: [],
    });
  });

  it('reads first and validates when asked, to the same summary as opening at once', () => {
    const text = recordFile('sysadmin_inst_mdp__1').replace('<round-request', '<round-requesX');
    const read = readRecording([input('damaged.transcript', text)], PROTOCOLS);
    const opened = openRecording([input('damaged.transcript', text)], PROTOCOLS);
    expect(read.transcript).toEqual(opened.transcript);
    expect(read.protocol.id).toBe(opened.protocol.id);
    const summary = read.summarise();
    expect(summary.violations.length).toBeGreaterThan(0);
    expect(summary).toEqual(opened.summary);
  });

  it('reports the rules a damaged session breaks, and where the file stops being readable', () => {
    const text = recordFile('sysadmin_inst_mdp__1');
    // The same length, so the record's byte counts still hold: only the element's name is wrong.
    let damaged = text.replace('<round-request', '<round-requesX');
    const last = damaged.lastIndexOf('@@ ');
    const line = damaged.slice(0, last).split('\n').length;
    damaged = `${damaged.slice(0, last)}@@ oops\n${damaged.slice(last + 10)}`;
    const { summary } = openRecording([input('damaged.transcript', damaged)], PROTOCOLS);
    expect(summary.violations[0]).toMatchObject({ index: 2, rule: 'rddlsim.round-request.expected' });
    expect(summary.violations[0]!.message).toContain('<round-requesX>');
    expect(summary.problems).toEqual([
      expect.objectContaining({
        file: 'damaged.transcript',
        line,
        message: "not a record header: '@@ oops'",
      }),
    ]);
    // What precedes the damage is kept.
    expect(summary.messages).toBeGreaterThan(200);
  });

  it('says why, located, when nothing could be read', () => {
    const broken = input('broken.json', '{"format": "protoplay-transcript", "version": 2, "protocol": ');
    expect(() => openRecording([broken], PROTOCOLS)).toThrow(/broken\.json/);
    expect(() => openRecording([input('notes.txt', 'hello')], PROTOCOLS)).toThrow(
      /not a format Protoplay knows/,
    );
  });

  describe('a chosen session of several', () => {
    const sysadmin = () => input('sysadmin.transcript', recordFile('sysadmin_inst_mdp__1'));
    const elevators = () => input('elevators.transcript', recordFile('elevators_inst_mdp__1'));

    it('shows the session chosen, sums it up on its own and lists every session with its file', () => {
      const alone = openRecording([elevators()], PROTOCOLS);
      const both = () => [sysadmin(), elevators()];
      const read = readRecording(both(), PROTOCOLS, { session: 2 });
      expect(read.transcript).toEqual(importRecording(both(), PROTOCOLS).transcripts[1]);
      expect(read.transcript.messages.map((m) => m.text)).toEqual(
        alone.transcript.messages.map((m) => m.text),
      );
      expect(read.files).toEqual(['elevators.transcript']);
      const sysadminMessages = openRecording([sysadmin()], PROTOCOLS).transcript.messages.length;
      const summary = read.summarise();
      // The figures of the session shown, the first as it was.
      expect(summary).toEqual({
        ...alone.summary,
        sessions: 2,
        shown: 2,
        sessionList: [
          { session: 1, files: ['sysadmin.transcript'], messages: sysadminMessages },
          { session: 2, files: ['elevators.transcript'], messages: alone.transcript.messages.length },
        ],
      });
      expect(summary.messages).not.toBe(sysadminMessages);
      // The first by default.
      expect(readRecording(both(), PROTOCOLS).summarise()).toMatchObject({
        shown: 1,
        messages: sysadminMessages,
      });
      expect(openRecording(both(), PROTOCOLS, { session: 2 }).summary).toEqual(summary);
    });

    it('picks a session among Protoplay JSON files, each its own file', () => {
      const transcripts = [sysadmin(), elevators()].map(
        (file) => openRecording([file], PROTOCOLS).transcript,
      );
      const files = transcripts.map((transcript, i) =>
        input(`session-${i + 1}.json`, serialiseTranscript(transcript)),
      );
      const read = readRecording(files, PROTOCOLS, { session: 2 });
      expect(read.transcript.messages).toEqual(transcripts[1]!.messages);
      expect(read.files).toEqual(['session-2.json']);
      expect(read.summarise()).toMatchObject({
        sessions: 2,
        shown: 2,
        messages: transcripts[1]!.messages.length,
        sessionList: [
          { session: 1, files: ['session-1.json'], messages: transcripts[0]!.messages.length },
          { session: 2, files: ['session-2.json'], messages: transcripts[1]!.messages.length },
        ],
      });
    });

    it('lists the sessions of one file, each from that file', () => {
      const one = input(
        'both.transcript',
        recordFile('sysadmin_inst_mdp__1') + recordFile('elevators_inst_mdp__1'),
      );
      const summary = readRecording([one], PROTOCOLS, { session: 2 }).summarise();
      expect(summary.shown).toBe(2);
      expect(summary.sessionList.map((each) => each.files)).toEqual([
        ['both.transcript'],
        ['both.transcript'],
      ]);
      expect(summary.messages).toBe(summary.sessionList[1]!.messages);
    });

    it('says clearly that there is no such session', () => {
      const both = [sysadmin(), elevators()];
      expect(() => readRecording(both, PROTOCOLS, { session: 3 })).toThrow(
        'there is no session 3: sysadmin.transcript, elevators.transcript hold 2 sessions',
      );
      expect(() => readRecording(both, PROTOCOLS, { session: 0 })).toThrow(/there is no session 0/);
      expect(() => readRecording([sysadmin()], PROTOCOLS, { session: 2 })).toThrow(
        'there is no session 2: sysadmin.transcript holds one session',
      );
    });
  });
});
