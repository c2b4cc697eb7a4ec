import { describe, expect, it } from 'vitest';
import type { ProtocolMachine } from '../../../src/core/protocols/machine';
import type { Transcript } from '../../../src/core/transcript/model';
import { ValidationFold, validateTranscript } from '../../../src/core/transcript/validate';
import { counterProtocol } from '../../support/counter-protocol/protocol';
import { rddlsimProtocol } from '../../../src/core/protocols/rddlsim/protocol';
import { MAIN_SESSIONS, loadRecording } from '../protocols/rddlsim/recordings';

describe('validateTranscript', () => {
  it.each(MAIN_SESSIONS)('finds nothing wrong in the real session %s', (name) => {
    expect(validateTranscript(loadRecording(name), rddlsimProtocol)).toEqual({
      checked: true,
      violations: [],
    });
  });

  it('reports faults with connection and role, in message order', () => {
    // The client sent a round-request where actions were due; the server closing after it is its right.
    const wrongRequest = validateTranscript(
      loadRecording('edge-cases/round_request_instead_of_action'),
      rddlsimProtocol,
    );
    expect(wrongRequest.violations.map((v) => [v.index, v.conn, v.role, v.rule])).toEqual([
      [5, 'session-1', 'server', 'rddlsim.actions.expected'],
    ]);
    // A well-formed action with an unknown name: the server hung up, which the client's machine reports.
    const unknownAction = validateTranscript(loadRecording('edge-cases/unknown_action'), rddlsimProtocol);
    expect(unknownAction.violations.map((v) => [v.index, v.role, v.rule])).toEqual([
      [6, 'client', 'rddlsim.connection.closed-early'],
    ]);
  });

  it('checks each connection on its own', () => {
    const one = loadRecording('sysadmin_inst_mdp__1');
    const two = loadRecording('game_of_life_inst_mdp__1');
    const merged = {
      ...one,
      connections: [{ id: 'a' }, { id: 'b' }],
      messages: [
        ...one.messages.map((m) => ({ ...m, conn: 'a' })),
        ...two.messages.map((m, i) => ({ ...m, conn: 'b', index: one.messages.length + i })),
      ],
    };
    expect(validateTranscript(merged, rddlsimProtocol).violations).toEqual([]);
  });

  it('says when the protocol has no machines (nothing was checked)', () => {
    expect(validateTranscript(loadRecording('sysadmin_inst_mdp__1'), { machines: [] })).toEqual({
      checked: false,
      violations: [],
    });
  });
});

describe('validateTranscript per channel', () => {
  // The counter game's machines, validated per agent: one agent's game spread over two connections (as an
  // HTTP client opens a connection per request) is one conversation.
  const game = [
    ['s2c', '{"type":"start","target":3}', 'c1'],
    ['s2c', '{"type":"state","value":0,"reward":0}', 'c1'],
    ['c2s', '{"type":"add","amount":2}', 'c2'],
    ['s2c', '{"type":"state","value":2,"reward":2}', 'c2'],
    ['c2s', '{"type":"add","amount":1}', 'c3'],
    ['s2c', '{"type":"end","total":3}', 'c3'],
  ] as const;
  const transcript = (channel: string | undefined) => ({
    ...loadRecording('sysadmin_inst_mdp__1'),
    protocol: 'counter',
    messages: game.map(([dir, text, conn], index) => ({
      index,
      conn,
      dir,
      t: 0,
      kind: 'data' as const,
      text,
      ...(channel ? { channel } : {}),
    })),
  });

  it('follows one agent across connections', () => {
    const perChannel = { ...counterProtocol, validationScope: 'channel' as const };
    expect(validateTranscript(transcript('agent-1'), perChannel).violations).toEqual([]);
    // Per connection, each connection alone breaks the game's order.
    expect(validateTranscript(transcript('agent-1'), counterProtocol).violations.length).toBeGreaterThan(0);
  });
});

describe('ValidationFold', () => {
  /** A machine that objects to every message saying `no <role>`, and to any ending when `ends` says so. */
  const objecting = (role: 'client' | 'server', ends: boolean): ProtocolMachine<null> => ({
    role,
    initial: () => null,
    accept: (state, message) =>
      message.text === `no ${role}`
        ? {
            ok: false,
            state,
            violation: {
              index: message.index,
              rule: `${role}.no`,
              expected: 'yes',
              got: 'no',
              message: 'no',
            },
          }
        : { ok: true, state },
    finish: (_state, lastIndex) =>
      ends
        ? { index: lastIndex, rule: `${role}.end`, expected: 'more', got: 'the end', message: 'end' }
        : null,
  });

  it('lists violations of one message in the order validateTranscript does, ends included', () => {
    const protocol = { machines: [objecting('server', true), objecting('client', true)] };
    const texts: [string, string][] = [
      ['a', 'no client'],
      ['b', 'no server'],
      ['a', 'no server'],
      ['b', 'no client'],
    ];
    const transcript = {
      protocol: 'test',
      meta: {},
      connections: [{ id: 'a' }, { id: 'b' }],
      annotations: [],
      messages: texts.map(([conn, text], index) => ({
        index,
        t: index,
        dir: 'c2s' as const,
        conn,
        kind: 'data' as const,
        text,
      })),
    } as unknown as Transcript;
    const whole = validateTranscript(transcript, protocol);
    const fold = new ValidationFold(protocol);
    for (const message of transcript.messages) fold.accept(message);
    const folded = fold.finish();
    // Each connection's last message is broken by one machine and ended by the other at the same index.
    expect(whole.violations.map((v) => `${v.index} ${v.conn} ${v.rule}`)).toEqual([
      '0 a client.no',
      '1 b server.no',
      '2 a server.no',
      '2 a server.end',
      '2 a client.end',
      '3 b server.end',
      '3 b client.no',
      '3 b client.end',
    ]);
    expect(folded).toEqual(whole);
  });
});
