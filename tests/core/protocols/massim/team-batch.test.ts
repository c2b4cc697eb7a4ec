import { describe, expect, it } from 'vitest';
import type { MassimServerConfig } from '../../../../src/core/envs/massim/api';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import { createTeamDecide } from '../../../../src/core/protocols/massim/client';
import type { MassimAct } from '../../../../src/core/protocols/massim/policy-api';
import { MassimMatchRunner } from '../../../../src/core/protocols/massim/runner';
import {
  batchedTeamDecide,
  createTeamBatchAnswerer,
  type MassimTeamBatch,
  type MassimTeamBatchTransport,
} from '../../../../src/core/protocols/massim/team-batch';

function config(): MassimServerConfig {
  const base = quickMassimConfig({ agentsPerTeam: 3, steps: 12, width: 20, height: 20 });
  return {
    ...base,
    server: { ...base.server, waitBetweenSimulations: 10 },
    match: [base.match[0]!, base.match[0]!],
  };
}

/** A policy that reads the percept, the simulation facts and its memory, so everything must arrive intact. */
const explorer: MassimAct = (percept, agent, team) => {
  const visits = ((agent.memory.visits as number | undefined) ?? 0) + 1;
  agent.memory.visits = visits;
  team.memory.calls = ((team.memory.calls as number | undefined) ?? 0) + 1;
  const free = (['n', 'e', 's', 'w'] as const).filter((_direction, i) => {
    const [dx, dy] = [
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ][i]!;
    return !percept.things.some((thing) => thing.x === dx && thing.y === dy && thing.type === 'obstacle');
  });
  const steps = agent.simulation?.steps ?? 0;
  return free.length > 0 && (visits + steps) % 4 !== 0
    ? { type: 'move', p: [free[(visits + percept.energy) % free.length]!] }
    : { type: 'skip' };
};

/** A transport that crosses a structured-clone boundary, as a worker's would. */
function clonedTransport(batches: MassimTeamBatch[]): MassimTeamBatchTransport {
  const answer = createTeamBatchAnswerer(explorer);
  return async (batch) => {
    batches.push(batch);
    return structuredClone(await answer(structuredClone(batch)));
  };
}

async function run(teams: 'in-process' | 'batched', batches: MassimTeamBatch[] = []) {
  const runner = new MassimMatchRunner({
    config: config(),
    teams:
      teams === 'in-process'
        ? { A: createTeamDecide(explorer), B: createTeamDecide(explorer) }
        : { A: batchedTeamDecide(clonedTransport(batches)), B: batchedTeamDecide(clonedTransport(batches)) },
    seed: 9,
    startTime: 1_000,
  });
  const result = await runner.run();
  return { result, transcript: runner.transcript };
}

describe('team policies asked once per team and step', () => {
  it('play exactly the session the same policy plays in-process', async () => {
    const batches: MassimTeamBatch[] = [];
    const inProcess = await run('in-process');
    const batched = await run('batched', batches);
    expect(batched.transcript).toEqual(inProcess.transcript);
    expect(batched.result).toEqual(inProcess.result);
    // One batch per team and step, each with every agent of the team, all sent as phrases.
    expect(batches).toHaveLength(2 * 2 * 12);
    for (const batch of batches) {
      expect(batch.agents).toHaveLength(3);
      expect([...batch.phraseCounts].every((count) => count > 0)).toBe(true);
      expect(batch.texts).toBeUndefined();
      // Counts and phrase numbers share one buffer, so a transport transfers one buffer.
      expect(batch.phraseCounts.buffer).toBe(batch.phrases.buffer);
    }
    // The book is sent once: later batches only carry the phrases that are new.
    const sentPhrases = batches.filter((b) => b.team === 'A').reduce((n, b) => n + b.newPhrases.length, 0);
    const usedPhrases = batches.filter((b) => b.team === 'A').reduce((n, b) => n + b.phrases.length, 0);
    expect(sentPhrases).toBeLessThan(usedPhrases / 3);
    // The sim-start percept goes along once per agent and simulation.
    expect(batches.flatMap((b) => Object.keys(b.simulations ?? {}))).toHaveLength(2 * 2 * 3);
  });

  it('starts a fresh book for the worker when a new session begins', async () => {
    const batches: MassimTeamBatch[] = [];
    const decide = batchedTeamDecide(clonedTransport(batches));
    for (let session = 0; session < 2; session++) {
      const runner = new MassimMatchRunner({ config: config(), teams: { A: decide }, seed: session });
      await runner.run();
    }
    const bases = batches.map((batch) => batch.phraseBase);
    expect(bases.filter((base) => base === 0)).toHaveLength(2);
    expect(bases.indexOf(0, 1)).toBeGreaterThan(0);
  });

  it('sends a batch as soon as every agent of the team has asked, else at the end of the task', async () => {
    const sent: string[][] = [];
    const decide = batchedTeamDecide(async (batch) => {
      sent.push(batch.agents);
      return { actions: batch.agents.map(() => ({ type: 'skip' })) };
    });
    const ask = (agent: string) =>
      decide({
        team: 'A',
        agent,
        teamAgents: ['a1', 'a2'],
        step: 0,
        id: 0,
        deadline: 0,
        percept: {} as never,
        text: '{}',
        simulation: undefined,
      });
    const whole = [ask('a1'), ask('a2')];
    // Both agents asked: the batch left without waiting for the task to end.
    expect(sent).toEqual([['a1', 'a2']]);
    const part = ask('a1');
    expect(sent).toHaveLength(1);
    await Promise.all([...whole, part]);
    expect(sent).toEqual([['a1', 'a2'], ['a1']]);
  });

  it('sends the text itself for requests that are not kept as phrases', async () => {
    const answer = createTeamBatchAnswerer(explorer);
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
      things: [{ x: 0, y: -1, details: '', type: 'obstacle' }],
      attached: [],
      lastActionResult: '',
      tasks: [],
      events: [],
      energy: 3,
    };
    const text = JSON.stringify({
      type: 'request-action',
      content: { step: 0, id: 4, time: 1, percept, deadline: 9 },
    });
    const reply = await answer({
      team: 'A',
      teamAgents: ['agentA1'],
      phraseBase: 0,
      newPhrases: [],
      agents: ['agentA1'],
      phraseCounts: new Int32Array([-1]),
      phrases: new Int32Array(0),
      texts: { 0: text },
    });
    // North is blocked: free are e, s, w; first visit, energy 3 picks the second of them.
    expect(reply.actions).toEqual([{ type: 'move', p: ['s'] }]);
  });
});
