import { describe, expect, it } from 'vitest';
import type { PolicyEndpoint } from '../../../../src/core/policy/supervisor';
import type { PolicySource } from '../../../../src/core/policy/types';
import { GAMA_SAMPLES, gamaFrameLogFormat, gamaProtocol } from '../../../../src/core/protocols/gama';
import {
  DEFAULT_GAMA_SESSION_OPTIONS,
  sanitizeGamaOptions,
  type GamaEpisodeView,
  type GamaSessionOptions,
  type GamaWorldView,
} from '../../../../src/core/protocols/gama/playground/options';
import { gamaLinkFragment, gamaOptionsFromLink } from '../../../../src/ui/protocols/gama/link';
import type {
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
  SessionUpdate,
} from '../../../../src/core/protocols/session-contract';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Annotation, TranscriptMessage } from '../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../src/core/transcript/validate';

const playground = gamaProtocol.playground!;

/** GAMA's policy runtime in this thread, as `spawnPolicy` would give it in a worker. */
function inProcess(): PolicyEndpoint {
  const runtime = playground.loadPolicyRuntime();
  return {
    load: async (source) => (await runtime).load(source),
    call: async (hook, args, context) => (await runtime).call(hook, args, context),
    terminate: () => undefined,
  };
}

/** Services recording what the runner reports; `ended` settles on a final status. */
function recordingServices(spawnPolicy: () => PolicyEndpoint = inProcess) {
  const updates: SessionUpdate[] = [];
  let finish: (status: string) => void = () => undefined;
  const ended = new Promise<string>((resolve) => (finish = resolve));
  const services: PlaygroundServices = {
    spawnPolicy,
    listener: {
      update(json, deferred) {
        const update = JSON.parse(json) as SessionUpdate;
        if (deferred) Object.assign(update, JSON.parse(deferred));
        updates.push(update);
        if (update.status && ['finished', 'stopped', 'failed'].includes(update.status)) finish(update.status);
      },
    },
    nextFrame: (callback) => setTimeout(callback, 0),
    keepTranscript: async () => undefined,
  };
  const messages = (): TranscriptMessage[] => updates.flatMap((u) => u.messages);
  const annotations = (): Annotation[] => updates.flatMap((u) => u.annotations);
  const last = <K extends keyof SessionUpdate>(key: K): SessionUpdate[K] | undefined =>
    updates.findLast((u) => u[key] !== undefined)?.[key];
  return { services, updates, ended, messages, annotations, last };
}

function policy(code: string): PolicySource {
  return { code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: 1 };
}

const sample = (id: string) => policy(GAMA_SAMPLES.find((s) => s.id === id)!.code);

function config(
  environment: string,
  options: Partial<GamaSessionOptions>,
  more: Partial<SessionConfig> = {},
): SessionConfig {
  return {
    protocol: 'gama',
    environment,
    rounds: 1,
    seed: 3,
    delayMs: 0,
    budgetMs: 10_000,
    policy: sample('greedy'),
    startPaused: false,
    options,
    ...more,
  };
}

async function start(cfg: SessionConfig, services: PlaygroundServices): Promise<PlaygroundSession> {
  const runner = await playground.loadRunner();
  return runner.start(cfg, services);
}

