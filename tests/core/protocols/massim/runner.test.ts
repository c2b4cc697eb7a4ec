import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { MassimServerConfig } from '../../../../src/core/envs/massim/api';
import {
  MassimMatchRunner,
  type MassimRunnerAgentEvent,
  type MassimWireTeam,
} from '../../../../src/core/protocols/massim/runner';
import type { MassimHostEvent } from '../../../../src/core/protocols/massim/host';
import { createTeamDecide } from '../../../../src/core/protocols/massim/client';
import type { MassimAct } from '../../../../src/core/protocols/massim/policy-api';
import type { MassimServerMessage } from '../../../../src/core/protocols/massim/messages';
import { validate } from '../../../../src/core/protocols/machine';
import { massimClientMachine } from '../../../../src/core/protocols/massim/client-machine';
import { createMassimServerMachine } from '../../../../src/core/protocols/massim/server-machine';
import type { Transcript } from '../../../../src/core/transcript/model';
import { byConnection } from './recordings';

function config(steps = 6, agents = 2): MassimServerConfig {
  const base = quickMassimConfig({ agentsPerTeam: agents, steps, width: 24, height: 24 });
  return { ...base, server: { ...base.server, agentTimeout: 4000, waitBetweenSimulations: 1000 } };
}

const wander: MassimAct = (_percept, agent, team) => {
  agent.memory.steps = ((agent.memory.steps as number | undefined) ?? 0) + 1;
  team.memory.calls = ((team.memory.calls as number | undefined) ?? 0) + 1;
  return { type: 'move', p: [(['n', 'e', 's', 'w'] as const)[agent.step % 4]!] };
};

function serverMessages(transcript: Transcript, conn: string): MassimServerMessage[] {
  return transcript.messages
    .filter((m) => m.conn === conn && m.dir === 's2c' && m.kind === 'data')
    .map((m) => JSON.parse(m.text!) as MassimServerMessage);
}

