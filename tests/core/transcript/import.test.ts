import { describe, expect, it } from 'vitest';
import { detectFormats, importRecording } from '../../../src/core/transcript/import';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { exportWireStreams } from '../../../src/core/transcript/wire-export';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import type { ImportInput } from '../../../src/core/protocols/contract';
import { loadRecording, recordingBytes } from '../protocols/rddlsim/recordings';

const encoder = new TextEncoder();
const input = (name: string, content: string | Uint8Array): ImportInput => ({
  name,
  bytes: typeof content === 'string' ? encoder.encode(content) : content,
});

describe('detectFormats and importRecording', () => {
  const recorded = loadRecording('game_of_life_inst_mdp__1');

  it('recognises and imports Protoplay JSON of a registered protocol', () => {
    const json = input('t.json', serialiseTranscript(recorded));
    expect(detectFormats([json], PROTOCOLS)[0]).toMatchObject({
      protocol: 'rddlsim',
      format: 'protoplay-json',
      confidence: 1,
    });
    const result = importRecording([json], PROTOCOLS);
    expect(result.problems).toEqual([]);
    expect(result.transcripts).toEqual([recorded]);
  });

  it('reports Protoplay JSON of an unknown protocol, or broken JSON, as a located problem', () => {
    const other = serialiseTranscript({ ...recorded, protocol: 'chess' });
    expect(importRecording([input('c.json', other)], PROTOCOLS).problems[0]!.message).toContain(
      "protocol 'chess'",
    );
    const broken = serialiseTranscript(recorded).replace('"c2s"', '"c2s');
    const result = importRecording([input('b.json', broken)], PROTOCOLS);
    // What came before the damage is kept (tests/core/transcript/json-salvage.test.ts reads more).
    const first = recorded.messages.findIndex((message) => message.dir === 'c2s');
    expect(result.transcripts[0]!.messages).toEqual(recorded.messages.slice(0, first));
    expect(result.problems[0]).toMatchObject({ file: 'b.json', line: expect.any(Number) });
    expect(result.problems[0]!.message).toMatch(
      new RegExp(`^not valid JSON at line \\d+ col \\d+ \\(inside message ${first}\\)`),
    );
  });

  it('recognises and imports record files, as bytes or as pasted text', () => {
    const bytes = recordingBytes('edge-cases/resource_request.transcript');
    expect(detectFormats([input('r.transcript', bytes)], PROTOCOLS)[0]).toMatchObject({
      protocol: 'rddlsim',
      format: 'rddlsim-record-file',
      description: 'a recorded rddlsim session (record file)',
    });
    const read = importRecording([input('r.transcript', bytes)], PROTOCOLS);
    expect(read.transcripts[0]!.messages).toHaveLength(
      loadRecording('edge-cases/resource_request').messages.length,
    );
    const pasted = importRecording([input('pasted text', new TextDecoder().decode(bytes))], PROTOCOLS);
    expect(pasted.transcripts[0]!.messages.length).toBeGreaterThan(10);
  });

  it('keeps what a damaged record file held before the damage, and says where it is', () => {
    const bytes = new TextDecoder('latin1').decode(recordingBytes('sysadmin_inst_mdp__1.transcript'));
    const lines = bytes.split('\n');
    const at = lines.findIndex((line, i) => i > 40 && line.startsWith('@@ '));
    lines[at] = '@@ garbage';
    const damaged = new Uint8Array([...lines.join('\n')].map((c) => c.charCodeAt(0)));
    const result = importRecording([input('s.transcript', damaged)], PROTOCOLS);
    expect(result.transcripts).toHaveLength(1);
    expect(result.transcripts[0]!.messages.length).toBeGreaterThan(5);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: 's.transcript',
        line: at + 1,
        message: expect.stringContaining('not a record header'),
      }),
    ]);
  });

  it('pairs the two raw streams of a connection, and warns when one half is missing', () => {
    const c2s = input('sysadmin.c2s.raw', recordingBytes('sysadmin_inst_mdp__1.c2s.raw'));
    const s2c = input('sysadmin.s2c.raw', recordingBytes('sysadmin_inst_mdp__1.s2c.raw'));
    const both = importRecording([s2c, c2s], PROTOCOLS);
    expect(both.format).toBe('rddlsim-raw-streams');
    expect(both.problems).toEqual([]);
    expect(both.transcripts).toHaveLength(1);
    expect(both.transcripts[0]!.messages.map((m) => m.text)).toEqual(
      loadRecording('sysadmin_inst_mdp__1')
        .messages.filter((m) => m.kind === 'data')
        .map((m) => m.text),
    );
    const half = importRecording([c2s], PROTOCOLS);
    expect(half.problems[0]!.message).toContain('half of the conversation is missing: no sysadmin.s2c.raw');
  });

  it('recognises rddlsim messages pasted from a log, NULs lost, and orders them as pasted', () => {
    const streams = exportWireStreams(recorded, 'nul');
    const serverText = new TextDecoder().decode(streams[1]!.bytes);
    const firstServerMessage = serverText.slice(0, serverText.indexOf('\0'));
    const pasted = `\n<?xml version="1.0" encoding="UTF-8"?>\n<round-request/>\n${firstServerMessage}\n`;
    const result = importRecording([input('pasted text', pasted)], PROTOCOLS);
    expect(result.format).toBe('rddlsim-wire-text');
    expect(result.transcripts[0]!.messages.map((m) => m.dir)).toEqual(['c2s', 's2c']);
  });

  it('lets the user force a protocol and format', () => {
    const bytes = recordingBytes('edge-cases/resource_request.transcript');
    // MASSim has no reader of record files: forcing the protocol alone finds none.
    expect(() => importRecording([input('r.transcript', bytes)], PROTOCOLS, { protocol: 'massim' })).toThrow(
      'r.transcript is not a format Protoplay knows for massim',
    );
    // Forcing a format reads with it, whatever detection says, and reports what it could not read.
    const forced = importRecording([input('r.transcript', bytes)], PROTOCOLS, {
      protocol: 'massim',
      format: 'massim-timeline',
    });
    expect(forced).toMatchObject({ protocol: 'massim', format: 'massim-timeline', transcripts: [] });
    expect(forced.problems[0]).toMatchObject({
      line: 1,
      message: expect.stringContaining('Not a JSON line'),
    });
  });

  it('refuses anything else, saying what it expected', () => {
    expect(detectFormats([input('x', 'hello')], PROTOCOLS)).toEqual([]);
    expect(() => importRecording([input('x.json', '{"a": 1}')], PROTOCOLS)).toThrow(
      /^x\.json is not a format Protoplay knows: expected Protoplay JSON, a recorded rddlsim session \(record file\), .*MASSim recording/,
    );
  });
});
