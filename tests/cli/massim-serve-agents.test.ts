/**
 * `protoplay serve massim` against agents written here, speaking raw 0-terminated JSON over TCP: a status
 * probe, a refused login, two agents at once, actions matched by id (stale and duplicate ones dropped,
 * the first one winning), a malformed frame that stops the server reading the connection (the agent then
 * does no_action), and a reconnection that replaces the connection, re-sends sim-start and still takes the
 * open request's id. The server survives all of it, finishes the simulation and records every connection.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawAgent, readTranscript, startServe, type Frame } from './massim-tcp';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-massim-agents-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const STEPS = 8;

const action = (request: Frame, type: string, p: unknown[] = []) => ({
  type: 'action',
  content: { id: request.content.id, type, p },
});

/** Answers every request-action with skip until sim-end, then waits for bye. */
async function skipToTheEnd(agent: RawAgent): Promise<Frame[]> {
  const seen: Frame[] = [];
  for (;;) {
    const frame = await agent.next(['request-action', 'sim-end']);
    seen.push(frame);
    if (frame.type === 'sim-end') break;
    agent.send(action(frame, 'skip'));
  }
  seen.push(await agent.next('bye'));
  return seen;
}

describe('serve massim with hand-written agents', () => {
  it('behaves as the real server towards every kind of agent frame, and finishes', async () => {
    const record = join(dir, 'record');
    const serve = await startServe([
      '--agents',
      '1',
      '--steps',
      String(STEPS),
      '--grid',
      '15x15',
      // Long enough for every prompt answer of the test's agents on a busy machine; one step (the agent
      // whose connection is no longer read) waits for it in full.
      '--agent-timeout',
      '4000',
      '--wait-between-simulations',
      '0',
      '--record',
      record,
    ]);

    const probe = await RawAgent.open(serve.port);
    probe.send({ type: 'status-request', content: {} });
    const status = await probe.next('status-response');
    expect(status.content).toMatchObject({ teams: [], currentSimulation: -1, teamSizes: [1] });

    const intruder = await RawAgent.open(serve.port);
    expect(await intruder.login('agentA1', 'wrong')).toBe('fail');
    await intruder.untilClosed();

    // Two agents at once; the tournament starts when both are in.
    const [a, b] = await Promise.all([RawAgent.open(serve.port), RawAgent.open(serve.port)]);
    expect(await Promise.all([a.login('agentA1'), b.login('agentB1')])).toEqual(['ok', 'ok']);
    const teamB = skipToTheEnd(b);
    const simStart = await a.next('sim-start');
    expect(simStart.content.percept).toMatchObject({ name: 'agentA1', team: 'A', steps: STEPS });

    const r0 = await a.next('request-action');
    expect(r0.content).toMatchObject({ step: 0, id: 0 });
    a.send(action(r0, 'move', ['e']));

    // A stale id is dropped; the right one is executed.
    const r1 = await a.next('request-action');
    expect(r1.content.percept).toMatchObject({ lastAction: 'move', lastActionParams: ['e'] });
    a.send(action(r0, 'rotate', ['cw']));
    a.send(action(r1, 'skip'));

    // Two actions with the same id: the first one wins.
    const r2 = await a.next('request-action');
    expect(r2.content.percept).toMatchObject({ lastAction: 'skip' });
    a.send(action(r2, 'move', ['w']));
    a.send(action(r2, 'skip'));

    // Malformed JSON stops the server reading this connection: the valid action after it is lost too.
    const r3 = await a.next('request-action');
    expect(r3.content.percept).toMatchObject({ lastAction: 'move', lastActionParams: ['w'] });
    a.send(`{"type":"action","content":{"id":${r3.content.id},`);
    a.send(action(r3, 'move', ['n']));
    const r4 = await a.next('request-action');
    expect(r4.content.percept).toMatchObject({ lastAction: 'no_action', lastActionResult: 'success' });

    // Reconnecting replaces the old connection, re-sends sim-start, and the open request's id still counts.
    const again = await RawAgent.open(serve.port);
    expect(await again.login('agentA1')).toBe('ok');
    expect((await again.next('sim-start')).content).toEqual(simStart.content);
    await a.untilClosed();
    again.send(action(r4, 'move', ['s']));
    const rest = await skipToTheEnd(again);
    const r5 = rest[0]!;
    expect(r5.content).toMatchObject({ step: 5, id: 5 });
    expect(r5.content.percept).toMatchObject({ lastAction: 'move', lastActionParams: ['s'] });
    expect(rest.at(-2)!.type).toBe('sim-end');
    expect((await teamB).at(-1)!.type).toBe('bye');
    await again.untilClosed();

    const server = await serve.done;
    expect(server.code).toBe(0);
    expect(server.stdout).toMatch(/login refused \(unknown user or wrong password\)/);
    expect(server.stdout).toMatch(
      /ignored: Action 0 of agentA1 was dropped\. .*\[massim\.action\.stale-id\]/,
    );
    expect(server.stdout).toMatch(/\[massim\.action\.duplicate\]/);
    expect(server.stdout).toMatch(/no longer read: Invalid JSON.*\[massim\.receiver\.invalid-json\]/);
    expect(server.stdout).toMatch(/\[massim\.receiver\.dead\]/);
    expect(server.stdout).toMatch(
      /agentA1 logged in again \(agentA1\.conn\d from .*\), replacing agentA1\.conn\d/,
    );
    expect(server.stdout).toMatch(/simulation 1 +A \d+ {2}B \d+\n$/);

    const [file] = await readdir(record);
    const transcript = await readTranscript(join(record, file!));
    const agentA1 = transcript.connections.map((c) => c.id).filter((id) => id.startsWith('agentA1.'));
    // The refused login, the first session and the reconnection: three connections of agentA1.
    expect(agentA1).toHaveLength(3);
    const rules = transcript.annotations
      .filter((annotation) => annotation.type === 'violation')
      .map((annotation) => (annotation.data as { rule: string }).rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        'massim.auth.rejected',
        'massim.action.stale-id',
        'massim.action.duplicate',
        'massim.receiver.invalid-json',
        'massim.receiver.dead',
      ]),
    );
    probe.close();
  });
});

