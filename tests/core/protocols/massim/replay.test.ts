/**
 * A MASSim recording played again against the emulated server: the agents' recorded frames answer its
 * requests; every frame the server sends is compared with the recorded one (the clock left out).
 */
import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { MassimServerConfig } from '../../../../src/core/envs/massim/api';
import { createTeamDecide } from '../../../../src/core/protocols/massim/client';
import type { MassimAct } from '../../../../src/core/protocols/massim/policy-api';
import { massimReplay } from '../../../../src/core/protocols/massim/replay';
import { MassimMatchRunner } from '../../../../src/core/protocols/massim/runner';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
import { answerReplay } from '../../../../src/core/session/replay-answer';
import { loadConfigText, loadRecording } from './recordings';

function config(): MassimServerConfig {
  const base = quickMassimConfig({ agentsPerTeam: 2, steps: 8, width: 24, height: 24 });
  return { ...base, server: { ...base.server, agentTimeout: 4000, waitBetweenSimulations: 1000 } };
}

const wander: MassimAct = (_percept, agent) => ({
  type: 'move',
  p: [(['n', 'e', 's', 'w'] as const)[agent.step % 4]!],
});

/** A match of the emulated server, agentB2 silent at step 3 (the step times out for it). */
async function recordFromEmulator(semantics?: 'massim'): Promise<Transcript> {
  // A policy that throws sends nothing: the step times out for that agent.
  const sometimesSilent: MassimAct = (percept, agent, team) => {
    if (agent.name === 'agentB2' && agent.step === 3) throw new Error('silent here');
    return wander(percept, agent, team);
  };
  const runner = new MassimMatchRunner({
    config: config(),
    teams: { A: createTeamDecide(wander), B: createTeamDecide(sometimesSilent) },
    seed: 21,
    ...(semantics ? { semantics } : {}),
    startTime: 1_000_000,
  });
  await runner.run();
  return structuredClone(runner.transcript);
}

const serverFrames = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data' && m.dir === 's2c');

/** A frame as these tests read it. */
interface Frame {
  type: string;
  content: { id: number; step: number; percept: { energy: number } };
}

/** The recorded frame of a connection whose JSON passes `test`. */
function frame(transcript: Transcript, conn: string, dir: 'c2s' | 's2c', test: (m: Frame) => boolean) {
  return transcript.messages.find(
    (m) => m.conn === conn && m.dir === dir && m.kind === 'data' && test(JSON.parse(m.text!) as Frame),
  )!;
}

function replaced(transcript: Transcript, message: TranscriptMessage, text: string): Transcript {
  return {
    ...transcript,
    messages: transcript.messages.map((m) => (m.index === message.index ? { ...m, text } : m)),
  };
}

