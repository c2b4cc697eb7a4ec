import { describe, expect, it } from 'vitest';
import { validateTranscript } from '../../../src/core/transcript/validate';
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