describe('MassimMatchRunner', () => {
  it('plays a match in memory with team policies, per-agent and per-team memory', async () => {
    const seen: { agent: string; steps: unknown; calls: unknown }[] = [];
    const remember: MassimAct = (percept, agent, team) => {
      const action = wander(percept, agent, team);
      seen.push({ agent: agent.name, steps: agent.memory.steps, calls: team.memory.calls });
      return action;
    };
    const runner = new MassimMatchRunner({
      config: config(),
      teams: { A: createTeamDecide(remember), B: createTeamDecide(wander) },
      seed: 9,
      startTime: 0,
    });
    const result = await runner.run();
    expect(result.simulations).toHaveLength(1);
    expect(Object.keys(result.simulations[0]!.scores)).toEqual(['A', 'B']);
    expect(runner.finished).toBe(true);
    const a2 = seen.filter((s) => s.agent === 'agentA2');
    expect(a2.map((s) => s.steps)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen.at(-1)!.calls).toBe(12);
    // Nobody waited for a deadline: the virtual clock only moved for the pause after the simulation.
    const machine = createMassimServerMachine();
    for (const [conn, messages] of byConnection(runner.transcript)) {
      expect(validate(massimClientMachine, messages).violations).toEqual([]);
      expect(validate(machine, messages).violations).toEqual([]);
      const requests = serverMessages(runner.transcript, conn).flatMap((m) =>
        m.type === 'request-action' ? [m.content.time] : [],
      );
      expect(new Set(requests)).toEqual(new Set([0]));
    }
  });

  it('replays identically from the same seed', async () => {
    const run = async () => {
      const runner = new MassimMatchRunner({
        config: config(8),
        teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
        seed: 4,
        startTime: 1,
      });
      await runner.run();
      return runner.transcript.messages.map((m) => `${m.t} ${m.conn} ${m.dir} ${m.text ?? m.kind}`);
    };
    const first = await run();
    expect(await run()).toEqual(first);
  });

  it('records message times as the wall time spent when asked, while the wire keeps the virtual clock', async () => {
    const PAUSE_MS = 20;
    const STEPS = 5;
    const decideA = createTeamDecide(wander);
    const slowly: typeof decideA = async (request) => {
      await new Promise((done) => setTimeout(done, PAUSE_MS));
      return decideA(request);
    };
    const runner = new MassimMatchRunner({
      config: config(STEPS, 1),
      teams: { A: slowly, B: createTeamDecide(wander) },
      seed: 2,
      startTime: 1_000,
      recordWallTime: true,
    });
    await runner.run();
    const messages = runner.transcript.messages;
    for (let i = 1; i < messages.length; i++)
      expect(messages[i]!.t).toBeGreaterThanOrEqual(messages[i - 1]!.t);
    // Every step waited for team A's pause: the times say so, however fast the machine.
    const [conn] = byConnection(runner.transcript).keys();
    const requests = messages.filter(
      (m) => m.conn === conn && m.dir === 's2c' && m.text?.includes('"request-action"'),
    );
    expect(requests).toHaveLength(STEPS);
    expect(requests.at(-1)!.t).toBeGreaterThanOrEqual((STEPS - 1) * PAUSE_MS);
    // The wire still reads the virtual clock, which stood still: every agent answered in time.
    const times = serverMessages(runner.transcript, conn!).flatMap((m) =>
      m.type === 'request-action' ? [m.content.time] : [],
    );
    expect(new Set(times)).toEqual(new Set([1_000]));
  });

  it('steps one step at a time', async () => {
    const steps: number[] = [];
    const runner = new MassimMatchRunner({
      config: config(3),
      teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
      startTime: 0,
      onHostEvent: (e) => e.kind === 'step' && steps.push(e.step),
    });
    await runner.step();
    expect(steps).toEqual([0]);
    expect(runner.host.status).toMatchObject({ phase: 'paused', step: 1 });
    await runner.step();
    expect(steps).toEqual([0, 1]);
    await runner.step();
    await runner.step();
    expect(steps).toEqual([0, 1, 2]);
    expect(runner.finished).toBe(true);
  });

  it('lets a failing or slow agent time out on the virtual clock, as on a real server', async () => {
    const events: MassimRunnerAgentEvent[] = [];
    const clumsy: MassimAct = async (percept, agent, team) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (agent.name === 'agentA1' && agent.step === 1) throw new Error('oops');
      return wander(percept, agent, team);
    };
    const runner = new MassimMatchRunner({
      config: config(3),
      teams: { A: createTeamDecide(clumsy), B: createTeamDecide(wander) },
      startTime: 0,
      onAgentEvent: (e) => events.push(e),
    });
    await runner.run();
    expect(events.filter((e) => e.kind === 'decision-failed').map((e) => e.agent)).toEqual(['agentA1']);
    const requests = serverMessages(runner.transcript, 'agentA1.conn1').flatMap((m) =>
      m.type === 'request-action' ? [m.content] : [],
    );
    expect(requests.map((r) => r.time)).toEqual([0, 0, 4000]);
    expect(requests[2]!.percept.lastAction).toBe('no_action');
  });

  it('leaves the agents of a team without a policy disconnected', async () => {
    const runner = new MassimMatchRunner({
      config: config(2, 1),
      teams: { A: createTeamDecide(wander) },
      startTime: 0,
    });
    await runner.run();
    expect(runner.transcript.connections.map((c) => c.id)).toEqual(['agentA1.conn1']);
    const times = serverMessages(runner.transcript, 'agentA1.conn1').flatMap((m) =>
      m.type === 'request-action' ? [m.content.time] : [],
    );
    expect(times).toEqual([0, 4000]);
  });

  it('runs on the wall clock too', async () => {
    const fast = config(2, 1);
    const runner = new MassimMatchRunner({
      config: { ...fast, server: { ...fast.server, waitBetweenSimulations: 0 } },
      teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
      timing: 'real',
    });
    const result = await runner.run();
    expect(result.simulations).toHaveLength(1);
  });

  it('runs wire-level teams that write raw frames, forget "p", and reconnect', async () => {
    const hostEvents: MassimHostEvent[] = [];
    const wire: MassimWireTeam = (event) => {
      if (event.kind === 'connected')
        return {
          frames: [
            JSON.stringify({ type: 'auth-request', content: { user: event.agent, pw: event.password } }),
          ],
        };
      if (event.kind !== 'frame') return undefined;
      const message = JSON.parse(event.text) as MassimServerMessage;
      if (message.type !== 'request-action') return undefined;
      const { id, step } = message.content;
      // agentA1 forgets "p" at step 1, notices at step 3 that nothing happens, and reconnects.
      if (event.agent === 'agentA1' && step === 1)
        return { frames: [`{"type":"action","content":{"id":${id},"type":"skip"}}`] };
      if (event.agent === 'agentA1' && step === 3 && event.connection === 1) return { reconnect: true };
      return { frames: [JSON.stringify({ type: 'action', content: { id, type: 'move', p: ['n'] } })] };
    };
    const runner = new MassimMatchRunner({
      config: config(6, 1),
      teams: { B: createTeamDecide(wander) },
      wireTeams: { A: wire },
      startTime: 0,
      onHostEvent: (e) => hostEvents.push(e),
    });
    await runner.run();
    const fatal = hostEvents
      .flatMap((e) => (e.kind === 'violation' ? [e.violation] : []))
      .filter((v) => v.severity === 'fatal');
    expect(fatal.map((v) => `${v.conn} ${v.rule}`)).toEqual([
      'agentA1.conn1 massim.receiver.action-without-p',
    ]);
    const executed = [1, 2]
      .flatMap((k) => serverMessages(runner.transcript, `agentA1.conn${k}`))
      .flatMap((m) =>
        m.type === 'request-action' ? [`${m.content.step}:${m.content.percept.lastAction}`] : [],
      );
    expect(executed).toEqual(['0:', '1:move', '2:no_action', '3:no_action', '4:no_action', '5:move']);
    expect(runner.transcript.connections.map((c) => c.id).sort()).toEqual([
      'agentA1.conn1',
      'agentA1.conn2',
      'agentB1.conn1',
    ]);
  });
});
