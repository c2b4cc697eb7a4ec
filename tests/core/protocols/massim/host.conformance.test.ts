/**
 * Our host against the real server: driven with the agent side of each recorded run, on a world configured
 * like the recording, it must send the same kinds of messages in the same order, with the same keys and
 * value types (values differ where our generated world differs from the real server's), and handle every
 * protocol edge case of the probes run as the real server did.
 */
import { describe, expect, it } from 'vitest';
import type { MassimServerMessage } from '../../../../src/core/protocols/massim/messages';
import { validate } from '../../../../src/core/protocols/machine';
import { createMassimServerMachine } from '../../../../src/core/protocols/massim/server-machine';
import { massimClientMachine } from '../../../../src/core/protocols/massim/client-machine';
import type { MassimHostViolation } from '../../../../src/core/protocols/massim/host';
import {
  byConnection,
  loadRecording,
  recordedRuns as recordedRunNames,
  type recordedRuns,
} from './recordings';
import { replayRecording, type Replay } from './replay';

/** Every (path, type) of a JSON value; arrays contribute their elements under `path[]`. */
function collectShapes(value: unknown, path: string, into: Map<string, Set<string>>): void {
  const add = (kind: string) => {
    const kinds = into.get(path) ?? new Set<string>();
    kinds.add(kind);
    into.set(path, kinds);
  };
  if (Array.isArray(value)) {
    add('array');
    for (const element of value) collectShapes(element, `${path}[]`, into);
  } else if (value !== null && typeof value === 'object') {
    add(`object{${Object.keys(value).sort().join(',')}}`);
    for (const [key, member] of Object.entries(value)) collectShapes(member, `${path}.${key}`, into);
  } else {
    add(value === null ? 'null' : typeof value);
  }
}

let vocabulary: Map<string, Set<string>> | undefined;

/** The shapes of every server message in every recorded run. */
function realServerVocabulary(): Map<string, Set<string>> {
  if (vocabulary) return vocabulary;
  const shapes = new Map<string, Set<string>>();
  vocabulary = shapes;
  for (const run of recordedRunNames) {
    for (const message of loadRecording(run).messages) {
      if (message.dir !== 's2c' || message.kind !== 'data') continue;
      const parsed = JSON.parse(message.text!) as MassimServerMessage;
      collectShapes(parsed, parsed.type, shapes);
    }
  }
  return shapes;
}

function recordedMessages(replay: Replay, conn: string): MassimServerMessage[] {
  return byConnection(replay.recorded)
    .get(conn)!
    .filter((m) => m.dir === 's2c' && m.kind === 'data')
    .map((m) => JSON.parse(m.text!) as MassimServerMessage);
}

describe.each(['basic', 'multisim', 'events'] as const satisfies readonly (typeof recordedRuns)[number][])(
  'host replaying the %s run',
  (run) => {
    const replay = replayRecording(run);

    it('sends every connection the same message types in the same order', () => {
      expect(replay.connections.size).toBe(byConnection(replay.recorded).size);
      for (const [conn, ours] of replay.connections) {
        expect({ conn, types: ours.received.map((m) => m.type) }).toEqual({
          conn,
          types: recordedMessages(replay, conn).map((m) => m.type),
        });
      }
    });

    it("lists sim-start's roles, and each role's actions, in the real server's order", () => {
      const roles = (messages: MassimServerMessage[]) =>
        messages.flatMap((m) =>
          m.type === 'sim-start' ? [m.content.percept.roles.map((role) => [role.name, ...role.actions])] : [],
        );
      for (const [conn, ours] of replay.connections) {
        const recorded = roles(recordedMessages(replay, conn));
        if (recorded.length)
          expect({ conn, roles: roles(ours.received)[0] }).toEqual({ conn, roles: recorded[0] });
      }
    });

    it('uses only keys and value types the real server uses, key by key', () => {
      const recorded = new Map<string, Set<string>>();
      const ours = new Map<string, Set<string>>();
      for (const [conn, connection] of replay.connections) {
        for (const message of recordedMessages(replay, conn)) collectShapes(message, message.type, recorded);
        for (const message of connection.received) collectShapes(message, message.type, ours);
      }
      // Nested values our world has and this run's did not (a role zone in sight, a violation) must still
      // look as the real server writes them in some recorded run.
      const vocabulary = realServerVocabulary();
      for (const [path, kinds] of ours) {
        for (const kind of kinds)
          expect({ path, kind, known: vocabulary.get(path)?.has(kind) ?? false }).toEqual({
            path,
            kind,
            known: true,
          });
      }
      // Every top-level content and percept key set of the recording shows up in ours too.
      for (const [path, kinds] of recorded) {
        if (!/^[a-z-]+(\.content(\.percept)?)?$/.test(path)) continue;
        expect({ path, kinds: [...(ours.get(path) ?? [])].sort() }).toEqual({
          path,
          kinds: [...kinds].sort(),
        });
      }
    });

    it('numbers action ids per agent from 0 without ever resetting them, like the recording', () => {
      for (const [conn, connection] of replay.connections) {
        const ids = (messages: MassimServerMessage[]) =>
          messages.flatMap((m) => (m.type === 'request-action' ? [`${m.content.step}:${m.content.id}`] : []));
        expect({ conn, ids: ids(connection.received) }).toEqual({
          conn,
          ids: ids(recordedMessages(replay, conn)),
        });
      }
    });

    it('executes exactly the actions the agents sent (lastAction and lastActionParams)', () => {
      for (const [conn, connection] of replay.connections) {
        const executed = (messages: MassimServerMessage[]) =>
          messages.flatMap((m) =>
            m.type === 'request-action'
              ? [`${m.content.percept.lastAction}(${m.content.percept.lastActionParams.join(',')})`]
              : [],
          );
        expect({ conn, executed: executed(connection.received) }).toEqual({
          conn,
          executed: executed(recordedMessages(replay, conn)),
        });
      }
    });

    it('produces a transcript both machines accept', () => {
      const machine = createMassimServerMachine({
        maxPacketLength: replay.host.config.server.maxPacketLength,
      });
      for (const [conn, messages] of byConnection(replay.host.transcript)) {
        expect({ conn, client: validate(massimClientMachine, messages).violations }).toEqual({
          conn,
          client: [],
        });
        expect({ conn, server: validate(machine, messages).violations }).toEqual({ conn, server: [] });
      }
    });
  },
);

