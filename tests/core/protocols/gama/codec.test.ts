import { describe, expect, it } from 'vitest';
import {
  channelOf,
  encodeConnect,
  encodeReply,
  encodeRequest,
  encodeScenario,
  gamaJson,
  readGamaMessage,
  readReply,
} from '../../../../src/core/protocols/gama';

describe('GAMA JSON spacing', () => {
  it('writes the three messages exactly as GAMA does', () => {
    expect(encodeScenario('A_small')).toBe('{ "scenario": "A_small" }');
    expect(encodeConnect('Scav. 1')).toBe('{ "id": "Scav. 1", "connect": true }');
    const state = [
      [2, 0, 1, 0, 3],
      [0, 1, 1, 1, 3],
      [0, 2, 4, 0, 3],
    ];
    expect(encodeRequest('Scav. 3', state, 0)).toBe(
      '{ "id": "Scav. 3", "request": { "state": [ [ 2, 0, 1, 0, 3 ], [ 0, 1, 1, 1, 3 ], [ 0, 2, 4, 0, 3 ] ], "reward": 0 } }',
    );
    expect(encodeRequest('Scav. 3', [[4]], 5, true)).toBe(
      '{ "id": "Scav. 3", "request": { "state": [ [ 4 ] ], "reward": 5, "terminal": true } }',
    );
    expect(encodeReply('Scav. 3', 'idle')).toBe('Scav. 3;idle');
  });

  it('matches the general encoder, and writes empty containers without spaces', () => {
    const state = [[[1, 2]], [[3, 4]], [[5, 6]]];
    expect(encodeRequest('Scav. 1', state, 5)).toBe(
      gamaJson({ id: 'Scav. 1', request: { state, reward: 5 } }),
    );
    expect(gamaJson({ a: [], b: {}, c: null, d: 1.5 })).toBe('{ "a": [], "b": {}, "c": null, "d": 1.5 }');
  });

  it('names the channel of every frame', () => {
    expect(channelOf(encodeConnect('Scav. 12'), 'c2s')).toBe('Scav. 12');
    expect(channelOf(encodeRequest('Scav. 2', [[4]], 0), 'c2s')).toBe('Scav. 2');
    expect(channelOf(encodeScenario('A_small'), 'c2s')).toBeUndefined();
    expect(channelOf('Scav. 2;idle', 's2c')).toBe('Scav. 2');
    expect(channelOf('idle', 's2c')).toBeUndefined();
  });
});

describe('readGamaMessage', () => {
  it('reads the three messages', () => {
    expect(readGamaMessage('{ "scenario": "B_open" }')).toEqual({
      ok: true,
      message: { type: 'scenario', scenario: 'B_open' },
    });
    expect(readGamaMessage(encodeConnect('Scav. 1'))).toEqual({
      ok: true,
      message: { type: 'connect', id: 'Scav. 1' },
    });
    const reading = readGamaMessage(encodeRequest('Scav. 3', [[0, 4, 0]], 5, true));
    expect(reading).toEqual({
      ok: true,
      message: {
        type: 'request',
        id: 'Scav. 3',
        state: [[0, 4, 0]],
        shape: [1, 3],
        reward: 5,
        terminal: true,
      },
    });
    const nullReward = readGamaMessage(
      '{"id":"Scav. 1","request":{"state":[[[1]],[[2]],[[3]]],"reward":null}}',
    );
    expect(nullReward.ok && nullReward.message).toMatchObject({ reward: null, shape: [3, 1, 1] });
  });

  it('says what is wrong, with the column of a JSON error', () => {
    const broken = readGamaMessage('{ "id": "Scav. 1", "connect": tru }');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.column).toBeGreaterThan(25);
    const problems = [
      ['[1]', 'expected a JSON object'],
      ['{ "scenario": 3 }', '"scenario" must be a string'],
      ['{ "connect": true }', 'expected "scenario", or an "id"'],
      ['{ "id": "Scav. 1", "connect": false }', 'must be true'],
      ['{ "id": "Scav. 1" }', 'neither "connect" nor "request"'],
      ['{ "id": "Scav. 1", "request": [] }', '"request" of Scav. 1 must be an object'],
      ['{ "id": "Scav. 1", "request": { "state": [], "reward": 0 } }', 'non-empty matrix'],
      ['{ "id": "Scav. 1", "request": { "state": [[1, 2], [3]], "reward": 0 } }', 'rows of 2 and 1 cells'],
      ['{ "id": "Scav. 1", "request": { "state": [[1, "x"]], "reward": 0 } }', 'holds "x"'],
      [
        '{ "id": "Scav. 1", "request": { "state": [[1]], "reward": "5" } }',
        '"reward" of Scav. 1 must be a number',
      ],
      [
        '{ "id": "Scav. 1", "request": { "state": [[1]], "reward": 0, "terminal": false } }',
        'must be true when present',
      ],
    ] as const;
    for (const [text, problem] of problems) {
      const reading = readGamaMessage(text);
      expect(reading.ok, text).toBe(false);
      if (!reading.ok) expect(reading.problem, text).toContain(problem);
    }
  });
});

describe('readReply', () => {
  it('splits at every semicolon as GAMA does', () => {
    expect(readReply('Scav. 3;move_ahead')).toEqual({
      ok: true,
      reply: { id: 'Scav. 3', action: 'move_ahead', extraFields: 0 },
    });
    expect(readReply('Scav. 3;tag;now')).toEqual({
      ok: true,
      reply: { id: 'Scav. 3', action: 'tag', extraFields: 1 },
    });
    expect(readReply('"Scav. 3;idle"')).toMatchObject({
      ok: true,
      reply: { id: '"Scav. 3', action: 'idle"' },
    });
    expect(readReply('idle')).toMatchObject({
      ok: false,
      problem: expect.stringContaining("'<id>;<action>'"),
    });
  });

  it('reads empty fields and many semicolons as a split at each of them would', () => {
    for (const text of [';', ';;', 'Scav. 1;', ';idle', 'a;;b;', 'a;b;c;d;e', 'Scav. 1;idle;;']) {
      const fields = text.split(';');
      expect(readReply(text), text).toEqual({
        ok: true,
        reply: { id: fields[0], action: fields[1], extraFields: fields.length - 2 },
      });
    }
  });
});
