import { describe, expect, it } from 'vitest';
import { ImportRefusedError, detectFormats, importRecording } from '../../../src/core/transcript/import';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { exportWireStreams } from '../../../src/core/transcript/wire-export';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import { inspectRecording } from '../../../src/core/protocols/inspection';
import type { ImportInput } from '../../../src/core/protocols/contract';
import { loadRecording, recordingBytes } from '../protocols/rddlsim/recordings';
import {
  loadRecording as loadAisysRecording,
  recordingBytes as aisysBytes,
} from '../protocols/aisys/recordings';
import { sortedKeys } from './sorted-keys';

const encoder = new TextEncoder();
const input = (name: string, content: string | Uint8Array): ImportInput => ({
  name,
  bytes: typeof content === 'string' ? encoder.encode(content) : content,
});

/** What `importRecording` refused the inputs with. */
function refusalOf(inputs: ImportInput[], choice = {}): ImportRefusedError {
  try {
    importRecording(inputs, PROTOCOLS, choice);
  } catch (error) {
    if (error instanceof ImportRefusedError) return error;
    throw error;
  }
  throw new Error('the inputs were read');
}

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

  it('reads several Protoplay JSON transcripts as one session each, and refuses a mix of protocols', () => {
    const game = input('game.json', serialiseTranscript(recorded));
    const sysadmin = loadRecording('sysadmin_inst_mdp__1');
    const other = input('sysadmin.json', serialiseTranscript(sysadmin));
    expect(detectFormats([game, other], PROTOCOLS)[0]).toMatchObject({
      protocol: 'rddlsim',
      format: 'protoplay-json',
      confidence: 1,
    });
    const both = importRecording([game, other], PROTOCOLS);
    expect(both).toMatchObject({ protocol: 'rddlsim', format: 'protoplay-json', problems: [] });
    expect(both.transcripts).toEqual([recorded, sysadmin]);

    // A recording of the real aisysprojserver, as Protoplay JSON: the files are of two protocols.
    const aisys = input('aisys.json', serialiseTranscript(loadAisysRecording('14-curl-canonical-serial')));
    const mixed = refusalOf([game, aisys]);
    expect(mixed.message).toBe(
      'game.json, aisys.json are of different protocols, which are read apart: rddlsim: game.json; aisys: aisys.json',
    );
    expect(mixed.problems).toEqual([
      {
        file: 'game.json',
        message:
          "a Protoplay JSON transcript of rddlsim, beside files of aisys: read each protocol's files on their own",
      },
      {
        file: 'aisys.json',
        message:
          "a Protoplay JSON transcript of aisys, beside files of rddlsim: read each protocol's files on their own",
      },
    ]);
    // The same when the protocols are only seen once the files are read (keys sorted, as `jq -S`).
    const sorted = (file: ImportInput) => input(file.name, sortedKeys(new TextDecoder().decode(file.bytes)));
    expect(refusalOf([sorted(game), sorted(aisys)]).message).toBe(mixed.message);
    // With a protocol chosen, the files of that protocol are read, the others reported.
    const chosen = importRecording([game, aisys], PROTOCOLS, {
      protocol: 'rddlsim',
      format: 'protoplay-json',
    });
    expect(chosen.transcripts).toEqual([recorded]);
    expect(chosen.problems).toEqual([
      { file: 'aisys.json', message: "the transcript is of protocol 'aisys', not 'rddlsim' as chosen" },
    ]);
    // Other formats of different protocols are refused alike.
    const record = input('r.transcript', recordingBytes('sysadmin_inst_mdp__1.transcript'));
    expect(refusalOf([record, input('a.jsonl', aisysBytes('14-curl-canonical-serial.jsonl'))]).message).toBe(
      'r.transcript, a.jsonl are of different protocols, which are read apart: rddlsim: r.transcript; aisys: a.jsonl',
    );
    expect(refusalOf([record, game]).message).toBe(
      'r.transcript, game.json are of different formats, which are read apart: rddlsim-record-file: r.transcript; protoplay-json: game.json',
    );
  });

  it('recognises Protoplay JSON after a byte order mark, and with its fields in any order', () => {
    const text = serialiseTranscript(recorded);
    const withBom = input('bom.json', `\uFEFF${text}`);
    expect(withBom.bytes.subarray(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(detectFormats([withBom], PROTOCOLS)[0]).toMatchObject({ protocol: 'rddlsim', confidence: 1 });
    expect(importRecording([withBom], PROTOCOLS).transcripts).toEqual([recorded]);

    const sorted = input('sorted.json', sortedKeys(text));
    expect(importRecording([sorted], PROTOCOLS)).toMatchObject({
      protocol: 'rddlsim',
      format: 'protoplay-json',
      transcripts: [recorded],
      problems: [],
    });
    // `format` and `protocol` last, after 171 messages: the fields seen and the first message tell.
    const { format, protocol, ...rest } = JSON.parse(text) as Record<string, unknown>;
    const last = input('last.json', JSON.stringify({ ...rest, protocol, format }, null, 2));
    expect(new TextDecoder().decode(last.bytes.subarray(0, 4096))).not.toContain('"format"');
    expect(detectFormats([last], PROTOCOLS)[0]).toEqual({
      protocol: '',
      format: 'protoplay-json',
      description: 'a Protoplay JSON transcript',
      confidence: 0.9,
    });
    expect(importRecording([last], PROTOCOLS)).toMatchObject({
      protocol: 'rddlsim',
      transcripts: [recorded],
      problems: [],
    });
    expect(importRecording([last, withBom], PROTOCOLS).transcripts).toEqual([recorded, recorded]);
    // Other JSON whose start does not show a transcript's fields is not taken for one.
    expect(
      detectFormats([input('chat.json', '{"messages": [{"role": "user", "text": "hi"}')], PROTOCOLS),
    ).toEqual([]);
  });

  it('reads a file as Protoplay JSON when that format is chosen, whatever its start shows', () => {
    // A long `meta` first: nothing in the first KiB says what the file is.
    const { meta, ...rest } = JSON.parse(serialiseTranscript(recorded)) as Record<string, unknown>;
    const padded = { meta: { ...(meta as object), note: 'x'.repeat(5000) }, ...rest };
    const file = input('padded.json', JSON.stringify(padded));
    expect(detectFormats([file], PROTOCOLS)).toEqual([]);
    const read = importRecording([file], PROTOCOLS, { format: 'protoplay-json' });
    expect(read).toMatchObject({
      protocol: 'rddlsim',
      format: 'protoplay-json',
      confidence: 0,
      problems: [],
    });
    expect(read.transcripts[0]!.messages).toEqual(recorded.messages);
  });

  it('says a file is empty rather than listing every format', () => {
    const empty = refusalOf([input('empty.json', '')]);
    expect(empty.message).toBe('empty.json is empty: there is nothing to read');
    expect(empty.problems).toEqual([
      { file: 'empty.json', message: 'the file is empty: there is nothing to read' },
    ]);
    const json = input('t.json', serialiseTranscript(recorded));
    expect(refusalOf([json, input('e.json', '')]).problems).toEqual([
      { file: 'e.json', message: 'the file is empty: there is nothing to read' },
    ]);
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

  it('recognises rddlsim messages pasted from a log, NULs lost, and orders and checks them as pasted', () => {
    const [client, server] = exportWireStreams(recorded, 'nul').map((stream) =>
      new TextDecoder().decode(stream.bytes).split('\0'),
    );
    const pasted = `\n${client![0]}\n${server![0]}\n`;
    const result = inspectRecording([input('pasted text', pasted)], PROTOCOLS);
    expect(result.format).toBe('rddlsim-wire-text');
    expect(result.problems).toEqual([]);
    // The newlines between the messages belong to none of them: both are read as sent, and sound.
    expect(result.transcripts[0]!.messages.map((m) => [m.dir, m.text])).toEqual([
      ['c2s', client![0]],
      ['s2c', server![0]],
    ]);
    expect(result.sessions[0]!.unreadable).toEqual([]);
    expect(result.sessions[0]!.violations.map((v) => [v.index, v.rule])).toEqual([
      [1, 'rddlsim.session.unfinished'],
    ]);
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
