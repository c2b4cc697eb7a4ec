import { describe, expect, it } from 'vitest';
import { gamaFrameLogFormat, writeGamaFrameLog } from '../../../../src/core/protocols/gama';
import { frames, playRecorded } from './support';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the GAMA frame log', () => {
  it('round-trips the frames of a session, one episode per connection', async () => {
    const { transcript } = await playRecorded(() => 'move_left', {
      scenario: 'A',
      maxCycles: 5,
      episodes: 2,
    });
    const text = writeGamaFrameLog(transcript);
    const input = { name: 'session.gamalog', bytes: bytes(text) };
    expect(gamaFrameLogFormat.detect([input])).toBe(1);
    const outcome = gamaFrameLogFormat.read([input]);
    expect(outcome.problems).toEqual([]);
    const [read] = outcome.transcripts;
    expect(frames(read!)).toEqual(frames(transcript));
    expect(read!.connections.map((c) => c.id)).toEqual(['episode 1', 'episode 2']);
    expect(read!.messages.filter((m) => m.kind === 'data').map((m) => m.channel)).toEqual(
      transcript.messages.filter((m) => m.kind === 'data').map((m) => m.channel),
    );
  });

  it('reports lines it cannot read with their number, and keeps the rest', () => {
    const text = [
      '# a hand-written log',
      '{ "scenario": "A_small" }',
      '{ "id": "Scav. 1", "connect": true',
      '{ "id": "Scav. 1", "request": { "state": [ [ 4 ] ], "reward": 0 } }',
      'move_ahead',
      'Scav. 1;idle',
    ].join('\n');
    const outcome = gamaFrameLogFormat.read([{ name: 'x.txt', bytes: bytes(text) }]);
    expect(outcome.problems.map((p) => `${p.file}:${p.line}`)).toEqual(['x.txt:3', 'x.txt:5']);
    expect(outcome.problems[0]!.message).toMatch(/^frame from GAMA: not JSON/);
    expect(outcome.transcripts[0]!.messages).toHaveLength(5);
  });

  it('never throws on bad input, and detects only what looks like GAMA frames', () => {
    const binary = { name: 'x.bin', bytes: new Uint8Array([0xff, 0xfe, 0x00]) };
    expect(gamaFrameLogFormat.read([binary])).toEqual({
      transcripts: [],
      problems: [{ file: 'x.bin', message: 'not UTF-8 text' }],
    });
    expect(
      gamaFrameLogFormat.read([{ name: 'e', bytes: bytes('\n# only a comment\n') }]).problems[0]!.message,
    ).toBe('no frame found');
    expect(
      gamaFrameLogFormat.detect([{ name: 'a.json', bytes: bytes('{ "format": "protoplay-transcript" }') }]),
    ).toBe(0);
    expect(
      gamaFrameLogFormat.detect([{ name: 'a.txt', bytes: bytes('{ "scenario": "B_open" }\n') }]),
    ).toBeGreaterThan(0.5);
  });
});
