import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/protocols/machine';
import { rddlsimServerMachine } from '../../../../src/core/protocols/rddlsim/server-machine';
import {
  NOOP,
  ONE_ROUND,
  PIPELINED_OPENING,
  RESOURCE_NOTIFICATION,
  RESOURCE_REQUEST,
  ROUND_REQUEST,
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

const judged = (lines: Line[]) =>
  validate(rddlsimServerMachine, exchange(lines)).violations.map((v) => [v.index, v.rule]);

describe('server machine on the recorded client streams', () => {
  it.each(MAIN_SESSIONS)('accepts everything rddlsim’s Java client sent in %s', (name) => {
    expect(validate(rddlsimServerMachine, loadRecording(name).messages).violations).toEqual([]);
  });

  /**
   * The rule each probe broke, from the recordings' README and the research failure table; the probes that
   * simply hang up mid-session break only `client-closed`, and complete ones nothing.
   */
  const BROKEN: Record<string, string[]> = {
    actions_instead_of_round_request: ['rddlsim.round-request.expected'],
    malformed_session_request: ['rddlsim.session-request.expected'],
    wrong_root_session_request: ['rddlsim.session-request.expected'],
    malformed_round_request: ['rddlsim.round-request.malformed', 'rddlsim.connection.client-closed'],
    round_request_instead_of_action: ['rddlsim.actions.expected'],
    leading_ws: ['rddlsim.round-request.malformed', 'rddlsim.actions.malformed'],
    // The server died or hung up on these for domain reasons the machine cannot see; then nothing follows.
    state_fluent_as_action_default: [],
    typed_actions: [],
    unknown_action: [],
    unknown_instance: [],
    // Complete sessions.
    number_format: [],
    slow_client: [],
    terminate_when: [],
  };

  it.each(EDGE_CASES)('judges the client of edge case %s', (name) => {
    const { violations } = validate(rddlsimServerMachine, loadRecording(`edge-cases/${name}`).messages);
    expect(violations.map((v) => v.rule)).toEqual(BROKEN[name] ?? ['rddlsim.connection.client-closed']);
  });
});

describe('server machine rules', () => {
  it('accepts a complete session and does not mutate the states it is given', () => {
    expect(playFrozen(rddlsimServerMachine, ONE_ROUND)).toEqual({ refused: [], end: null });
  });

  it('judges pipelined messages when the server reads them, not when they arrive', () => {
    expect(
      judged(PIPELINED_OPENING),
      // The exchange stops while the server waits for actions: that, and only that, is flagged.
    ).toEqual([[4, 'rddlsim.session.unfinished']]);
    // An actions message pipelined after the session-request is read where a round-request is due.
    expect(
      judged([
        ['C', SESSION_REQUEST],
        ['C', NOOP],
        ['S', sessionInit(1)],
      ]),
    ).toEqual([[1, 'rddlsim.round-request.expected']]);
  });

  it('accepts resource-requests wherever the server waits for the client', () => {
    expect(
      judged([
        ['C', SESSION_REQUEST],
        ['S', sessionInit(1)],
        ['C', RESOURCE_REQUEST],
        ['S', RESOURCE_NOTIFICATION],
        ['C', ROUND_REQUEST],
        ['S', roundInit(1, 0)],
        ['S', turn(1)],
        ['C', RESOURCE_REQUEST],
        ['S', RESOURCE_NOTIFICATION],
        ['C', NOOP],
        ['S', roundEnd(0, 1)],
      ]),
    ).toEqual([[10, 'rddlsim.session.unfinished']]);
  });

  it('names what was expected and what came', () => {
    const { violations } = validate(
      rddlsimServerMachine,
      exchange([
        ['C', SESSION_REQUEST],
        ['S', sessionInit(1)],
        ['C', ROUND_REQUEST],
        ['S', roundInit(1, 0)],
        ['S', turn(1)],
        ['C', ROUND_REQUEST],
      ]),
    );
    expect(violations).toEqual([
      {
        index: 5,
        rule: 'rddlsim.actions.expected',
        expected: '<actions> or <resource-request>',
        got: '<round-request>',
        message:
          'message 5: expected <actions> or <resource-request>, got <round-request> [rddlsim.actions.expected]',
      },
    ]);
  });

  it('expects the first message to be a complete session-request', () => {
    expect(judged([['C', '<session-request><problem-name>p</problem-name></session-request>']])).toEqual([
      [0, 'rddlsim.session-request.expected'],
    ]);
  });

  it('flags a client that stops while the server waits, but not while the server owes an answer', () => {
    expect(
      judged([
        ['C', SESSION_REQUEST],
        ['S', sessionInit(1)],
      ]),
    ).toEqual([[1, 'rddlsim.session.unfinished']]);
    expect(judged([['C', SESSION_REQUEST]])).toEqual([]);
  });
});