describe('GAMA in the playground, through the protocol definition', () => {
  it('plays scenario C with 12 scavengers: every frame on its channel, rounds per episode, metrics, worlds', async () => {
    const run = recordingServices();
    const session = await start(config('C', { cycles: 15 }, { rounds: 2 }), run.services);
    expect(await run.ended).toBe('finished');
    expect(run.updates[0]!.reset).toEqual({ protocol: 'gama', origin: 'live', keepsTranscript: false });
    const messages = run.messages();
    const connects = messages.filter((m) => m.text?.includes('"connect"'));
    expect(connects.map((m) => m.channel)).toEqual(
      Array.from({ length: 24 }, (_, i) => `Scav. ${(i % 12) + 1}`),
    );
    const replies = messages.filter((m) => m.dir === 's2c' && m.kind === 'data');
    expect(replies.every((m) => m.text!.startsWith(`${m.channel};`))).toBe(true);
    // 15 cycles and the terminal round, 12 scavengers asking in each (none tagged by the greedy sample).
    expect(replies.length).toBe(2 * 16 * 12);
    const rounds = run.updates.flatMap((u) => u.read?.rounds ?? []);
    expect(new Set(rounds.map((r) => r.round))).toEqual(new Set([1, 2]));
    const episodes = session.ask('episodes', []) as GamaEpisodeView[];
    expect(episodes.map((e) => e.episode)).toEqual([1, 2]);
    expect(episodes[0]!.result.scavengers).toHaveLength(12);
    expect(episodes[0]!.result.cycles).toBe(15);
    expect(episodes[0]!.result.metrics.peace).toBe(12);
    const collected = episodes[0]!.result.scavengers.reduce((sum, s) => sum + s.collected, 0);
    expect(collected).toBeGreaterThan(0);
    const world = session.ask('world', [1, 15]) as GamaWorldView;
    expect(world.world.cycle).toBe(15);
    expect(world.world.scavengers).toHaveLength(12);
    expect(world.width).toBe(55);
    expect((session.ask('world', [1, 0]) as GamaWorldView).world.cycle).toBe(0);
    expect(session.ask('no such question', [])).toBeUndefined();
    // The transcript breaks no rule of either side, and carries each episode's result.
    const exported = parseTranscriptJson(session.exportJson().join(''));
    expect(validateTranscript(exported, gamaProtocol).violations).toEqual([]);
    const notes = run.updates.flatMap((u) => u.read?.notes ?? []).map((n) => n.text);
    expect(notes.filter((text) => /^episode \d: 15 cycles/.test(text))).toHaveLength(2);
  });

  it('steps one cycle at a time from a paused start, and a stop is not a policy error', async () => {
    const run = recordingServices();
    const session = await start(config('C', { cycles: 50 }, { startPaused: true }), run.services);
    // GAMA asks at once; the answers wait for the learner.
    const replies = () => run.messages().filter((m) => m.dir === 's2c' && m.kind === 'data').length;
    await expect.poll(() => run.messages().filter((m) => m.text?.includes('"request"')).length).toBe(1);
    expect(replies()).toBe(0);
    session.step();
    await expect.poll(replies).toBe(12);
    await expect.poll(() => run.last('position')).toEqual({ round: 1, turn: 1 });
    session.step();
    await expect.poll(replies).toBe(24);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(replies()).toBe(24);
    session.stop();
    expect(await run.ended).toBe('stopped');
    expect(run.last('fault')).toBeUndefined();
    expect(run.annotations().filter((a) => a.type === 'error' || a.type === 'violation')).toEqual([]);
    const close = run.messages().findLast((m) => m.kind === 'close');
    expect(close).toMatchObject({ dir: 'c2s', text: 'stopped by the learner' });
  });

  it('stops at once while the policy is still thinking (step by step)', async () => {
    const silent: PolicyEndpoint = {
      load: async () => ({ ok: true, hooks: ['act'], logs: [] }),
      call: () => new Promise(() => undefined),
      terminate: () => undefined,
    };
    const run = recordingServices(() => silent);
    // A delay between cycles plays step by step, each answer a call into the policy worker.
    const session = await start(config('A', { cycles: 5 }, { budgetMs: 60_000, delayMs: 5 }), run.services);
    await expect.poll(() => run.messages().some((m) => m.text?.includes('"request"'))).toBe(true);
    session.stop();
    expect(await run.ended).toBe('stopped');
    expect(run.last('fault')).toBeUndefined();
    expect(run.annotations().filter((a) => a.type === 'error' || a.type === 'violation')).toEqual([]);
  });

  it('stops at once while the policy is still thinking (fast, the episode in the policy worker)', async () => {
    const run = recordingServices();
    const code = `export function act(): Promise<Action> {
      return new Promise(() => undefined);
    }`;
    const session = await start(
      config('A', { cycles: 5 }, { budgetMs: 60_000, policy: policy(code) }),
      run.services,
    );
    // The first chunk ends before the first answer: the opening frames are on show at once.
    await expect.poll(() => run.messages().some((m) => m.text?.includes('"request"'))).toBe(true);
    await expect.poll(() => run.last('status')).toBe('running');
    session.stop();
    expect(await run.ended).toBe('stopped');
    expect(run.last('fault')).toBeUndefined();
    expect(run.annotations().filter((a) => a.type === 'error' || a.type === 'violation')).toEqual([]);
    const close = run.messages().findLast((m) => m.kind === 'close');
    expect(close).toMatchObject({ dir: 'c2s', text: 'stopped by the learner' });
  });

  it('a policy overrunning its budget fails a fast session, naming the scavenger', async () => {
    const run = recordingServices();
    const code = `export function act(o: Observation, r: number, s: Scavenger): Action {
      if (s.number === 3) { const until = Date.now() + 60; while (Date.now() < until) {} }
      return 'idle';
    }`;
    await start(config('C', { cycles: 5 }, { budgetMs: 30, policy: policy(code) }), run.services);
    expect(await run.ended).toBe('failed');
    expect(run.last('fault')).toMatchObject({ kind: 'timeout' });
    expect(run.last('fault')?.message).toMatch(/exceeded 30 ms/);
    expect(run.last('faultOwner')).toBe('Scav. 3');
    const close = run.messages().findLast((m) => m.kind === 'close');
    expect(close).toMatchObject({ dir: 's2c', text: 'the policy failed' });
  });

  it('a chunk that never comes back: the close recorded after it is numbered after every message', async () => {
    const run = recordingServices();
    // The third scavenger never answers: the chunk's deadline ends it, and the close is recorded here.
    const code = `export function act(o: Observation, r: number, s: Scavenger): Action | Promise<Action> {
      return s.number === 3 ? new Promise<Action>(() => undefined) : 'idle';
    }`;
    await start(config('C', { cycles: 5 }, { budgetMs: 50, policy: policy(code) }), run.services);
    expect(await run.ended).toBe('failed');
    expect(run.last('fault')).toMatchObject({ kind: 'timeout' });
    const indices = run.messages().map((m) => m.index);
    expect(indices.length).toBeGreaterThan(1);
    expect(indices).toEqual(indices.map((_, i) => i));
    const close = run.messages().at(-1);
    expect(close).toMatchObject({ kind: 'close', dir: 's2c', text: 'the policy failed' });
    // The fault hangs off the last message recorded before it, not off the first.
    const fault = run.annotations().find((a) => a.type === 'error');
    expect(fault?.index).toBe(close!.index - 1);
  });

  it('a throwing policy fails the session, naming the scavenger', async () => {
    const run = recordingServices();
    const code = `export function act(o: Observation, r: number, s: Scavenger): Action {
      if (s.number === 2) throw new Error('no idea');
      return 'idle';
    }`;
    await start(config('B', { cycles: 5 }, { policy: policy(code) }), run.services);
    expect(await run.ended).toBe('failed');
    expect(run.last('fault')?.message).toContain('no idea');
    expect(run.last('faultOwner')).toBe('Scav. 2');
  });

  it('keeps a memory per scavenger across calls and episodes', async () => {
    const run = recordingServices();
    const code = `export function act(o: Observation, r: number, s: Scavenger, context: PolicyContext): Action {
      s.memory.calls = (s.memory.calls ?? 0) + 1;
      if (s.terminal) context.log(s.id + ' ' + s.memory.calls);
      return 'idle';
    }`;
    await start(config('A', { cycles: 4 }, { rounds: 2, policy: policy(code) }), run.services);
    expect(await run.ended).toBe('finished');
    const logs = run.annotations().filter((a) => a.type === 'policy-log');
    expect(logs.map((a) => (a.data as { text: string }).text)).toEqual(['Scav. 1 5', 'Scav. 1 10']);
  });

  it('in batch mode keeps only the episodes’ results and reports progress', async () => {
    const run = recordingServices();
    const session = await start(config('C', { cycles: 10, batch: true }, { rounds: 3 }), run.services);
    expect(await run.ended).toBe('finished');
    expect(run.messages().filter((m) => m.kind === 'data')).toEqual([]);
    expect((session.ask('episodes', []) as GamaEpisodeView[]).map((e) => e.result.cycles)).toEqual([
      10, 10, 10,
    ]);
    expect(session.ask('world', [1, 3])).toBeUndefined();
    const turns = run.updates.flatMap((u) => (u.position ? [u.position] : []));
    expect(turns.at(-1)).toMatchObject({ round: 3 });
  });

  it('refuses an unknown scenario with a clear error', async () => {
    await expect(start(config('Z', {}), recordingServices().services)).rejects.toThrow(
      /no GAMA scenario 'Z'/,
    );
  });

  it('shows an imported frame log with the episodes’ results read from the wire', async () => {
    const log = [
      '{ "scenario": "A_small" }',
      '{ "id": "Scav. 1", "connect": true }',
      '{ "id": "Scav. 1", "request": { "state": [ [ 0, 1, 0 ], [ 0, 4, 0 ] ], "reward": 0 } }',
      'Scav. 1;move_ahead',
      '{ "id": "Scav. 1", "request": { "state": [ [ 0, 0, 0 ], [ 0, 4, 0 ] ], "reward": 5 } }',
      'Scav. 1;idle',
    ].join('\n');
    const read = gamaFrameLogFormat.read([{ name: 'run.gamalog', bytes: new TextEncoder().encode(log) }]);
    expect(read.problems).toEqual([]);
    const run = recordingServices();
    const runner = await playground.loadRunner();
    const session = runner.show(
      { transcript: read.transcripts[0]!, origin: 'imported', name: 'run.gamalog' },
      run.services,
    );
    await expect.poll(() => run.updates.length).toBe(1);
    expect(run.updates[0]!.reset).toMatchObject({ origin: 'imported', name: 'run.gamalog' });
    expect(run.updates[0]!.read?.messages.map((m) => m.channel)).toEqual([
      undefined,
      'Scav. 1',
      'Scav. 1',
      'Scav. 1',
      'Scav. 1',
      'Scav. 1',
    ]);
    const episodes = session.ask('episodes', []) as GamaEpisodeView[];
    expect(episodes).toHaveLength(1);
    expect(episodes[0]).toMatchObject({ fromWire: true, result: { cycles: 2, scenario: 'A_small' } });
    expect(episodes[0]!.result.scavengers[0]).toMatchObject({ id: 'Scav. 1', reward: 5, collected: 1 });
    // Written by hand, the frames are not what scenario A gives: its world cannot be rebuilt, and says so.
    expect(session.ask('world', [1, 1])).toMatchObject({
      unavailable: expect.stringMatching(/does not give the recorded requests/),
      scavengers: [{ id: 'Scav. 1', reward: 5, collected: 1, asked: true }],
    });
  });
});

