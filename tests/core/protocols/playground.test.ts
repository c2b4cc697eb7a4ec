import { describe, expect, it } from 'vitest';
import type { PolicyEndpoint } from '../../../src/core/policy/supervisor';
import type { PolicySource } from '../../../src/core/policy/types';
import type { MassimSessionOptions } from '../../../src/core/protocols/massim/playground/options';
import { massimProtocol } from '../../../src/core/protocols/massim/protocol';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import { rddlsimProtocol } from '../../../src/core/protocols/rddlsim/protocol';
import {
  type PlaygroundServices,
  type PlaygroundSession,
  type ProtocolPlayground,
  type SessionConfig,
  type SessionUpdate,
} from '../../../src/core/protocols/session-contract';
import type { Protocol } from '../../../src/core/protocols/contract';
import { parseTranscriptJson } from '../../../src/core/transcript/json-format';
import type { MassimNews } from '../../../src/core/protocols/massim/reading';

/** The protocol's policy runtime in this thread (no worker), as `spawnPolicy` would give it. */
function inProcess(playground: ProtocolPlayground): PolicyEndpoint {
  const runtime = playground.loadPolicyRuntime();
  return {
    load: async (source) => (await runtime).load(source),
    call: async (hook, args, context) => (await runtime).call(hook, args, context),
    terminate: () => undefined,
  };
}

/** Services that record what a runner reports and keeps; `ended` settles on a final status. */
function recordingServices(protocol: Protocol) {
  const playground = protocol.playground!;
  const updates: SessionUpdate[] = [];
  const kept: string[][] = [];
  let finish: (status: string) => void = () => undefined;
  const ended = new Promise<string>((resolve) => (finish = resolve));
  const services: PlaygroundServices = {
    spawnPolicy: () => inProcess(playground),
    listener: {
      update(json, deferred) {
        const update = JSON.parse(json) as SessionUpdate;
        if (deferred) Object.assign(update, JSON.parse(deferred));
        updates.push(update);
        if (update.status && ['finished', 'stopped', 'failed'].includes(update.status)) finish(update.status);
      },
    },
    nextFrame: (callback) => setTimeout(callback, 0),
    keepTranscript: async (json) => void kept.push([...json]),
  };
  return { services, updates, kept, ended };
}

const source = (protocol: Protocol): PolicySource => {
  const sample = protocol.samples.find((s) => s.id === protocol.defaultSample)!;
  return { code: sample.code, language: sample.language, fileName: 'policy.ts', level: 'policy', seed: 1 };
};

function config(protocol: Protocol, options?: unknown): SessionConfig {
  return {
    protocol: protocol.id,
    environment: protocol.defaultEnvironment,
    rounds: 1,
    seed: 1,
    delayMs: 0,
    budgetMs: 10_000,
    policy: source(protocol),
    startPaused: false,
    ...(options ? { options } : {}),
  };
}

