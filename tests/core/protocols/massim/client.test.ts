import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { MassimStepPercept } from '../../../../src/core/envs/massim/api';
import { MassimHost } from '../../../../src/core/protocols/massim/host';
import {
  MassimAgentClient,
  createTeamDecide,
  type MassimAgentEvent,
} from '../../../../src/core/protocols/massim/client';
import type { MassimStepPerceptInfo } from '../../../../src/core/protocols/massim/policy-api';
import { VirtualScheduler } from '../../../../src/core/protocols/massim/scheduler';
import { encodeNulFrame } from '../../../../src/core/transport/nul-framing';
import { Rng } from '../../../../src/core/random';

/** Splits bytes into random chunks, as TCP may deliver them. */
function chunked(bytes: Uint8Array, rng: Rng): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length;) {
    const size = 1 + rng.nextInt(700);
    chunks.push(bytes.subarray(start, start + size));
    start += size;
  }
  return chunks;
}

describe('MassimAgentClient', () => {
  it('logs in and plays over a byte stream cut anywhere, answering with the request id and a p array', async () => {
    const base = quickMassimConfig({ agentsPerTeam: 1, steps: 4, width: 20, height: 20 });
    const scheduler = new VirtualScheduler();
    const host = new MassimHost({ config: base, scheduler, seed: 7 });
    const rng = new Rng(3);
    const events: MassimAgentEvent[] = [];
    const pending: Promise<void>[] = [];
    const clients = ['agentA1', 'agentB1'].map((name) => {
      const connection = host.connect({
        send: (text) => {
          for (const chunk of chunked(encodeNulFrame(text), rng)) client.receive(chunk);
        },
        close: () => client.closed(),
      });
      const client: MassimAgentClient = new MassimAgentClient({
        user: name,
        password: '1',
        team: name === 'agentA1' ? 'A' : 'B',
        teamAccounts: [name],
        decide: (request) => {
          const work = Promise.resolve(
            request.step % 2 ? { type: 'skip' as const } : { type: 'move' as const, p: ['e' as const] },
          );
          pending.push(work.then(() => undefined));
          return work;
        },
        send: (text) => {
          for (const chunk of chunked(encodeNulFrame(text), rng)) connection.receive(chunk);
        },
        onEvent: (e) => events.push(e),
      });
      return client;
    });
    host.pause();
    for (const client of clients) client.login();
    host.start();
    host.resume();
    const finished = () => host.status.phase === 'finished';
    while (!finished()) {
      await Promise.all(pending.splice(0));
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (pending.length === 0 && !finished()) scheduler.fireNext();
    }
    expect(events.filter((e) => e.agent === 'agentA1').map((e) => e.kind)).toEqual([
      'logged-in',
      'sim-start',
      'sim-end',
      'bye',
    ]);
    expect(clients[0]!.state).toMatchObject({ phase: 'closed', simulation: 'between', lastId: 3 });
    const actions = host.transcript.messages
      .filter((m) => m.conn === 'agentA1.conn1' && m.dir === 'c2s' && m.kind === 'data')
      .map((m) => m.text);
    expect(actions.slice(1)).toEqual([
      '{"type":"action","content":{"id":0,"type":"move","p":["e"]}}',
      '{"type":"action","content":{"id":1,"type":"skip","p":[]}}',
      '{"type":"action","content":{"id":2,"type":"move","p":["e"]}}',
      '{"type":"action","content":{"id":3,"type":"skip","p":[]}}',
    ]);
    // No step had to wait for a deadline.
    expect(scheduler.now()).toBe(0 + base.server.waitBetweenSimulations);
  });

  it('drops a decision that arrives after the next request, and reports bad server frames', async () => {
    const sent: string[] = [];
    const events: MassimAgentEvent[] = [];
    let release: () => void = () => undefined;
    const client = new MassimAgentClient({
      user: 'agentA1',
      password: '1',
      team: 'A',
      teamAccounts: ['agentA1'],
      decide: async (request) => {
        if (request.id === 0) await new Promise<void>((resolve) => (release = resolve));
        return { type: 'skip' };
      },
      send: (text) => sent.push(text),
      onEvent: (e) => events.push(e),
    });
    client.login();
    const percept = {
      lastActionParams: [],
      role: 'default',
      violations: [],
      deactivated: false,
      goalZones: [],
      roleZones: [],
      score: 0,
      lastAction: '',
      norms: [],
      things: [],
      attached: [],
      lastActionResult: '',
      tasks: [],
      events: [],
      energy: 100,
    };
    const request = (id: number) =>
      JSON.stringify({ type: 'request-action', content: { step: id, id, time: 0, percept, deadline: 10 } });
    client.receiveFrame('{"type":"auth-response","content":{"result":"ok"}}');
    const slow = client.receiveFrame(request(0));
    const quick = client.receiveFrame(request(1));
    await quick;
    release();
    await slow;
    expect(sent.slice(1)).toEqual(['{"type":"action","content":{"id":1,"type":"skip","p":[]}}']);
    expect(events).toContainEqual({ kind: 'decision-outdated', agent: 'agentA1', id: 0 });
    client.receiveFrame(request(1));
    expect(events.at(-1)).toMatchObject({
      kind: 'server-violation',
      violation: { rule: 'massim.request-action.id-order' },
    });
  });
});

