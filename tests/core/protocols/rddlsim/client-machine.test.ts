import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/protocols/machine';
import { rddlsimClientMachine } from '../../../../src/core/protocols/rddlsim/client-machine';
import {
  NOOP,
  ONE_ROUND,
  PIPELINED_OPENING,
  RESOURCE_NOTIFICATION,
  RESOURCE_REQUEST,
  ROUND_REQUEST,
  SESSION_END,
  SESSION_REQUEST,
  exchange,
  playFrozen,
  roundEnd,
  roundInit,
  sessionInit,
  turn,
  type Line,
} from './machine-cases';
import { EDGE_CASES, MAIN_SESSIONS, loadRecording } from './recordings';

const rules = (lines: Line[]) =>
  validate(rddlsimClientMachine, exchange(lines)).violations.map((v) => v.rule);

describe('client machine on the recorded server streams', () => {
  it.each(MAIN_SESSIONS)('accepts everything the real server sent in %s', (name) => {
    expect(validate(rddlsimClientMachine, loadRecording(name).messages).violations).toEqual([]);
  });

  /** Probes after which the real server closed without answering (README / research failure table). */
  const SERVER_HUNG_UP = new Set([
    'state_fluent_as_action_default',
    'typed_actions',
    'unknown_action',
    'unknown_instance',
  ]);

  it.each(EDGE_CASES)('judges the server of edge case %s', (name) => {
    const { violations } = validate(rddlsimClientMachine, loadRecording(`edge-cases/${name}`).messages);
    expect(violations.map((v) => v.rule)).toEqual(
      SERVER_HUNG_UP.has(name) ? ['rddlsim.connection.closed-early'] : [],
    );
  });
});

describe('client machine rules', () => {
  it('accepts a complete session and does not mutate the states it is given', () => {
    expect(playFrozen(rddlsimClientMachine, ONE_ROUND)).toEqual({ refused: [], end: null });
  });

  it('accepts answers to pipelined requests and resource requests anywhere', () => {
    expect(
      rules([
        ...PIPELINED_OPENING,
        ['C', RESOURCE_REQUEST],
        ['S', RESOURCE_NOTIFICATION],
        ['C', NOOP],
        ['S', roundEnd(0, 1)],
        ['S', SESSION_END],
      ]),
    ).toEqual([]);
  });

  it('names an out-of-sequence turn, a non-zero first reward and a 1-based round-end', () => {
    const messages = exchange([
      ['C', SESSION_REQUEST],
      ['S', sessionInit(2)],
      ['C', ROUND_REQUEST],
      ['S', roundInit(1, 1)],
      ['S', turn(1, '5.0')],
      ['C', NOOP],
      ['S', turn(3)],
      ['C', NOOP],
      ['S', roundEnd(1, 2)],
    ]);
    const { violations } = validate(rddlsimClientMachine, messages);
    expect(violations.map((v) => [v.index, v.rule])).toEqual([
      [4, 'rddlsim.turn.first-reward'],
      [6, 'rddlsim.turn.sequence'],
      [8, 'rddlsim.round-end.round-num'],
    ]);
    expect(violations[1]!.expected).toBe('turn-num 2');
    expect(violations[1]!.got).toBe('turn-num 3');
    expect(violations[1]!.message).toContain('message 6');
  });

  it('requires round-left = num-rounds - round-num', () => {
    expect(
      rules([
        ['C', SESSION_REQUEST],
        ['S', sessionInit(3)],
        ['C', ROUND_REQUEST],
        ['S', roundInit(1, 1)],
        ['S', turn(1)],
      ]),
    ).toEqual(['rddlsim.round-init.round-left']);
  });

  it('requires session-end right after the last round-end, and nothing after it', () => {
    const missing = ONE_ROUND.slice(0, 9).concat([['S', roundInit(2, 0)]]);
    expect(rules(missing)).toEqual(['rddlsim.session-end.expected']);
    expect(rules([...ONE_ROUND.slice(0, 10), ['S', turn(1)]])).toEqual(['rddlsim.message.after-end']);
  });

  it('flags unsolicited messages and a server that closes early', () => {
    expect(rules([['S', sessionInit(1)]])).toEqual(['rddlsim.message.unsolicited']);
    expect(rules(ONE_ROUND.slice(0, 6).concat([['S', 'close']]))).toEqual([
      'rddlsim.connection.closed-early',
    ]);
  });

  it('accepts a time-out: round-end with negative time-left, then session-end before all rounds', () => {
    expect(
      rules([
        ['C', SESSION_REQUEST],
        ['S', sessionInit(2)],
        ['C', ROUND_REQUEST],
        ['S', roundInit(1, 1)],
        ['S', turn(1)],
        ['C', NOOP],
        ['S', roundEnd(0, 1, -1107)],
        ['S', SESSION_END],
      ]),
    ).toEqual([]);
  });

  it('expects no declaration and no NUL once the client asked for no-header mode', () => {
    const noHeader = SESSION_REQUEST.replace('</session-request>', '<no-header/></session-request>');
    expect(
      rules([
        ['C', noHeader],
        ['S', sessionInit(1), 'none'],
        ['C', ROUND_REQUEST],
        ['S', roundInit(1, 0)],
        ['S', turn(1), 'none'],
      ]),
    ).toEqual(['rddlsim.framing.no-header']);
  });

  it('reports unreadable server messages with their location, and an unfinished session at the end', () => {
    const { violations } = validate(
      rddlsimClientMachine,
      exchange([
        ['C', SESSION_REQUEST],
        ['S', '<session-init><task>'],
      ]),
    );
    expect(violations[0]!.rule).toBe('rddlsim.message.malformed');
    expect(violations[0]!.got).toMatch(/unclosed tag.*line 2/);
    expect(rules([['C', SESSION_REQUEST]])).toEqual(['rddlsim.session.unfinished']);
  });
});
