import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim';
import type { MassimWorldSnapshot } from '../../../../src/core/envs/massim/api';
import {
  MassimMatchRunner,
  MassimWorldPacker,
  createTeamDecide,
  type MassimWireTeam,
} from '../../../../src/core/protocols/massim';
import { TranscriptStore } from '../../../../src/core/transcript/store';
import { createMassimReader } from '../../../../src/core/protocols/massim/protocol';
import { MassimTranscriptReader, resultCode } from '../../../../src/core/protocols/massim/reader';
import {
  MASSIM_RESULT_KINDS,
  NO_RESULT,
  type MassimFrame,
  type MassimNews,
} from '../../../../src/core/protocols/massim/reading';
import { loadRecording } from './recordings';

/** Everything a reader reported, put together as the page does. */
function collect(newsList: MassimNews[]) {
  const frames: MassimFrame[] = [];
  const results: number[][] = [];
  const rows = { type: [] as string[], frame: [] as number[], gist: [] as string[] };
  const stops = newsList.flatMap((news) => news.stops);
  let agents: string[] = [];
  for (const news of newsList) {
    if (news.agents) agents = news.agents.map((agent) => agent.name);
    frames.splice(news.framesFrom, frames.length, ...news.frames);
    results.splice(news.framesFrom, results.length, ...news.results);
    rows.type.push(...news.rows.type);
    rows.frame.push(...news.rows.frame);
    rows.gist.push(...news.rows.gist);
    for (const resumed of news.resumed) {
      const stop = stops.find((s) => s.index === resumed.index && s.conn === resumed.conn)!;
      stop.resumedAt = resumed.resumedAt;
    }
  }
  return { frames, results, rows, stops, agents, notes: newsList.flatMap((news) => news.notes) };
}

/**
 * A wire-level team of plain skips, where agentA1 forgets "p" at step 3 and logs in again on a new
 * connection at step 6.
 */
const forgetfulTeam: MassimWireTeam = (event) => {
  if (event.kind === 'connected')
    return { frames: [JSON.stringify({ type: 'auth-request', content: { user: event.agent, pw: '1' } })] };
  if (event.kind !== 'frame') return undefined;
  const { type, content } = JSON.parse(event.text) as { type: string; content: { id: number; step: number } };
  if (type !== 'request-action') return undefined;
  if (event.agent === 'agentA1' && content.step === 3)
    return { frames: [`{"type":"action","content":{"id":${content.id},"type":"skip"}}`] };
  if (event.agent === 'agentA1' && content.step === 6 && event.connection === 1) return { reconnect: true };
  return { frames: [JSON.stringify({ type: 'action', content: { id: content.id, type: 'skip', p: [] } })] };
};

let moves = 0;
const mover = createTeamDecide(() => ({ type: 'move', p: [(['n', 'e', 's', 'w'] as const)[moves++ % 4]!] }));

async function emulatedMatch(steps: number, readEveryStep: boolean) {
  const runner = new MassimMatchRunner({
    config: quickMassimConfig({ steps, agentsPerTeam: 3 }),
    teams: { B: mover },
    wireTeams: { A: forgetfulTeam },
    seed: 4,
  });
  const reader = new MassimTranscriptReader(runner.host.store, { judgeAgents: false });
  const news: MassimNews[] = [];
  while (!runner.finished) {
    await runner.step();
    if (readEveryStep) news.push(reader.read());
  }
  news.push(reader.read());
  return { runner, reader, read: collect(news) };
}

