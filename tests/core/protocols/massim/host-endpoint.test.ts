/**
 * The emulated MASSim server behind the one sans-IO shape: frames sent in one go leave in one `send`, the
 * close follows what was sent, and logins, refusals and disconnections are named in log lines.
 */
import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { WireSink } from '../../../../src/core/protocols/contract';
import { encodeNulFrame } from '../../../../src/core/transport/nul-framing';
import { MassimHost } from '../../../../src/core/protocols/massim/host';
import { MassimHostEndpoint } from '../../../../src/core/protocols/massim/host-endpoint';
import { VirtualScheduler } from '../../../../src/core/protocols/massim/scheduler';

const decoder = new TextDecoder();

function endpointWithHost() {
  const config = quickMassimConfig({ agentsPerTeam: 1, steps: 2, width: 20, height: 20 });
  const scheduler = new VirtualScheduler(1_000);
  const host = new MassimHost({
    config: { ...config, server: { ...config.server, waitBetweenSimulations: 0 } },
    scheduler,
    seed: 1,
  });
  const log: string[] = [];
  let changes = 0;
  const endpoint = new MassimHostEndpoint(host, {
    log: (line) => log.push(line),
    onAgentsChanged: () => changes++,
  });
  return { host, endpoint, log, scheduler, changes: () => changes };
}

/** A sink keeping each `send` as the list of frames it held. */
function sink() {
  const sends: string[][] = [];
  const state = { closed: false, sends, closedAfter: -1 };
  const target: WireSink<Uint8Array> = {
    send: (bytes) => {
      expect(bytes.at(-1)).toBe(0);
      sends.push(decoder.decode(bytes.subarray(0, -1)).split('\0'));
    },
    close: () => {
      state.closed = true;
      state.closedAfter = sends.length;
    },
  };
  return { target, state };
}

const login = (user: string, pw = '1') =>
  encodeNulFrame(JSON.stringify({ type: 'auth-request', content: { user, pw } }));
const types = (frames: string[]) => frames.map((text) => (JSON.parse(text) as { type: string }).type);
/** Lets queued microtasks (the endpoint's batches) run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('MassimHostEndpoint', () => {
  it('logs agents in, and sends sim-start with the first request-action in one send', async () => {
    const { host, endpoint, log, changes } = endpointWithHost();
    const a = sink();
    const b = sink();
    const peerA = endpoint.connect(a.target, { id: 'tcp1', remote: 'host:1' });
    const peerB = endpoint.connect(b.target, { id: 'tcp2', remote: 'host:2' });
    expect(peerA.label).toBe('conn1');
    peerA.receive(login('agentA1'));
    peerB.receive(login('agentB1'));
    await settle();
    expect(peerA.label).toBe('agentA1.conn1');
    expect([...endpoint.loggedIn].sort()).toEqual(['agentA1', 'agentB1']);
    expect(changes()).toBe(2);
    expect(log).toEqual([
      'agentA1 logged in (agentA1.conn1 from host:1)',
      'agentB1 logged in (agentB1.conn1 from host:2)',
    ]);
    expect(a.state.sends.map(types)).toEqual([['auth-response']]);
    host.start();
    await settle();
    expect(a.state.sends.map(types).at(-1)).toEqual(['sim-start', 'request-action']);
    expect(b.state.sends.map(types).at(-1)).toEqual(['sim-start', 'request-action']);
  });

  it('logs a refused login and a disconnection, and forgets the agent', async () => {
    const { endpoint, log, changes } = endpointWithHost();
    const refused = sink();
    const peer = endpoint.connect(refused.target, { id: 'tcp1', remote: 'far:9' });
    peer.receive(login('agentA1', 'wrong'));
    await settle();
    expect(log).toEqual(['agentA1.conn1: login refused (unknown user or wrong password) from far:9']);
    const ok = sink();
    const agent = endpoint.connect(ok.target, { id: 'tcp2', remote: 'near:1' });
    agent.receive(login('agentA1'));
    agent.end();
    expect(log.at(-1)).toBe('agentA1 disconnected (agentA1.conn2)');
    expect(endpoint.loggedIn.size).toBe(0);
    expect(changes()).toBe(2);
  });

  it('closes after what it sent: the replaced connection of an agent that logs in again', async () => {
    const { endpoint, log } = endpointWithHost();
    const first = sink();
    const second = sink();
    endpoint.connect(first.target, { id: 'tcp1', remote: 'a' }).receive(login('agentA1'));
    endpoint.connect(second.target, { id: 'tcp2', remote: 'b' }).receive(login('agentA1'));
    await settle();
    expect(log.at(-1)).toBe('agentA1 logged in again (agentA1.conn2 from b), replacing agentA1.conn1');
    expect(first.state.closed).toBe(true);
    expect(first.state.closedAfter).toBe(first.state.sends.length);
    expect(second.state.closed).toBe(false);
  });

  it('answers a status-request and logs it', async () => {
    const { endpoint, log } = endpointWithHost();
    const asker = sink();
    endpoint
      .connect(asker.target, { id: 'tcp1', remote: 'x:1' })
      .receive(encodeNulFrame(JSON.stringify({ type: 'status-request', content: {} })));
    await settle();
    expect(asker.state.sends.map(types)).toEqual([['status-response']]);
    expect(log).toEqual(['conn1: status-request from x:1']);
  });
});