describe('createTeamDecide', () => {
  it('keeps memory per agent and per team across calls', async () => {
    const decide = createTeamDecide((_percept, agent, team) => {
      agent.memory.n = ((agent.memory.n as number | undefined) ?? 0) + 1;
      team.memory.n = ((team.memory.n as number | undefined) ?? 0) + 1;
      return { type: 'submit', p: [`${agent.name} ${agent.memory.n as number}/${team.memory.n as number}`] };
    });
    const percept = {} as MassimStepPercept;
    const call = async (agent: string, team: string) => {
      const action = await decide({
        agent,
        team,
        teamAgents: [agent],
        step: 0,
        id: 0,
        deadline: 0,
        percept,
        text: '',
        simulation: undefined,
      });
      return action?.p?.[0];
    };
    const results = [];
    for (const [agent, team] of [
      ['agentA1', 'A'],
      ['agentA1', 'A'],
      ['agentA2', 'A'],
      ['agentB1', 'B'],
    ] as const)
      results.push(await call(agent, team));
    expect(results).toEqual(['agentA1 1/1', 'agentA1 2/2', 'agentA2 1/3', 'agentB1 1/1']);
  });
});

// The policy typings must describe what the scenario really sends: a scenario percept is a policy percept.
type Assignable<From, To> = From extends To ? true : false;
const perceptsAgree: Assignable<
  Omit<MassimStepPercept, 'lastActionResult'>,
  Omit<MassimStepPerceptInfo, 'lastActionResult'>
> = true;
void perceptsAgree;

describe('MassimAgentClient joining late', () => {
  it('says which steps of the running simulation it received no request for', () => {
    const events: MassimAgentEvent[] = [];
    const client = new MassimAgentClient({
      user: 'agentA1',
      password: '1',
      team: 'A',
      teamAccounts: ['agentA1'],
      decide: () => Promise.resolve({ type: 'skip' as const }),
      send: () => {},
      onEvent: (event) => events.push(event),
    });
    const frame = (message: object) => client.receive(encodeNulFrame(JSON.stringify(message)));
    const request = (step: number) =>
      frame({ type: 'request-action', content: { id: step, step, time: 1, deadline: 2, percept: {} } });
    frame({ type: 'auth-response', content: { result: 'ok' } });
    frame({
      type: 'sim-start',
      content: { time: 0, percept: { teamSize: 1, roles: [], name: 'agentA1', team: 'A', steps: 10 } },
    });
    request(3);
    request(4);
    request(7);
    expect(events.filter((event) => event.kind === 'missed-steps')).toEqual([
      { kind: 'missed-steps', agent: 'agentA1', from: 0, to: 2 },
      { kind: 'missed-steps', agent: 'agentA1', from: 5, to: 6 },
    ]);
  });
});