describe('host replaying the probes run', () => {
  const replay = replayRecording('probes');
  const ours = (conn: string) => replay.connections.get(conn)!.received;
  const recorded = (conn: string) => recordedMessages(replay, conn);
  const requests = (messages: MassimServerMessage[]) =>
    messages.flatMap((m) => (m.type === 'request-action' ? [m.content] : []));
  const perceptAtStep = (conn: string, step: number) =>
    requests(ours(conn)).find((r) => r.step === step)!.percept;

  it('sends the same messages as the real server, except the re-sent sim-starts the real one lost', () => {
    for (const conn of replay.connections.keys()) {
      const expected = recorded(conn).map((m) => m.type);
      // The real server lost both re-sent sim-starts of agentA2 to its race; ours (without faithfulRaces)
      // delivers them right after auth-response.
      if (conn === 'agentA2.conn2' || conn === 'agentA2.conn3') expected.splice(1, 0, 'sim-start');
      expect({ conn, types: ours(conn).map((m) => m.type) }).toEqual({ conn, types: expected });
    }
  });

  it('executes what the real server executed: first action wins, stale/late/dead-reader actions dropped', () => {
    for (const conn of replay.connections.keys()) {
      const executed = (messages: MassimServerMessage[]) =>
        requests(messages).map(
          (r) => `${r.step}:${r.id} ${r.percept.lastAction}(${r.percept.lastActionParams.join(',')})`,
        );
      expect({ conn, executed: executed(ours(conn)) }).toEqual({ conn, executed: executed(recorded(conn)) });
    }
    // The same, spelled out for agentA2 (stale id at step 2, duplicate at 3, late at 4, "fly" at 5, string
    // id and numeric parameters at 6, no "p" at 7).
    expect(perceptAtStep('agentA2.conn1', 3)).toMatchObject({ lastAction: 'skip' });
    expect(perceptAtStep('agentA2.conn1', 4)).toMatchObject({
      lastAction: 'move',
      lastActionParams: ['e', 'e'],
    });
    expect(perceptAtStep('agentA2.conn1', 5)).toMatchObject({
      lastAction: 'no_action',
      lastActionResult: 'success',
    });
    expect(perceptAtStep('agentA2.conn1', 6)).toMatchObject({
      lastAction: 'fly',
      lastActionResult: 'failed_role',
    });
    expect(perceptAtStep('agentA2.conn1', 7)).toMatchObject({
      lastAction: 'clear',
      lastActionParams: ['0', '1'],
    });
    for (const step of [8, 9])
      expect(perceptAtStep('agentA2.conn1', step)).toMatchObject({ lastAction: 'no_action' });
  });

  it('gives world-independent failures as the real server does', () => {
    expect(perceptAtStep('agentB1.conn2', 9)).toMatchObject({
      lastAction: 'adapt',
      lastActionResult: 'failed_parameter',
    });
    expect(perceptAtStep('agentB1.conn2', 10)).toMatchObject({
      lastAction: 'move',
      lastActionResult: 'failed_parameter',
    });
    expect(perceptAtStep('agentB1.conn2', 11)).toMatchObject({
      lastAction: 'survey',
      lastActionResult: 'failed_role',
    });
    // The 3 KB frame was discarded unread and the skip after it executed.
    expect(perceptAtStep('agentB1.conn2', 12)).toMatchObject({
      lastAction: 'skip',
      lastActionResult: 'success',
    });
  });

  it('answers status-requests only as the first frame, with the tournament state', () => {
    const status = (conn: string) =>
      ours(conn)
        .filter((m) => m.type === 'status-response')
        .map((m) => m.content);
    expect(status('pre-start.status-request')).toEqual([
      { teams: [], time: expect.any(Number), teamSizes: [2], currentSimulation: -1 },
    ]);
    expect(status('pre-start.status-request-twice')).toHaveLength(1);
    expect(status('during-sim.status-request')).toEqual([
      { teams: ['A', 'B'], time: expect.any(Number), teamSizes: [2], currentSimulation: 0 },
    ]);
    for (const conn of [
      'pre-start.status-request-without-content',
      'pre-start.bad-json',
      'pre-start.unknown-type',
      'pre-start.action-before-auth',
    ])
      expect({ conn, received: ours(conn) }).toEqual({ conn, received: [] });
    for (const conn of ['pre-start.wrong-password', 'pre-start.unknown-user'])
      expect(ours(conn)).toEqual([{ type: 'auth-response', content: { result: 'fail' } }]);
  });

  it('lets a late joiner and a reconnecting agent in with the stored sim-start', () => {
    const simStartTime = (message: MassimServerMessage | undefined) =>
      message?.type === 'sim-start' ? message.content.time : undefined;
    const original = simStartTime(ours('agentA1.conn1').find((m) => m.type === 'sim-start'));
    expect(original).toEqual(expect.any(Number));
    for (const conn of ['agentB2.conn1', 'agentB1.conn2', 'agentA2.conn2']) {
      const [auth, simStart, next] = ours(conn);
      expect(auth).toEqual({ type: 'auth-response', content: { result: 'ok' } });
      expect(simStartTime(simStart)).toBe(original);
      expect(next?.type).toBe('request-action');
    }
    expect(requests(ours('agentB2.conn1'))[0]).toMatchObject({ step: 2, id: 2 });
    expect(requests(ours('agentB1.conn2'))[0]).toMatchObject({ step: 7, id: 7 });
    // A new login closes the old connection from the server side.
    const closes = replay.host.transcript.messages.filter(
      (m) => m.kind === 'close' && m.conn === 'agentA2.conn1',
    );
    expect(closes.map((m) => m.dir)).toEqual(['s2c']);
  });

  it('runs a step as soon as all agents answered, else at the deadline, where the real server did', () => {
    const timeout = replay.host.config.server.agentTimeout;
    const gaps = (messages: MassimServerMessage[]) => {
      const times = requests(messages).map((r) => r.time);
      return times.slice(1).map((time, i) => time - times[i]!);
    };
    // A step waits for the deadline when some agent is away (agentB2 before it joins, agentB1 while
    // disconnected), silent (agentA2 at step 4) or has a dead reader; the recording's gaps say which.
    const recordedSlow = gaps(recorded('agentA1.conn1')).map((gap) => gap > timeout / 2);
    const oursSlow = gaps(ours('agentA1.conn1')).map((gap) => gap === timeout);
    expect(oursSlow).toEqual(recordedSlow);
    expect(gaps(ours('agentA1.conn1')).every((gap) => gap === 0 || gap === timeout)).toBe(true);
    for (const request of requests(ours('agentA1.conn1')))
      expect(request.deadline - request.time).toBe(timeout);
  });

  it('reports the same ignored frames as the server machine finds in the recording', () => {
    const hostRules = new Map<string, string[]>();
    for (const annotation of replay.host.transcript.annotations) {
      if (annotation.type !== 'violation') continue;
      const violation = annotation.data as MassimHostViolation;
      hostRules.set(violation.conn, [...(hostRules.get(violation.conn) ?? []), violation.rule]);
    }
    const machine = createMassimServerMachine({ maxPacketLength: replay.host.config.server.maxPacketLength });
    for (const [conn, messages] of byConnection(replay.recorded)) {
      const found = validate(machine, messages).violations.map((v) => v.rule);
      const hostId = replay.connections.get(conn)!.hostId!;
      expect({ conn, rules: hostRules.get(hostId) ?? [] }).toEqual({ conn, rules: found });
    }
  });
});