describe('MASSim replay on the emulated server', () => {
  it('reproduces a match the emulator recorded, timeouts included: no difference in any frame', async () => {
    const timedOut = frame(
      await recordFromEmulator(),
      'agentB2.conn1',
      's2c',
      (m) => m.type === 'request-action' && m.content.step === 4,
    );
    expect(timedOut.text).toContain('"lastAction":"no_action"');
    for (const semantics of [undefined, 'massim'] as const) {
      const transcript = await recordFromEmulator(semantics);
      expect(massimReplay.plan(transcript)).toMatchObject({
        environment: 'the configuration the recording carries',
        seed: 21,
      });
      const report = await massimReplay.run(transcript);
      expect(report).toMatchObject({
        environmentFrom: 'recording',
        seedFrom: 'recording',
        compared: serverFrames(transcript).length,
        differing: 0,
      });
      // Four agents, each: auth-response, sim-start, 8 request-actions, sim-end, bye.
      expect(report.compared).toBe(4 * 12);
      expect(report.first).toBeUndefined();
    }
  });

  it('finds a changed percept where it was changed: connection, index, JSON path, both values', async () => {
    const transcript = await recordFromEmulator();
    const request = frame(
      transcript,
      'agentA2.conn1',
      's2c',
      (m) => m.type === 'request-action' && m.content.step === 4,
    );
    const message = JSON.parse(request.text!) as Frame;
    const energy = message.content.percept.energy;
    message.content.percept.energy = energy + 7;
    const report = await massimReplay.run(replaced(transcript, request, JSON.stringify(message)));
    expect(report.differing).toBe(1);
    expect(report.first).toMatchObject({
      recordedIndex: request.index,
      conn: 'agentA2.conn1',
      path: '$.content.percept.energy',
      recorded: String(energy + 7),
      emulated: String(energy),
    });
  });

  it('plays the recorded actions: a changed action changes what the agent perceives next', async () => {
    const transcript = await recordFromEmulator();
    const request = frame(
      transcript,
      'agentA1.conn1',
      's2c',
      (m) => m.type === 'request-action' && m.content.step === 2,
    );
    const id = (JSON.parse(request.text!) as Frame).content.id;
    const action = frame(
      transcript,
      'agentA1.conn1',
      'c2s',
      (m) => m.type === 'action' && m.content.id === id,
    );
    const skip = JSON.stringify({ type: 'action', content: { id, type: 'skip', p: [] } });
    const report = await massimReplay.run(replaced(transcript, action, skip));
    const next = frame(
      transcript,
      'agentA1.conn1',
      's2c',
      (m) => m.type === 'request-action' && m.content.step === 3,
    );
    // The recording moved (a direction in lastActionParams); the replay skipped (no parameter).
    expect(report.first).toMatchObject({
      recordedIndex: next.index,
      path: '$.content.percept.lastActionParams[0]',
      emulated: undefined,
    });
    expect(report.first!.emulatedText).toContain('"lastAction":"skip"');
  });

  it('asks for a configuration when the recording does not carry one, and says which was chosen', async () => {
    const transcript = await recordFromEmulator('massim');
    const { config: _config, ...meta } = transcript.meta;
    const bare = { ...transcript, meta };
    const plan = massimReplay.plan(bare);
    expect(plan.environment).toBeUndefined();
    expect(plan.choices.map((c) => c.id)).toContain('shaped-massim');
    await expect(massimReplay.run(bare)).rejects.toThrow(/choose one/);
    const report = await massimReplay.run(bare, { environment: 'shaped-massim' });
    expect(report.environmentFrom).toBe('chosen');
    expect(report.environment).toMatch(/2 teams of 2, 8 steps/);
    // The grid is not on the wire: the shaped match plays 40 x 40 where the recording had 24 x 24.
    expect(report.differing).toBeGreaterThan(0);
    expect(report.notes.join(' ')).toMatch(/does not carry its server configuration/);
  });
});

describe('MASSim replay of a real server recording', () => {
  it('plays the chosen configuration: logins and sim-starts agree, the world differs, located', async () => {
    const recording = loadRecording('basic');
    const plan = massimReplay.plan(recording);
    expect(plan.environment).toBeUndefined();
    expect(plan.choices[0]!.label).toMatch(/2 teams of 2, 20 steps/);
    const report = await massimReplay.run(recording, { environment: 'shaped-massim', seed: 17 });
    expect(report).toMatchObject({ environmentFrom: 'chosen', seed: 17, seedFrom: 'chosen' });
    // The auth-response and sim-start agree (roles, team, steps are on the wire); the world does not (the
    // grid and the map are not): the first difference is in the first percept, located in the recording.
    const first = report.first!;
    expect(first.position).toBe(2);
    expect(recording.messages[first.recordedIndex!]!.text).toContain('"request-action"');
    expect(first.path).toMatch(/^\$\.content\.percept\./);
    expect(report.compared).toBe(
      recording.messages.filter((m) => m.kind === 'data' && m.dir === 's2c').length,
    );
  });

  it("reproduces the real server's events recording given its configuration file", async () => {
    const recording = loadRecording('events');
    expect(massimReplay.plan(recording).file).toBeDefined();
    const file = { name: 'events.json', text: loadConfigText('events.json') };
    const report = await massimReplay.run(recording, { file });
    const serverFrames = recording.messages.filter((m) => m.kind === 'data' && m.dir === 's2c').length;
    expect(report).toMatchObject({ compared: serverFrames, differing: 0, environmentFrom: 'chosen' });
    expect(report.environment).toMatch(/events\.json, the real server's random numbers/);
  });

  it('with the basic run its configuration file: the world agrees until the agents act on each other', async () => {
    const report = await massimReplay.run(loadRecording('basic'), {
      file: { name: 'acceptance.json', text: loadConfigText('acceptance.json') },
    });
    // Step 0 agrees for every agent: the real server's world is rebuilt; from step 1 on the server's
    // execution order (JVM identity hashes) decides, which no replay can reproduce.
    expect(report.first!.position).toBe(3);
    expect(report.first!.recordedText).toContain('"step":1');
  });

  it('a configuration file that does not parse is a located error', async () => {
    const answer = await answerReplay(loadRecording('events'), PROTOCOLS, {
      file: { name: 'broken.json', text: '{"server": ' },
    });
    expect(answer).toEqual({ error: expect.stringMatching(/^broken\.json:1:\d+: invalid JSON/) as unknown });
  });
});
