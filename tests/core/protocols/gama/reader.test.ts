import { describe, expect, it } from 'vitest';
import { GamaTranscriptReader, type GamaMessageSummary } from '../../../../src/core/protocols/gama';
import { playRecorded } from './support';

describe('GamaTranscriptReader', () => {
  it('reads episodes as rounds, cycles as turns, with rewards and channels', async () => {
    let n = 0;
    const { transcript, results } = await playRecorded(() => (n++ % 3 === 0 ? 'face_left' : 'move_ahead'), {
      scenario: 'B',
      maxCycles: 30,
      episodes: 2,
    });
    const reader = new GamaTranscriptReader();
    // Fed in two parts, as a live session arrives.
    const half = Math.floor(transcript.messages.length / 2);
    reader.append(transcript.messages.slice(0, half), []);
    reader.append(transcript.messages.slice(half), transcript.annotations);
    expect(reader.rounds.map((r) => r.total)).toEqual(
      results.map((r) => r.scavengers.reduce((s, x) => s + x.reward, 0)),
    );
    // 30 cycles and the terminal requests (counted as one more cycle).
    expect(reader.rounds.map((r) => r.stepRewards.length)).toEqual([31, 31]);
    const types = new Set(reader.messages.map((m) => m.type));
    expect(types).toEqual(new Set(['open', 'scenario', 'connect', 'request', 'reply', 'terminal', 'close']));
    const reply = reader.messages.find((m) => m.type === 'reply') as GamaMessageSummary;
    expect(reply).toMatchObject({ channel: 'Scav. 1', round: 1, turn: 1, gist: 'Scav. 1: face_left' });
    const request = reader.messages.find((m) => m.type === 'request')!;
    expect(request.gist).toBe('Scav. 1 reward 0, 21x11');
    expect(reader.turns.length).toBe(
      reader.messages.filter((m) => m.type === 'request' || m.type === 'terminal').length,
    );
    expect(reader.turns[0]!.observed[0]).toEqual({ name: 'scavenger', args: [], value: 'Scav. 1' });
    expect(reader.turns[0]!.observed).toHaveLength(22);
  });

  it('marks unreadable frames and turns annotations into notes with their scavenger', () => {
    const reader = new GamaTranscriptReader();
    reader.append(
      [
        { index: 0, conn: 'c', dir: 'c2s', t: 0, kind: 'data', text: '{ "scenario": "A_small" }' },
        { index: 1, conn: 'c', dir: 'c2s', t: 0, kind: 'data', text: 'hello' },
        { index: 2, conn: 'c', dir: 's2c', t: 0, kind: 'data', text: 'idle' },
      ],
      [{ index: 2, type: 'note', data: { channel: 'Scav. 1', text: "unrecognized action 'x'" } }],
    );
    expect(reader.messages.map((m) => [m.type, m.unreadable !== undefined])).toEqual([
      ['scenario', false],
      ['unknown', true],
      ['reply', true],
    ]);
    expect(reader.notes).toEqual([{ index: 2, kind: 'note', text: "Scav. 1: unrecognized action 'x'" }]);
  });
});
