/**
 * `protoplay connect massim` against `protoplay serve massim` over loopback: each team is one `connect`
 * (one connection per agent), a whole short match is played, both sides record what they exchanged, and
 * every recorded connection passes both MASSim machines. A three-team round robin gives one transcript per
 * match.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './run-cli';
import { sharedPath } from './shared-folder';
import { framesOf, machineViolations, readTranscript, startServe } from './massim-tcp';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-massim-pair-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A team policy file that keeps memory per agent and per team, as a learner's would. */
const TEAM_POLICY = `
const directions = ['n', 'e', 's', 'w'] as const;
export function act(percept: { energy: number }, agent: { name: string; memory: Record<string, unknown> }, team: { memory: Record<string, unknown> }) {
  const turns = ((agent.memory.turns as number | undefined) ?? 0) + 1;
  agent.memory.turns = turns;
  team.memory.calls = ((team.memory.calls as number | undefined) ?? 0) + 1;
  if (turns === 3) console.log(agent.name, 'team calls', team.memory.calls);
  return { type: 'move', p: [directions[turns % 4]] };
}
`;

function connectTeam(port: number, team: string, agents: number, policy: string, transcript: string) {
  return runInProcess([
    'connect',
    'massim',
    '--port',
    String(port),
    '--team',
    team,
    '--agents',
    String(agents),
    '--policy',
    policy,
    '--timeout',
    '10',
    '--budget',
    '10000',
    '--transcript',
    transcript,
  ]);
}

describe('connect massim against serve massim', () => {
  it('plays a whole match: the same scores and valid transcripts on both sides', async () => {
    const policyFile = join(dir, 'team.ts');
    await writeFile(policyFile, TEAM_POLICY);
    const served = join(dir, 'served');
    const serve = await startServe([
      '--agents',
      '3',
      '--steps',
      '12',
      '--grid',
      '20x20',
      '--seed',
      '5',
      '--wait-between-simulations',
      '0',
      '--record',
      served,
    ]);
    const [a, b] = await Promise.all([
      connectTeam(serve.port, 'A', 3, policyFile, join(dir, 'a.json')),
      connectTeam(serve.port, 'B', 3, 'fetcher', join(dir, 'b.json')),
    ]);
    const server = await serve.done;
    expect(a.stderr).toBe('');
    expect(b.stderr).toBe('');
    expect([a.code, b.code, server.code]).toEqual([0, 0, 0]);

    // The server's last line per simulation carries both scores; each team saw its own.
    const finalScores = /simulation 1 +A (\d+) {2}B (\d+)\n$/.exec(server.stdout);
    expect(finalScores).not.toBeNull();
    expect(a.stdout).toMatch(new RegExp(`simulation 1 +A ${finalScores![1]} {2}\\(rank [12]\\)\\n$`));
    expect(b.stdout).toMatch(new RegExp(`simulation 1 +B ${finalScores![2]} {2}\\(rank [12]\\)\\n$`));
    expect(server.stdout).toMatch(/all 6 agents are logged in: starting/);
    expect(server.stdout).toMatch(/simulation 1 step 12\/12/);

    const files = await readdir(served);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/-match-1-A-vs-B\.json$/);
    const servedTranscript = await readTranscript(join(served, files[0]!));
    const teamA = await readTranscript(join(dir, 'a.json'));
    const teamB = await readTranscript(join(dir, 'b.json'));
    for (const transcript of [servedTranscript, teamA, teamB])
      expect(machineViolations(transcript)).toEqual([]);
    expect(servedTranscript.connections.map((c) => c.id).sort()).toEqual(
      ['A1', 'A2', 'A3', 'B1', 'B2', 'B3'].map((agent) => `agent${agent}.conn1`),
    );

    // What agentA2 sent is what the server received, frame for frame; and every action was in time.
    const sent = framesOf(teamA, 'agentA2.conn1', 'c2s');
    expect(framesOf(servedTranscript, 'agentA2.conn1', 'c2s')).toEqual(sent);
    expect(sent.filter((frame) => frame.type === 'action')).toHaveLength(12);
    const requests = framesOf(servedTranscript, 'agentA2.conn1', 's2c').filter(
      (frame) => frame.type === 'request-action',
    );
    expect(requests.slice(1).map((frame) => frame.content.percept!.lastAction)).not.toContain('no_action');
    // The file policy kept its memories in its thread: by agentA1's third step the team had 7 or more calls.
    const logs = teamA.annotations.filter((annotation) => annotation.type === 'policy-log');
    const calls = logs.map((log) => /agentA1 team calls (\d+)/.exec((log.data as { text: string }).text));
    expect(Number(calls.find(Boolean)![1])).toBeGreaterThanOrEqual(7);
    expect(servedTranscript.meta).toMatchObject({ match: 1, teams: 'A,B', seed: 5 });
  });

  it('writes one transcript per match of a three-team round robin from a configuration file', async () => {
    // The contest's configuration format, with a third team and short simulations.
    const config = JSON.parse(
      await readFile(sharedPath('conformance/massim/conf/acceptance.json'), 'utf8'),
    ) as { match: { steps: number; entities: Record<string, number> }[]; teams: Record<string, unknown> };
    config.match[0]!.steps = 4;
    config.match[0]!.entities = { standard: 1 };
    config.teams.C = { prefix: 'agent', password: '1' };
    const configFile = join(dir, 'round-robin.json');
    await writeFile(configFile, JSON.stringify(config));
    const served = join(dir, 'round-robin');
    const serve = await startServe([
      '--config',
      configFile,
      '--launch',
      'connected',
      '--wait-between-simulations',
      '0',
      '--record',
      served,
    ]);
    const results = await Promise.all(
      ['A', 'B', 'C'].map((team) => connectTeam(serve.port, team, 1, 'random', join(dir, `${team}.json`))),
    );
    const server = await serve.done;
    expect([...results.map((result) => result.code), server.code]).toEqual([0, 0, 0, 0]);
    const files = (await readdir(served)).sort();
    expect(files.map((file) => file.replace(/^.*-match-/, 'match-'))).toEqual([
      'match-1-A-vs-B.json',
      'match-2-A-vs-C.json',
      'match-3-B-vs-C.json',
    ]);
    for (const [i, file] of files.entries()) {
      const transcript = await readTranscript(join(served, file));
      expect(machineViolations(transcript)).toEqual([]);
      const simStarts = transcript.messages.filter(
        (message) => message.dir === 's2c' && message.text?.startsWith('{"type":"sim-start"'),
      );
      expect(simStarts.map((message) => message.conn).sort()).toEqual(
        [
          ['agentA1.conn1', 'agentB1.conn1'],
          ['agentA1.conn1', 'agentC1.conn1'],
          ['agentB1.conn1', 'agentC1.conn1'],
        ][i],
      );
      expect(transcript.messages[0]!.index).toBe(0);
    }
    // Team C sat out the first match and played the next two.
    expect(results[2]!.stdout).toMatch(/simulation 1 +C \d+ {2}\(rank \d\)\nsimulation 2 +C \d+/);
  });
});
