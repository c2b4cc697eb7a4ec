/**
 * A MASSim recording with connections made during the match, played again: an agent that closes its
 * connection and comes back later, one that reconnects without closing, one that joins late. Every
 * connection is opened (and closed) again where the recording shows it, and compared with its own.
 */
import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { MassimServerConfig } from '../../../../src/core/envs/massim/api';
import { massimReplay } from '../../../../src/core/protocols/massim/replay';
import {
  MassimMatchRunner,
  type MassimWireReply,
  type MassimWireTeam,
} from '../../../../src/core/protocols/massim/runner';
import { REPLAY_CANCELLED } from '../../../../src/core/protocols/replay';
import type { Transcript } from '../../../../src/core/transcript/model';
import { loadConfigText, loadRecording } from './recordings';

function config(): MassimServerConfig {
  const base = quickMassimConfig({ agentsPerTeam: 2, steps: 10, width: 20, height: 20 });
  return { ...base, server: { ...base.server, agentTimeout: 3000, waitBetweenSimulations: 1000 } };
}

const DIRECTIONS = ['n', 'e', 's', 'w'] as const;

/**
 * Agents written at the wire level: each logs in and moves. agentA1 closes its connection after the
 * request of step 2 and logs in again once agentA2 sees step 5; agentB1 opens a second connection
 * without closing the first at step 4; agentB2 only joins when agentA2 sees step 3.
 */
const agents: MassimWireTeam = (event): MassimWireReply | undefined => {
  if (event.kind === 'connected')
    return {
      frames: [JSON.stringify({ type: 'auth-request', content: { user: event.agent, pw: event.password } })],
    };
  if (event.kind !== 'frame') return undefined;
  const message = JSON.parse(event.text) as { type: string; content: { id: number; step: number } };
  if (message.type !== 'request-action') return undefined;
  const { id, step } = message.content;
  const action = JSON.stringify({
    type: 'action',
    content: { id, type: 'move', p: [DIRECTIONS[(step + event.agent.length) % 4]] },
  });
  if (event.agent === 'agentA1' && event.connection === 1 && step === 2) return { close: true };
  if (event.agent === 'agentB1' && event.connection === 1 && step === 4) return { reconnect: true };
  if (event.agent === 'agentA2' && step === 3) return { frames: [action], connect: ['agentB2'] };
  if (event.agent === 'agentA2' && step === 5) return { frames: [action], connect: ['agentA1'] };
  return { frames: [action] };
};

async function recordWithReconnections(): Promise<Transcript> {
  const runner = new MassimMatchRunner({
    config: config(),
    teams: {},
    wireTeams: { A: agents, B: agents },
    connectAtStart: (agent) => agent !== 'agentB2',
    seed: 5,
    startTime: 2_000_000,
  });
  await runner.run();
  return structuredClone(runner.transcript);
}

const serverFrames = (transcript: Transcript, conn?: string) =>
  transcript.messages.filter(
    (m) => m.kind === 'data' && m.dir === 's2c' && (conn === undefined || m.conn === conn),
  );

describe('MASSim replay of connections made during the match', () => {
  it('reproduces every connection of a recording where agents leave, come back and join late', async () => {
    const transcript = await recordWithReconnections();
    const conns = new Set(transcript.messages.map((m) => m.conn));
    for (const conn of ['agentA1.conn2', 'agentB1.conn2', 'agentB2.conn1'])
      expect(conns, `the recording has ${conn}`).toContain(conn);
    // agentA1 closed its first connection itself; the server closed agentB1's first one.
    expect(transcript.messages.find((m) => m.conn === 'agentA1.conn1' && m.kind === 'close')?.dir).toBe(
      'c2s',
    );
    expect(transcript.messages.find((m) => m.conn === 'agentB1.conn1' && m.kind === 'close')?.dir).toBe(
      's2c',
    );
    expect(serverFrames(transcript, 'agentA1.conn2').length).toBeGreaterThan(3);

    const report = await massimReplay.run(transcript);
    expect(report.first).toBeUndefined();
    expect(report).toMatchObject({ compared: serverFrames(transcript).length, differing: 0 });
    const note = report.notes.find((n) => n.includes('connected during the match'));
    for (const agent of ['agentA1', 'agentB1', 'agentB2']) expect(note).toContain(agent);
    expect(note).not.toContain('agentA2');
  });

  it('finds a change on a later connection there, with that connection named', async () => {
    const transcript = await recordWithReconnections();
    const request = serverFrames(transcript, 'agentA1.conn2').find((m) => m.text!.includes('"step":8'))!;
    const changed = request.text!.replace(/"energy":(\d+)/, (_, e: string) => `"energy":${Number(e) + 3}`);
    expect(changed).not.toBe(request.text);
    const report = await massimReplay.run({
      ...transcript,
      messages: transcript.messages.map((m) => (m === request ? { ...m, text: changed } : m)),
    });
    expect(report.differing).toBe(1);
    expect(report.first).toMatchObject({
      recordedIndex: request.index,
      conn: 'agentA1.conn2',
      path: '$.content.percept.energy',
    });
  });

  it("replays the real server's probes run: late joins and reconnections agree up to the sim-start the server lost", async () => {
    const recording = loadRecording('probes');
    const agentsOnly: Transcript = {
      ...recording,
      messages: recording.messages.filter((m) => m.conn.startsWith('agent')),
    };
    const report = await massimReplay.run(agentsOnly, {
      file: { name: 'probes.json', text: loadConfigText('probes.json') },
    });
    // agentB2 joined late and agentB1 reconnected after closing: both agree. agentA2's second connection
    // got no sim-start from the real server (a race in its shutdown of the old connection); the emulator
    // sends it: the first difference is there.
    expect(report.first).toMatchObject({ conn: 'agentA2.conn2', position: 1, path: '$.type' });
    expect(report.first!.emulatedText).toContain('"sim-start"');
    expect(report.compared).toBe(serverFrames(agentsOnly).length);
  });

  it('stops when cancelled, and reports progress until then', async () => {
    const transcript = await recordWithReconnections();
    const seen: [number, number][] = [];
    const run = massimReplay.run(transcript, undefined, {
      progress: (done, total) => seen.push([done, total]),
      cancelled: () => seen.length > 0,
    });
    await expect(run).rejects.toMatchObject({ code: REPLAY_CANCELLED });
    expect(seen[0]![1]).toBe(serverFrames(transcript).length);
  });
});
