import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../src/core/envs/massim';
import {
  MassimMatchRunner,
  batchedTeamDecide,
  type MassimTeamBatch,
  type MassimTeamBatchReply,
  type MassimWireReply,
} from '../../../src/core/protocols/massim';
import type { CallOutcome } from '../../../src/core/policy/types';
import {
  MASSIM_TEAM_STEP,
  MASSIM_WIRE_EVENT,
  MassimTeamRuntime,
} from '../../../src/core/protocols/massim/team-runtime';
import { loadTeam, policySource } from './play-match';

/** Plays a few steps of team A with `code`, team B silent, collecting what each team call returned. */
async function playTeamA(code: string, steps = 3) {
  const runtime = loadTeam(policySource(code));
  const outcomes: CallOutcome[] = [];
  const runner = new MassimMatchRunner({
    config: quickMassimConfig({ agentsPerTeam: 3, steps }),
    teams: {
      A: batchedTeamDecide(async (batch: MassimTeamBatch) => {
        const outcome = await runtime.call(MASSIM_TEAM_STEP, [batch], {});
        outcomes.push(outcome);
        if (!outcome.ok) throw new Error(outcome.fault.message);
        return outcome.value as MassimTeamBatchReply;
      }),
    },
    seed: 2,
  });
  await runner.run();
  return { outcomes, runner };
}

describe('the team policy runtime', () => {
  it('names the team signature when act is missing, and the wire one at the wire level', () => {
    const runtime = new MassimTeamRuntime();
    const missing = runtime.load(policySource('export function decide() { return null; }'));
    expect(missing).toMatchObject({
      ok: false,
      fault: { kind: 'load', message: 'the policy must export a function act(percept, agent, team)' },
    });
    const wire = runtime.load(policySource('export const x = 1;', 'wire'));
    expect(wire).toMatchObject({
      ok: false,
      fault: { message: 'the policy must export a function onMessage(message, context)' },
    });
  });

  it("answers a whole step in one call, keeping each agent's and the team's memory", async () => {
    const { outcomes } = await playTeamA(
      [
        'export function act(percept: Percept, agent: Agent, team: Team, context: PolicyContext): Action {',
        '  agent.memory.calls = ((agent.memory.calls as number) ?? 0) + 1;',
        '  team.memory.calls = ((team.memory.calls as number) ?? 0) + 1;',
        '  console.log(`step ${agent.step}: mine ${agent.memory.calls}, team ${team.memory.calls}`);',
        "  return { type: 'skip', p: [] };",
        '}',
      ].join('\n'),
    );
    expect(outcomes).toHaveLength(3);
    expect(outcomes.every((o) => o.ok && (o.value as MassimTeamBatchReply).actions.length === 3)).toBe(true);
    // One console line per agent, prefixed with it; the team's count runs over all agents and steps.
    expect(outcomes[2]!.logs.map((line) => line.text)).toEqual([
      'agentA1: step 2: mine 3, team 7',
      'agentA2: step 2: mine 3, team 8',
      'agentA3: step 2: mine 3, team 9',
    ]);
  });

  it('a throwing agent fails the step with its located error; the others of the step are not asked', async () => {
    const { outcomes, runner } = await playTeamA(
      [
        'export function act(percept: Percept, agent: Agent): Action {',
        "  console.log('asked');",
        "  if (agent.name === 'agentA2') throw new Error('lost');",
        "  return { type: 'skip', p: [] };",
        '}',
      ].join('\n'),
      2,
    );
    const failed = outcomes[0]!;
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.fault).toMatchObject({
      kind: 'call',
      hook: 'act',
      location: { source: 'policy.ts', line: 3 },
    });
    expect(failed.logs.map((line) => line.text)).toEqual(['agentA1: asked', 'agentA2: asked']);
    // Nothing was sent for that step: the agents time out into no_action, as on a real server.
    const actions = runner.transcript.messages.filter((m) => m.dir === 'c2s' && m.text?.includes('"action"'));
    expect(actions).toHaveLength(0);
  });

  it('something that is not an action fails the step and names the agent', async () => {
    const { outcomes } = await playTeamA(
      "export function act(percept: Percept, agent: Agent) {\n  return agent.name === 'agentA3' ? { type: 'move', p: 'n' } : null;\n}\n",
      1,
    );
    expect(outcomes[0]).toMatchObject({
      ok: false,
      fault: {
        kind: 'result',
        message: 'act returned an action whose "p" is not an array for agentA3; return { type, p: [...] }',
      },
    });
  });

  it('hands wire events to onConnect / onMessage / onClose and reads their replies', async () => {
    const runtime = loadTeam(
      policySource(
        [
          'export function onConnect(agent: WireAgent): WireReply {',
          '  agent.memory.opened = agent.connection;',
          "  return 'hello ' + agent.name;",
          '}',
          'export function onMessage(message: string, agent: WireAgent): WireReply {',
          "  return message === 'again' ? { reconnect: true } : ['a', 'b'];",
          '}',
          'export function onClose(agent: WireAgent): WireReply {',
          '  return 42 as unknown as string;',
          '}',
        ].join('\n'),
        'wire',
      ),
    );
    const call = async (event: Parameters<typeof runtime.call>[1][number]) => {
      const outcome = await runtime.call(MASSIM_WIRE_EVENT, [event], {});
      return outcome.ok ? (outcome.value as MassimWireReply) : outcome.fault.message;
    };
    expect(
      await call({ kind: 'connected', agent: 'agentA1', password: '1', team: 'A', connection: 1 }),
    ).toEqual({
      frames: ['hello agentA1'],
    });
    expect(await call({ kind: 'frame', agent: 'agentA1', connection: 1, text: 'x' })).toEqual({
      frames: ['a', 'b'],
    });
    expect(await call({ kind: 'frame', agent: 'agentA1', connection: 1, text: 'again' })).toEqual({
      reconnect: true,
    });
    expect(await call({ kind: 'closed', agent: 'agentA1', connection: 1 })).toMatch(
      /^onClose returned a number/,
    );
  });
});