describe('MassimTranscriptReader', () => {
  it('reads an emulated match: one frame per step, scores as told, outcomes as the world records them', async () => {
    const { runner, read } = await emulatedMatch(12, false);
    const store = runner.host.store;
    expect(read.frames.map((f) => f.step)).toEqual([...Array(12).keys()]);
    expect(read.frames.every((f) => f.simulation === 0 && f.world)).toBe(true);
    // Scores: the host's own figures after each step (annotations the reader does not use for them).
    const rewards = store
      .toTranscript()
      .annotations.filter((a) => a.type === 'reward')
      .map((a) => (a.data as { scores: Record<string, number> }).scores);
    expect(read.frames.map((f) => f.scores)).toEqual(rewards);
    // Outcomes: read from the percepts, checked against the world the host recorded after every step.
    const snapshots = store
      .toTranscript()
      .annotations.filter((a) => a.type === 'world' && (a.data as { kind: string }).kind === 'snapshot')
      .map((a) => (a.data as { world: MassimWorldSnapshot }).world);
    expect(snapshots).toHaveLength(12);
    snapshots.forEach((world, frame) => {
      for (const entity of world.entities) {
        const code = read.results[frame]![read.agents.indexOf(entity.name)];
        expect(code, `${entity.name} at step ${frame}`).toBe(resultCode(entity.action, entity.actionResult));
      }
    });
    // One row per message, typed as the message says.
    expect(read.rows.type).toHaveLength(store.length);
    read.rows.type.forEach((type, index) => {
      const message = store.message(index);
      if (message.kind === 'data') expect(type).toBe((JSON.parse(message.text!) as { type: string }).type);
      else expect(type).toBe(message.kind);
    });
  });

  it('marks the agent whose action had no "p" as no longer read, until it logs in again', async () => {
    const { reader, read } = await emulatedMatch(10, true);
    expect(read.stops).toHaveLength(1);
    const stop = read.stops[0]!;
    expect(stop).toMatchObject({
      agent: 'agentA1',
      conn: 'agentA1.conn1',
      rule: 'massim.receiver.action-without-p',
    });
    expect(read.frames[stop.frame]!.step).toBe(3);
    expect(stop.resumedAt).toBeDefined();
    expect(read.frames[stop.resumedAt!]!.step).toBe(6);
    // In between, the server executed no_action for it, although it kept answering.
    const a1 = read.agents.indexOf('agentA1');
    for (const frame of [3, 4, 5]) expect(MASSIM_RESULT_KINDS[read.results[frame]![a1]!]).toBe('no_action');
    expect(MASSIM_RESULT_KINDS[read.results[8]![a1]!]).not.toBe('no_action');
    expect(reader.agentView(4, 'agentA1').stop).toEqual(stop);
    expect(reader.agentView(7, 'agentA1').stop).toBeUndefined();
    expect(read.notes.filter((n) => n.kind === 'violation').length).toBeGreaterThan(1);
  });

  it('reads step by step exactly what it reads at once', async () => {
    moves = 0;
    const once = (await emulatedMatch(8, false)).read;
    moves = 0;
    const stepwise = (await emulatedMatch(8, true)).read;
    expect(stepwise.frames).toEqual(once.frames);
    expect(stepwise.results).toEqual(once.results);
    expect(stepwise.rows).toEqual(once.rows);
  });

  it("answers an agent's point of view: its percept, its action, and what the server made of it", async () => {
    const { runner, reader } = await emulatedMatch(6, false);
    const view = reader.agentView(2, 'agentB2');
    const request = JSON.parse(runner.host.store.payload(view.requestIndex!)!) as {
      content: { step: number; percept: unknown };
    };
    expect(request.content.step).toBe(2);
    expect(view.percept).toEqual(request.content.percept);
    expect(view.vision).toBe(5);
    expect(JSON.parse(view.actionText!)).toMatchObject({ type: 'action', content: { type: 'move' } });
    const world = reader.world(2)!;
    const entity = world.snapshot.entities.find((e) => e.name === 'agentB2')!;
    expect(view.executed).toEqual({
      action: entity.action,
      params: entity.actionParams,
      result: entity.actionResult,
    });
    expect(world.static.width).toBe(40);
  });

  it('reads a recording of the real server, judging the agents with the server machine', () => {
    const transcript = loadRecording('probes');
    const store = TranscriptStore.fromTranscript(transcript, { packers: [new MassimWorldPacker()] });
    const reader = new MassimTranscriptReader(store, { judgeAgents: true });
    const read = collect([reader.read()]);
    expect(read.frames.map((f) => f.step)).toEqual([...Array(16).keys()]);
    expect(read.frames.every((f) => !f.world)).toBe(true);
    // agentA2 forgot "p" at step 7, came back at step 9, sent bad JSON at step 11, came back at step 13.
    const stops = read.stops.filter((s) => s.agent === 'agentA2');
    expect(stops.map((s) => [s.rule, read.frames[s.frame]!.step, read.frames[s.resumedAt!]!.step])).toEqual([
      ['massim.receiver.action-without-p', 7, 9],
      ['massim.receiver.invalid-json', 11, 13],
    ]);
    // The late joiner's first request is at step 2; the scores are those of the sim-end.
    const simEnds = transcript.messages.filter((m) => m.text?.startsWith('{"type":"sim-end"'));
    const lastScores = read.frames[15]!.scores;
    for (const message of simEnds) {
      const team = message.conn.startsWith('agentA') ? 'A' : 'B';
      expect(lastScores[team]).toBe(
        (JSON.parse(message.text!) as { content: { score: number } }).content.score,
      );
    }
    const codes = read.results.flat().filter((code) => code !== NO_RESULT);
    expect(codes.length).toBeGreaterThan(0);
    expect(read.rows.type).toContain('status-request');
  });

  it('gives the common views a row per message, the verdicts as notes, and a round per simulation', () => {
    const transcript = loadRecording('multisim');
    const reader = createMassimReader();
    reader.append(transcript.messages.slice(0, 50), []);
    reader.append(transcript.messages.slice(50), transcript.annotations);
    expect(reader.messages.map((m) => m.index)).toEqual(transcript.messages.map((m) => m.index));
    const actions = reader.messages.filter((m) => m.type === 'action');
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((m) => m.round !== undefined && m.turn !== undefined)).toBe(true);
    // Two simulations of five steps each.
    expect(reader.rounds.map((r) => [r.round, r.stepRewards.length])).toEqual([
      [1, 5],
      [2, 5],
    ]);
  });
});
