import { describe, expect, it } from 'vitest';
import { gamaFrameLogFormat, writeGamaFrameLog } from '../../../../src/core/protocols/gama';
import { frames, playRecorded } from './support';
import type { ImportProblem } from '../../../../src/core/protocols/contract';
import { inspectRecording, inspectStreamed } from '../../../../src/core/protocols/inspection';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';

async function* chunksOf(all: Uint8Array, size: number) {
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

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

  it('reads a log fed in chunks of any size as it reads it whole, and inspects it the same way', async () => {
    const { transcript } = await playRecorded(() => 'move_left', {
      scenario: 'A',
      maxCycles: 5,
      episodes: 2,
    });
    const text = `${writeGamaFrameLog(transcript)}{ "id": "Scav. 1", "broken"\r\nScav. 1;idle`;
    const whole = gamaFrameLogFormat.read([{ name: 'l.gamalog', bytes: bytes(text) }]);
    expect(whole.problems).toHaveLength(1);
    const all = bytes(text);
    for (const size of [1, 7, 4096]) {
      const messages: TranscriptMessage[] = [];
      const problems: ImportProblem[] = [];
      const reader = gamaFrameLogFormat.stream!('l.gamalog', {
        message: (m) => messages.push(m),
        problem: (p) => problems.push(p),
      });
      for (let i = 0; i < all.length; i += size) reader.push(all.slice(i, i + size));
      reader.end();
      expect(messages).toEqual(whole.transcripts[0]!.messages);
      expect(problems).toEqual(whole.problems);
    }
    const input = { name: 'l.gamalog', bytes: all };
    const streamed = await inspectStreamed(
      [{ name: input.name, start: all.subarray(0, 4096), chunks: chunksOf(all, 100) }],
      PROTOCOLS,
    );
    const { transcripts: _, ...read } = inspectRecording([input], PROTOCOLS);
    expect(streamed).toEqual({ ...read, transcripts: [] });
  });

  it("gives each episode the total the session's own transcript gives, from the close the log keeps", async () => {
    const { transcript } = await playRecorded(() => 'move_left', {
      scenario: 'A',
      maxCycles: 20,
      episodes: 2,
    });
    const text = writeGamaFrameLog(transcript);
    expect(text).toContain('\n# close: episode over\n');
    const json = new TextEncoder().encode(JSON.stringify(transcript));
    const fromTranscript = inspectRecording([{ name: 'g.json', bytes: json }], PROTOCOLS);
    const fromLog = inspectRecording([{ name: 'g.log', bytes: bytes(text) }], PROTOCOLS);
    expect(fromLog.format).toBe('gama-frame-log');
    const rounds = fromTranscript.sessions[0]!.rounds;
    expect(rounds).toHaveLength(2);
    expect(rounds.every((round) => typeof round.reward === 'number')).toBe(true);
    expect(fromLog.sessions[0]!.rounds).toEqual(rounds);
    expect(fromLog.sessions[0]!.violations).toEqual(fromTranscript.sessions[0]!.violations);
    // The events come back where they were, with their direction; a close by the API's side too.
    const events = (messages: readonly TranscriptMessage[]) =>
      messages
        .filter((m) => m.kind !== 'data')
        .map(({ conn, dir, kind, text }) => ({ conn, dir, kind, text }));
    expect(events(fromLog.transcripts[0]!.messages)).toEqual(events(transcript.messages));
    const closedByApi = gamaFrameLogFormat.read([
      { name: 'c.log', bytes: bytes('{ "scenario": "A_small" }\n# close s2c: gone\nScav. 1;idle\n') },
    ]).transcripts[0]!.messages;
    expect(closedByApi.map(({ conn, dir, kind }) => `${conn} ${dir} ${kind}`)).toEqual([
      'episode 1 c2s data',
      'episode 1 s2c close',
      'episode 2 s2c data',
    ]);
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
      problems: [{ file: 'x.bin', line: 1, message: 'not UTF-8 text' }],
      sources: [],
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
