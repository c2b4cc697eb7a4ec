import { describe, expect, it } from 'vitest';
import { findScavengerScenario } from '../../../../src/core/envs/scavenger';
import type { WireSink } from '../../../../src/core/protocols/contract';
import { GamaApi, GamaSimulation, encodeRequest, type GamaNote } from '../../../../src/core/protocols/gama';
import { frames, playRecorded } from './support';

/** A GAMA side driven by hand: what it sends is collected; replies are fed with `receive`. */
function manual(options: { sendTerminal?: boolean; maxCycles?: number } = {}) {
  const sent: string[] = [];
  const notes: GamaNote[] = [];
  let closed: string | undefined;
  const sink: WireSink<string> = {
    send: (text) => sent.push(text),
    close: (reason) => (closed = reason ?? ''),
  };
  const simulation = new GamaSimulation({
    scenario: findScavengerScenario('A')!,
    maxCycles: options.maxCycles ?? 2,
    observation: { ahead: 1, sides: 1 },
    ...(options.sendTerminal !== undefined ? { sendTerminal: options.sendTerminal } : {}),
    onNote: (note) => notes.push(note),
  });
  const peer = simulation.connect(sink, { id: 'c1' });
  return { sent, notes, peer, closed: () => closed };
}

describe('GamaSimulation (the GAMA side)', () => {
  it('sends the scenario, the connects, then one request at a time, then terminal requests, then closes', () => {
    const gama = manual();
    expect(gama.sent).toEqual([
      '{ "scenario": "A_small" }',
      '{ "id": "Scav. 1", "connect": true }',
      encodeRequest(
        'Scav. 1',
        [
          [0, 0, 3],
          [0, 4, 3],
        ],
        0,
      ),
    ]);
    gama.peer.receive('Scav. 1;face_left');
    expect(gama.sent).toHaveLength(4);
    // Facing west: ahead is the cell to the west, left the wall to the south.
    expect(gama.sent[3]).toBe(
      encodeRequest(
        'Scav. 1',
        [
          [3, 0, 0],
          [3, 4, 0],
        ],
        0,
      ),
    );
    gama.peer.receive('Scav. 1;idle');
    expect(gama.sent[4]).toBe(
      encodeRequest(
        'Scav. 1',
        [
          [3, 0, 0],
          [3, 4, 0],
        ],
        0,
        true,
      ),
    );
    expect(gama.closed()).toBeUndefined();
    gama.peer.receive('Scav. 1;idle');
    expect(gama.closed()).toBe('episode over');
    expect(gama.sent).toHaveLength(5);
  });

  it('closes without terminal requests when sendTerminal is off, as the original', () => {
    const gama = manual({ sendTerminal: false, maxCycles: 1 });
    gama.peer.receive('Scav. 1;idle');
    expect(gama.sent.some((text) => text.includes('terminal'))).toBe(false);
    expect(gama.closed()).toBe('episode over');
  });

  it('ignores replies for others and unreadable replies, and does nothing for unknown actions, with notes', () => {
    const gama = manual();
    gama.peer.receive('Scav. 2;move_ahead');
    gama.peer.receive('"Scav. 1;move_ahead"');
    gama.peer.receive('move_ahead');
    expect(gama.sent).toHaveLength(3);
    gama.peer.receive('Scav. 1;jump');
    expect(gama.sent).toHaveLength(4);
    expect(gama.sent[3]).toBe(gama.sent[2]); // nothing moved
    expect(gama.notes.map((n) => `${n.kind} ${n.channel}: ${n.text}`)).toEqual([
      "violation Scav. 1: a reply addressed to 'Scav. 2' while Scav. 1 waits; every scavenger reads it and ignores it",
      `violation Scav. 1: a reply addressed to '"Scav. 1' while Scav. 1 waits; every scavenger reads it and ignores it (send the bare text, without JSON quotes)`,
      "violation Scav. 1: unreadable reply: expected '<id>;<action>' (e.g. 'Scav. 1;idle'), got 'move_ahead'; GAMA keeps waiting",
      "note Scav. 1: unrecognized action 'jump': GAMA does nothing",
    ]);
  });

  it('reports an episode cut short when the server closes', () => {
    const results: boolean[] = [];
    const simulation = new GamaSimulation({
      scenario: findScavengerScenario('A')!,
      onEpisodeEnd: (result) => results.push(result.completed),
    });
    const peer = simulation.connect({ send: () => undefined, close: () => undefined }, { id: 'c' });
    peer.end('gone');
    expect(results).toEqual([false]);
  });
});