/** A transcript without its times, which differ from run to run. */
function timeless(json: string[]) {
  const transcript = parseTranscriptJson(json.join(''));
  return {
    ...transcript,
    startedAt: 0,
    messages: transcript.messages.map((m) => ({ ...m, t: 0 })),
  };
}

/** Plays a session to its end on the path asked for; returns the session and its transcript. */
async function playTo(cfg: SessionConfig, path: 'fast' | 'step by step') {
  const run = recordingServices();
  // Started paused, a session plays step by step; resumed at once, it runs as fast as that path goes.
  const session = await start({ ...cfg, startPaused: path === 'step by step' }, run.services);
  expect((session as unknown as { fast: boolean }).fast).toBe(path === 'fast');
  if (path === 'step by step') session.resume();
  expect(await run.ended).toBe('finished');
  return { session, run, transcript: timeless(session.exportJson()) };
}

describe('the fast path (the episodes in the policy worker) and the step-by-step path', () => {
  const cases: [string, SessionConfig][] = [
    ['greedy on C, 2 episodes', config('C', { cycles: 40 }, { rounds: 2, seed: 7 })],
    [
      'random on C with faithful quirks and RGB observations (tags, time-outs, ghosts)',
      config('C', { cycles: 30, faithfulQuirks: true, observation: 'rgb' }, { policy: sample('random') }),
    ],
    [
      'a policy that logs and answers nonsense, without the terminal round',
      config(
        'B',
        { cycles: 12, sendTerminal: false },
        {
          rounds: 2,
          policy:
            policy(`export function act(o: Observation, r: number, s: Scavenger, c: PolicyContext): Action {
            if (r > 0) c.log(s.id + ' got ' + r);
            return (c.random() < 0.1 ? 'jump' : c.random() < 0.5 ? 'move_ahead' : 'face_left') as Action;
          }`),
        },
      ),
    ],
    [
      'sustainable in batch mode',
      config('D', { cycles: 25, batch: true }, { rounds: 3, policy: sample('sustainable') }),
    ],
  ];
  it.each(cases)('record the same transcript: %s', async (_, cfg) => {
    const fast = await playTo(cfg, 'fast');
    const slow = await playTo(cfg, 'step by step');
    expect(fast.transcript.messages.length).toBeGreaterThan(0);
    expect(fast.transcript).toEqual(slow.transcript);
    expect(fast.session.ask('episodes', [])).toEqual(slow.session.ask('episodes', []));
    if (!(cfg.options as GamaSessionOptions).batch) {
      const cycles = (cfg.options as GamaSessionOptions).cycles;
      for (const cycle of [0, 1, Math.floor(cycles / 2), cycles])
        expect(fast.session.ask('world', [1, cycle])).toEqual(slow.session.ask('world', [1, cycle]));
    }
  });

  it('a fast session paused and stepped goes one cycle at a time, as the step-by-step path does', async () => {
    const run = recordingServices();
    const session = await start(config('C', { cycles: 400 }), run.services);
    expect((session as unknown as { fast: boolean }).fast).toBe(true);
    session.pause();
    await expect.poll(() => run.last('status')).toBe('paused');
    const replies = () => run.messages().filter((m) => m.dir === 's2c' && m.kind === 'data').length;
    // Whatever ran before the pause took, a cycle's twelve answers come whole.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = replies();
    expect(before % 12).toBe(0);
    session.step();
    await expect.poll(replies).toBe(before + 12);
    // Paused, the next cycle's first request is on show without its answer.
    const last = run.messages().findLast((m) => m.kind === 'data');
    expect(last).toMatchObject({ dir: 'c2s', channel: 'Scav. 1' });
    session.stop();
    expect(await run.ended).toBe('stopped');
    expect(run.messages().findLast((m) => m.kind === 'close')).toMatchObject({
      dir: 'c2s',
      text: 'stopped by the learner',
    });
    const episodes = session.ask('episodes', []) as GamaEpisodeView[];
    expect(episodes[0]!.result).toMatchObject({ completed: false, reason: 'stopped by the learner' });
  });
});

describe('GAMA session settings from storage and links', () => {
  it('keeps what is valid and falls back to the defaults for the rest', () => {
    expect(
      sanitizeGamaOptions({ cycles: '250', observation: 'rgb', batch: true, faithfulQuirks: 'yes' }),
    ).toEqual({
      cycles: 250,
      observation: 'rgb',
      sendTerminal: true,
      faithfulQuirks: false,
      batch: true,
    });
    expect(sanitizeGamaOptions({ cycles: -4, observation: 'jpeg' })).toMatchObject({
      cycles: 1,
      observation: 'legend',
    });
    expect(sanitizeGamaOptions(null)).toEqual(DEFAULT_GAMA_SESSION_OPTIONS);
  });

  it('round-trips through the share link, and a link without them carries none', () => {
    const options: GamaSessionOptions = {
      cycles: 77,
      observation: 'rgb',
      sendTerminal: false,
      faithfulQuirks: true,
      batch: false,
    };
    const fragment = `#p=gama&${gamaLinkFragment(options)}`;
    expect(sanitizeGamaOptions(gamaOptionsFromLink(fragment))).toEqual(options);
    expect(gamaOptionsFromLink('#p=rddlsim&seed=3')).toBeUndefined();
  });
});