describe('the playground runners, reached through the protocol definitions', () => {
  it('every registered protocol that plays in the page loads its runner and its policy runtime', async () => {
    const playing = PROTOCOLS.filter((protocol) => protocol.playground);
    expect(playing.map((p) => p.id)).toEqual(expect.arrayContaining([rddlsimProtocol.id, massimProtocol.id]));
    for (const protocol of playing) {
      const playground = protocol.playground!;
      const runner = await playground.loadRunner();
      expect(typeof runner.start).toBe('function');
      const runtime = await playground.loadPolicyRuntime();
      expect((await runtime.load(source(protocol))).ok).toBe(true);
    }
  });

  it('a page-kept session sends its transcript with its reading, then keeps it once quiet', async () => {
    const { services, updates, kept, ended } = recordingServices(rddlsimProtocol);
    const runner = await rddlsimProtocol.playground!.loadRunner();
    await runner.start(config(rddlsimProtocol), services);
    expect(await ended).toBe('finished');
    expect(updates[0]!.reset).toEqual({
      protocol: rddlsimProtocol.id,
      origin: 'live',
      keepsTranscript: false,
    });
    expect(updates[0]!.header?.protocol).toBe(rddlsimProtocol.id);
    const messages = updates.flatMap((u) => u.messages);
    const rows = updates.flatMap((u) => u.read?.messages ?? []);
    expect(rows.length).toBe(messages.length);
    expect(messages.length).toBeGreaterThan(10);
    // Kept when quiet, as Protoplay JSON holding every message sent.
    // A guard against a hang, not a speed requirement.
    await expect.poll(() => kept.length, { timeout: 60_000 }).toBeGreaterThan(0);
    expect(parseTranscriptJson(kept.at(-1)!.join('')).messages.length).toBe(messages.length);
  });

  it('a worker-kept match sends its views’ news and answers their questions', async () => {
    const { services, updates, ended } = recordingServices(massimProtocol);
    const runner = await massimProtocol.playground!.loadRunner();
    const options: MassimSessionOptions = {
      match: { kind: 'quick', setup: { agentsPerTeam: 2, steps: 5 } },
      otherTeams: source(massimProtocol),
      faithfulRaces: false,
    };
    const session: PlaygroundSession = await runner.start(config(massimProtocol, options), services);
    expect(await ended).toBe('finished');
    expect(updates[0]!.reset).toMatchObject({ origin: 'live', keepsTranscript: true });
    expect(updates.every((u) => u.messages.length === 0)).toBe(true);
    const news = updates.map((u) => u.views as MassimNews);
    const frames = news.reduce((count, n) => n.framesFrom + n.frames.length || count, 0);
    expect(frames).toBe(5);
    const first = session.ask('message', [0]) as { index: number; dir: string };
    expect(first).toMatchObject({ index: 0, dir: 'c2s' });
    expect(session.ask('world', [4])).toBeDefined();
    expect(session.ask('no such question', [])).toBeUndefined();
    const exported = parseTranscriptJson(session.exportJson().join(''));
    expect(exported.protocol).toBe(massimProtocol.id);
  });

  const stallingCases: [Protocol, MassimSessionOptions | undefined][] = [
    [rddlsimProtocol, undefined],
    [
      massimProtocol,
      {
        match: { kind: 'quick', setup: { agentsPerTeam: 2, steps: 50 } },
        otherTeams: source(massimProtocol),
        faithfulRaces: false,
      },
    ],
  ];
  for (const [protocol, options] of stallingCases)
    it(`${protocol.id}: stopped while a policy thinks, a session ends as stopped, not as a policy failure`, async () => {
      const { services, updates } = recordingServices(protocol);
      // The policy answers a few calls, then thinks for ever; the learner stops while it thinks (a stop
      // terminates the policy's worker: it never answers).
      let calls = 0;
      const started: { session?: PlaygroundSession } = {};
      const real = inProcess(protocol.playground!);
      services.spawnPolicy = () => ({
        ...real,
        call: (hook, args, context) => {
          if (++calls <= 3) return real.call(hook, args, context);
          // Stopped before any timer can run (the budget's included), however loaded the machine.
          queueMicrotask(() => started.session!.stop());
          return new Promise(() => undefined);
        },
      });
      const budgetMs = 40;
      const runner = await protocol.playground!.loadRunner();
      started.session = await runner.start({ ...config(protocol, options), budgetMs }, services);
      await expect.poll(() => updates.some((u) => u.status === 'stopped')).toBe(true);
      // Long enough for the call under way to overrun its budget several times over.
      await new Promise((resolve) => setTimeout(resolve, budgetMs * 5));
      expect(updates.filter((u) => u.fault)).toEqual([]);
      expect(updates.map((u) => u.status).filter(Boolean)).not.toContain('failed');
    });

  it('a shown transcript is reported like a session that ended', async () => {
    const { services, updates } = recordingServices(rddlsimProtocol);
    const played = recordingServices(rddlsimProtocol);
    const runner = await rddlsimProtocol.playground!.loadRunner();
    const live = await runner.start(config(rddlsimProtocol), played.services);
    await played.ended;
    const transcript = parseTranscriptJson(live.exportJson().join(''));
    runner.show({ transcript, origin: 'imported', name: 'x.json' }, services);
    await expect.poll(() => updates.length).toBe(1);
    expect(updates[0]!.reset).toEqual({
      protocol: rddlsimProtocol.id,
      origin: 'imported',
      name: 'x.json',
      keepsTranscript: false,
    });
    expect(updates[0]!.read?.messages.length).toBe(transcript.messages.length);
  });
});
