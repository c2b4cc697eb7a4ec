/**
 * The reader of aisys transcripts: log rows with their method and path or status, a round per finished
 * run with its outcome, a turn per action request, notes for the server's warnings and errors, and the
 * same reading whether messages arrive at once or one by one.
 */
import { describe, expect, it } from 'vitest';
import { createAisysReader, perceptRows } from '../../../../src/core/protocols/aisys/reader';
import { loadRecording } from './recordings';

function read(name: Parameters<typeof loadRecording>[0]) {
  const transcript = loadRecording(name);
  const reader = createAisysReader();
  reader.append(transcript.messages, transcript.annotations);
  return reader;
}

describe('the aisys reader', () => {
  it('summarises requests and answers in the log', () => {
    const reader = read('02-simple-v1-parallel');
    expect(reader.messages[0]).toMatchObject({
      index: 0,
      dir: 'c2s',
      type: 'act',
      gist: 'PUT //act/nim-weak · 0 actions',
    });
    expect(reader.messages[1]).toMatchObject({ dir: 's2c', type: 'answer', gist: '200 · 5 requests' });
    expect(reader.messages[2]!.gist).toBe('PUT //act/nim-weak · 5 actions');
    expect(reader.messages[7]!.gist).toBe('200 · 5 requests · finished 2: 0, 3: 1, 5: 1');
  });

  it('makes a round of each finished run, numbered by its id, with its outcome', () => {
    const reader = read('02-simple-v1-parallel');
    expect(reader.rounds.map((round) => [round.round, round.total])).toEqual([
      [2, 0],
      [3, 1],
      [5, 1],
      [4, 0],
      [1, 1],
      [6, 1],
      [7, 0],
      [8, 0],
      // Within one response, in id order.
      [9, 1],
      [10, 0],
    ]);
    // Run 2 took three actions: two steps without reward, then the outcome.
    expect(reader.rounds[0]!.stepRewards).toEqual([0, 0, 0]);
    expect(reader.rounds[1]!.stepRewards).toEqual([0, 0, 1]);
    expect(reader.rounds[0]!.endIndex).toBe(7);
  });

  it('makes a turn of each action request with its percept', () => {
    const reader = read('10-probe-plugin-cases');
    expect(reader.turns[0]).toEqual({
      index: 1,
      round: 47,
      turn: 1,
      observed: [{ name: 'count', args: [], value: '0' }],
      noObservation: false,
    });
    expect(perceptRows(11)).toEqual([{ name: 'percept', args: [], value: '11' }]);
  });

  it('shows errors with their description, and notes warnings and refusals', () => {
    const errors = read('07-errors-auth');
    expect(errors.messages[1]).toMatchObject({ type: 'error', gist: '401 wrong password' });
    const cases = read('09-run-level-cases');
    const notes = cases.notes.filter((note) => note.kind === 'note').map((note) => note.text);
    expect(notes).toContain('case: wrong-act_no-stale');
    expect(notes).toContain(
      'error (run 26): Wrong action number 6 (the action might have been for an earlier action request)',
    );
    expect(notes).toContain('warning (run 27): Run abandoned (as requested by client)');
    const body = read('08-errors-body');
    expect(body.messages.find((row) => row.type === 'error' && row.gist.startsWith('405'))!.gist).toBe(
      '405 Method Not Allowed',
    );
    expect(body.messages[0]).toMatchObject({ type: 'act', unreadable: 'HTTP 400' });
  });

  it('reads protocol version 0 and admin routes', () => {
    const v0 = read('06-simple-v0');
    expect(v0.messages[0]!.gist).toBe('PUT //act/nim-weak · 0 actions, v0');
    expect(v0.turns).toHaveLength(20);
    const admin = read('01-admin-setup');
    expect(admin.messages.slice(4, 6).map((row) => [row.type, row.gist])).toEqual([
      ['makeenv', 'PUT /makeenv/probe'],
      ['makeenv', '200'],
    ]);
  });

  it('reads the same message by message as all at once', () => {
    const transcript = loadRecording('09-run-level-cases');
    const whole = createAisysReader();
    whole.append(transcript.messages, transcript.annotations);
    const stepwise = createAisysReader();
    for (const message of transcript.messages) stepwise.append([message], []);
    stepwise.append([], transcript.annotations);
    expect(stepwise.messages).toEqual(whole.messages);
    expect(stepwise.rounds).toEqual(whole.rounds);
    expect(stepwise.turns).toEqual(whole.turns);
  });
});