describe('the GAMA side against the API side', () => {
  it('plays whole episodes, paying 5 per resource in the next request', async () => {
    // Straight ahead from the spawn cell of A, then stop: resources above are collected on the way.
    const { results, transcript } = await playRecorded(() => 'move_ahead', { maxCycles: 10 });
    const result = results[0]!;
    expect(result.completed).toBe(true);
    expect(result.cycles).toBe(10);
    const rewards = transcript.messages
      .filter((m) => m.dir === 'c2s' && m.text?.includes('"request"'))
      .map((m) => Number(/"reward": (\d+)/.exec(m.text!)![1]));
    expect(rewards.reduce((a, b) => a + b, 0)).toBe(result.scavengers[0]!.reward);
    expect(rewards).toHaveLength(11); // ten cycles and the terminal request
  });

  it('asks every active scavenger in turn, sequentially, with channels on every frame', async () => {
    const { transcript } = await playRecorded(() => 'idle', { scenario: 'C', maxCycles: 2 });
    const data = transcript.messages.filter((m) => m.kind === 'data');
    expect(data.slice(1, 13).map((m) => m.channel)).toEqual(
      Array.from({ length: 12 }, (_, i) => `Scav. ${i + 1}`),
    );
    const conversation = data.slice(13).map((m) => `${m.dir}:${m.channel}`);
    const expected: string[] = [];
    for (let round = 0; round < 3; round++)
      for (let n = 1; n <= 12; n++) expected.push(`c2s:Scav. ${n}`, `s2c:Scav. ${n}`);
    expect(conversation).toEqual(expected);
  });

  it('is deterministic for a seed and plays a new seed per episode', async () => {
    let calls = 0;
    const decide = () => ['move_ahead', 'face_right', 'move_left', 'tag'][calls++ % 4]!;
    const a = await playRecorded(decide, { scenario: 'B', seed: 5, maxCycles: 40, episodes: 2 });
    calls = 0;
    const b = await playRecorded(decide, { scenario: 'B', seed: 5, maxCycles: 40, episodes: 2 });
    expect(frames(a.transcript)).toEqual(frames(b.transcript));
    expect(a.results.map((r) => r.scavengers.map((s) => s.reward))).toEqual(
      b.results.map((r) => r.scavengers.map((s) => s.reward)),
    );
    expect(new Set(a.transcript.messages.map((m) => m.conn))).toEqual(new Set(['episode 1', 'episode 2']));
  });

  it('sends RGB observations of 3 x 21 x 21 when asked', async () => {
    const { transcript } = await playRecorded(() => 'idle', { maxCycles: 1, observation: { kind: 'rgb' } });
    const request = transcript.messages.find((m) => m.text?.includes('"request"'))!;
    const state = JSON.parse(request.text!).request.state as number[][][];
    expect([state.length, state[0]!.length, state[0]![0]!.length]).toEqual([3, 21, 21]);
  });
});

describe('GamaApi (the API side)', () => {
  function api(decide = (d: { id: string }) => `${d.id === 'Scav. 1' ? 'tag' : 'idle'}`) {
    const sent: string[] = [];
    const notes: string[] = [];
    let closed: string | undefined;
    const peer = new GamaApi({ decide, onNote: (n) => notes.push(n.text) }).connect(
      { send: (t) => sent.push(t), close: (r) => (closed = r) },
      { id: 'c1' },
    );
    return { sent, notes, peer, closed: () => closed };
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('answers each request with the policy action, addressed to its scavenger', async () => {
    const server = api();
    server.peer.receive('{ "scenario": "A_small" }');
    server.peer.receive('{ "id": "Scav. 1", "connect": true }');
    server.peer.receive(encodeRequest('Scav. 1', [[4]], 0));
    await flush();
    expect(server.sent).toEqual(['Scav. 1;tag']);
    expect(server.notes).toEqual([]);
  });

  it('notes unreadable messages and requests from unknown scavengers, as the original would fail', async () => {
    const server = api();
    server.peer.receive('{ "id": "Scav. 1", "connect": true }');
    server.peer.receive('not json');
    server.peer.receive(encodeRequest('Scav. 9', [[4]], 0));
    await flush();
    expect(server.sent).toEqual(['Scav. 9;idle']);
    expect(server.notes).toEqual([
      'a connect before any scenario message (the original server fails here)',
      expect.stringMatching(/^unreadable message: not JSON: .*; not answered$/),
      'a request from Scav. 9, which never connected (the original server fails here)',
    ]);
  });

  it('closes the connection when the policy fails', async () => {
    const server = api(() => {
      throw new Error('boom');
    });
    server.peer.receive('{ "scenario": "A_small" }');
    server.peer.receive('{ "id": "Scav. 1", "connect": true }');
    server.peer.receive(encodeRequest('Scav. 1', [[4]], 0));
    await flush();
    expect(server.sent).toEqual([]);
    expect(server.closed()).toBe('the policy failed');
    expect(server.notes).toEqual(['no answer for Scav. 1: boom']);
  });
});
