import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import { openRecording, readRecording } from '../../../src/core/session/open-recording';
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
});
