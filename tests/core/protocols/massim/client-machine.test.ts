import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/protocols/machine';
import { massimClientMachine } from '../../../../src/core/protocols/massim/client-machine';
import { TranscriptRecorder } from '../../../../src/core/transcript/recorder';

type Line = ['c2s' | 's2c', object | string];

/** One connection's messages: objects are sent as JSON, strings as they are. */
function connection(lines: Line[]) {
  const recorder = new TranscriptRecorder({ protocol: 'massim', now: () => 0 });
  for (const [dir, payload] of lines)
    recorder.text('agentA1.conn1', dir, typeof payload === 'string' ? payload : JSON.stringify(payload));
  return recorder.transcript.messages;
}

const auth: Line = ['c2s', { type: 'auth-request', content: { user: 'agentA1', pw: '1' } }];
const ok: Line = ['s2c', { type: 'auth-response', content: { result: 'ok' } }];
const simStart = (steps = 3): Line => [
  's2c',
  {
    type: 'sim-start',
    content: { time: 1, percept: { name: 'agentA1', team: 'A', steps, teamSize: 1, roles: [] } },
  },
];
const request = (id: number, step: number, deadline = 100): Line => [
  's2c',
  { type: 'request-action', content: { step, id, time: 10, percept: {}, deadline } },
];
const simEnd: Line = ['s2c', { type: 'sim-end', content: { score: 0, ranking: 1, time: 5 } }];
const bye: Line = ['s2c', { type: 'bye', content: {} }];

function rules(lines: Line[]): string[] {
  return validate(massimClientMachine, connection(lines)).violations.map((v) => `${v.index} ${v.rule}`);
}

describe('massimClientMachine', () => {
  it('accepts a whole session, and request-actions without sim-start right after a login', () => {
    expect(rules([auth, ok, simStart(), request(0, 0), request(1, 1), request(2, 2), simEnd, bye])).toEqual(
      [],
    );
    expect(
      rules([auth, ok, request(7, 5), request(8, 6), simEnd, simStart(), request(9, 0), simEnd]),
    ).toEqual([]);
  });

  it('names a server that speaks first, answers twice, or keeps talking after bye', () => {
    expect(rules([ok])).toEqual(['0 massim.server.spoke-first']);
    expect(rules([auth, ok, ok])).toEqual(['2 massim.server.unexpected-reply']);
    expect(rules([auth, ok, simStart(), simEnd, bye, simStart()])).toEqual(['5 massim.server.after-end']);
    expect(
      rules([auth, ['s2c', { type: 'auth-response', content: { result: 'fail' } }], simStart()]),
    ).toEqual(['2 massim.server.after-end']);
  });

  it('checks ids, steps and deadlines of request-actions', () => {
    expect(rules([auth, ok, simStart(), request(4, 0), request(4, 1)])).toEqual([
      '4 massim.request-action.id-order',
    ]);
    expect(rules([auth, ok, simStart(), request(0, 1), request(1, 1)])).toEqual([
      '4 massim.request-action.step-order',
    ]);
    expect(rules([auth, ok, simStart(2), request(0, 2)])).toEqual(['3 massim.request-action.step-order']);
    expect(rules([auth, ok, simStart(), request(0, 0, 5)])).toEqual(['3 massim.request-action.deadline']);
  });

  it('knows the simulation cycle', () => {
    expect(rules([auth, ok, simStart(), simStart()])).toEqual(['3 massim.server.unexpected-reply']);
    expect(rules([auth, ok, simStart(), simEnd, request(0, 0)])).toEqual([
      '4 massim.server.unexpected-reply',
    ]);
    expect(rules([auth, ok, simStart(), request(0, 0), bye])).toEqual(['4 massim.server.unexpected-reply']);
  });

  it('knows which first frames the server answers', () => {
    const status: Line = [
      's2c',
      { type: 'status-response', content: { teams: [], time: 1, teamSizes: [2], currentSimulation: -1 } },
    ];
    expect(rules([['c2s', { type: 'status-request', content: {} }], status])).toEqual([]);
    expect(rules([['c2s', { type: 'status-request' }], status])).toEqual([
      '1 massim.server.unexpected-reply',
    ]);
    expect(rules([['c2s', 'not json'], ok])).toEqual(['1 massim.server.unexpected-reply']);
    expect(rules([auth, ok, ['c2s', { type: 'status-request', content: {} }], status])).toEqual([
      '3 massim.server.unexpected-reply',
    ]);
  });

  it('reports malformed server frames with what was expected', () => {
    const result = validate(massimClientMachine, connection([auth, ['s2c', '{"type":"auth-response",']]));
    expect(result.violations[0]).toMatchObject({
      index: 1,
      rule: 'massim.server.bad-frame',
      expected: 'a JSON object',
    });
    const wrongField = validate(
      massimClientMachine,
      connection([
        auth,
        ok,
        ['s2c', { type: 'request-action', content: { step: 0, id: '0', time: 1, deadline: 2, percept: {} } }],
      ]),
    );
    expect(wrongField.violations[0]).toMatchObject({
      expected: 'content.id (natural) in request-action',
      got: '"0"',
    });
  });
});