describe('serve massim --pacing real-server', () => {
  it('sends sim-start ahead of step 0 and deadlines past time + agentTimeout, as the real server does', async () => {
    const serve = await startServe([
      '--agents',
      '1',
      '--steps',
      '3',
      '--grid',
      '15x15',
      '--agent-timeout',
      '3000',
      '--wait-between-simulations',
      '0',
      '--pacing',
      'real-server',
    ]);
    const [a, b] = await Promise.all([RawAgent.open(serve.port), RawAgent.open(serve.port)]);
    expect(await Promise.all([a.login('agentA1'), b.login('agentB1')])).toEqual(['ok', 'ok']);
    const simStart = await a.next('sim-start');
    await b.next('sim-start');
    const requests: Frame[] = [];
    for (;;) {
      const [fromA, fromB] = await Promise.all([
        a.next(['request-action', 'sim-end']),
        b.next(['request-action', 'sim-end']),
      ]);
      if (fromA.type === 'sim-end') break;
      requests.push(fromA);
      a.send(action(fromA, 'skip'));
      b.send(action(fromB, 'skip'));
    }
    // The server's own clock in its frames: a pause of at least 150 ms before step 0, whatever the load.
    expect((requests[0]!.content.time as number) - (simStart.content.time as number)).toBeGreaterThanOrEqual(
      150,
    );
    for (const request of requests) {
      const slack = (request.content.deadline as number) - (request.content.time as number);
      expect(slack).toBeGreaterThanOrEqual(3002);
      expect(slack).toBeLessThanOrEqual(3034);
    }
    a.close();
    b.close();
    serve.interrupt();
    await serve.done;
  });

  it('refuses an unknown pacing', async () => {
    const serve = startServe(['--pacing', 'fast']);
    await expect(serve).rejects.toThrow('--pacing must be one of exact, real-server');
  });
});
