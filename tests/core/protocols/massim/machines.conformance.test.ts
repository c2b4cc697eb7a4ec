/**
 * Conformance of the two machines with real-server traffic: every recorded connection is replayed through
 * the client machine (which judges the server) and the server machine (which judges the agent).
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/protocols/machine';
import { massimClientMachine } from '../../../../src/core/protocols/massim/client-machine';
import { createMassimServerMachine } from '../../../../src/core/protocols/massim/server-machine';
import type { MassimViolation } from '../../../../src/core/protocols/massim/violation';
import { byConnection, loadConfigJson, loadRecording, recordedRuns, runConfigs } from './recordings';

function maxPacketLength(run: (typeof recordedRuns)[number]): number {
  const config = loadConfigJson(runConfigs[run]) as { server: { maxPacketLength: number } };
  return config.server.maxPacketLength;
}

describe('client machine on recorded server streams', () => {
  it.each(recordedRuns)('accepts every connection of the %s run', (run) => {
    const connections = byConnection(loadRecording(run));
    expect(connections.size).toBeGreaterThan(1);
    for (const [conn, messages] of connections) {
      const { violations } = validate(massimClientMachine, messages);
      expect({ conn, violations }).toEqual({ conn, violations: [] });
    }
  });

  it('ends logged-in connections in the states the recordings show', () => {
    const connections = byConnection(loadRecording('multisim'));
    const a1 = validate(massimClientMachine, connections.get('agentA1.conn1')!).state;
    expect(a1).toMatchObject({ agent: 'agentA1', lastId: 9, phase: 'closed', simulation: 'between' });
  });
});

describe('server machine on recorded agent streams', () => {
  it.each(['basic', 'multisim', 'events', 'bye-race'] as const)(
    'finds nothing to ignore in the %s run',
    (run) => {
      const machine = createMassimServerMachine({ maxPacketLength: maxPacketLength(run) });
      for (const [conn, messages] of byConnection(loadRecording(run))) {
        const { violations } = validate(machine, messages);
        expect({ conn, violations }).toEqual({ conn, violations: [] });
      }
    },
  );

  // What each probe did and how the real server reacted, from the recording's README.
  const expectedProbeRules: Record<string, string[]> = {
    'agentA1.conn1': [],
    'agentA2.conn1': [
      'massim.action.stale-id', // step 2: the previous step's id
      'massim.action.duplicate', // step 3: a second action for the same id
      'massim.status.after-login', // step 5: status-request on the logged-in connection
      'massim.action.late', // step 4's action, 400 ms after its deadline
      'massim.message.unknown-type', // step 6: "hello"
      'massim.receiver.action-without-p', // step 7: no "p": the reader dies
      'massim.receiver.dead', // step 8's action is never read
    ],
    'agentA2.conn2': ['massim.receiver.invalid-json', 'massim.receiver.dead', 'massim.receiver.dead'],
    'agentA2.conn3': [],
    'agentB1.conn1': [],
    'agentB1.conn2': ['massim.frame.oversized'],
    'agentB2.conn1': [],
    'during-sim.status-request': [],
    'pre-start.status-request': [],
    'pre-start.status-request-twice': ['massim.front-desk.unread'],
    'pre-start.status-request-without-content': ['massim.front-desk.no-content'],
    'pre-start.wrong-password': ['massim.auth.rejected'],
    'pre-start.unknown-user': ['massim.auth.rejected'],
    'pre-start.bad-json': ['massim.front-desk.invalid-json', 'massim.front-desk.unread'],
    'pre-start.unknown-type': ['massim.front-desk.not-auth', 'massim.front-desk.unread'],
    'pre-start.action-before-auth': ['massim.front-desk.not-auth'],
  };

  it('flags exactly what the real server ignored in the probes run', () => {
    const machine = createMassimServerMachine({ maxPacketLength: maxPacketLength('probes') });
    const connections = byConnection(loadRecording('probes'));
    expect([...connections.keys()].sort()).toEqual(Object.keys(expectedProbeRules).sort());
    for (const [conn, messages] of connections) {
      const rules = validate(machine, messages).violations.map((violation) => violation.rule);
      expect({ conn, rules }).toEqual({ conn, rules: expectedProbeRules[conn] });
    }
  });

  it('names the message, the rule and what was expected', () => {
    const machine = createMassimServerMachine({ maxPacketLength: maxPacketLength('probes') });
    const messages = byConnection(loadRecording('probes')).get('agentA2.conn1')!;
    const violations = validate(machine, messages).violations as MassimViolation[];
    const withoutP = violations.find((violation) => violation.rule === 'massim.receiver.action-without-p')!;
    const offending = messages.find((message) => message.index === withoutP.index)!;
    expect(offending.text).toBe('{"type":"action","content":{"id":7,"type":"skip"}}');
    expect(withoutP.severity).toBe('fatal');
    expect(withoutP.expected).toContain('"p"');
    expect(withoutP.message).toMatch(/no_action until it reconnects/);
    const dead = violations.find((violation) => violation.rule === 'massim.receiver.dead')!;
    expect(dead.message).toContain(`message ${withoutP.index}`);
  });

  it('accepts the first action of every request and tracks the ids it saw', () => {
    const machine = createMassimServerMachine();
    const state = validate(machine, byConnection(loadRecording('basic')).get('agentB1.conn1')!).state;
    expect(state.issued.toArray()).toEqual(Array.from({ length: 20 }, (_, id) => id));
    expect(state.answered.toArray()).toEqual(state.issued.toArray());
  });
});
