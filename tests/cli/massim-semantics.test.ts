/**
 * `protoplay run massim --semantics massim`: with a real server's configuration file (whose simulation
 * fixes randomSeed), every agent's first request-action percept is the one the real MASSim 2022 server sent
 * for that configuration (the shared conformance recording `events`); Protoplay's own generator (the
 * default) gives another world. `serve massim --semantics massim` sends real agents the same percepts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR, recordedServerMessages } from '../core/envs/massim/recorded';
import { normalisePercept } from '../core/envs/massim/percept-sets';
import { runInProcess } from './run-cli';
import { framesOf, RawAgent, readTranscript, startServe } from './massim-tcp';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-massim-semantics-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Each agent's step-0 percept in a transcript written by `run massim`. */
async function firstPercepts(args: string[], name: string): Promise<Map<string, unknown>> {
  const path = join(dir, name);
  const result = await runInProcess([
    'run',
    'massim',
    '--config',
    resolve(CONFORMANCE_DIR, 'conf/events.json'),
    '--policy',
    'skip',
    '--transcript',
    path,
    ...args,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const transcript = await readTranscript(path);
  const byAgent = new Map<string, unknown>();
  for (const conn of new Set(transcript.messages.map((message) => message.conn))) {
    const frames = framesOf(transcript, conn, 's2c');
    const simStart = frames.find((frame) => frame.type === 'sim-start');
    const step0 = frames.find((frame) => frame.type === 'request-action' && frame.content.step === 0);
    if (simStart && step0) {
      const agent = (simStart.content.percept as { name: string }).name;
      byAgent.set(agent, normalisePercept(step0.content.percept!));
    }
  }
  return byAgent;
}

const recorded = new Map(
  recordedServerMessages('events')
    .filter((m) => m.type === 'request-action' && m.content['step'] === 0)
    .map((m) => [m.agent, normalisePercept(m.content['percept'] as object)]),
);

describe('run massim --semantics massim', () => {
  it("gives every agent the real server's first percept for the configuration's seed", async () => {
    expect(recorded.size).toBe(2);
    const ours = await firstPercepts(['--semantics', 'massim'], 'massim.json');
    expect(ours).toEqual(recorded);
  });

  it("differs by default (Protoplay's generator)", async () => {
    const ours = await firstPercepts([], 'protoplay.json');
    expect([...ours.keys()].sort()).toEqual([...recorded.keys()].sort());
    expect(ours).not.toEqual(recorded);
  });

  it('refuses an unknown semantics with the choices', async () => {
    const result = await runInProcess(['run', 'massim', '--semantics', 'java']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/semantics.*protoplay.*massim/s);
  });

  it("serve massim --semantics massim sends agents over TCP the real server's first percepts", async () => {
    const serve = await startServe([
      '--config',
      resolve(CONFORMANCE_DIR, 'conf/events.json'),
      '--semantics',
      'massim',
      '--launch',
      'connected',
      '--quiet',
    ]);
    const agents: RawAgent[] = [];
    try {
      const received = new Map<string, unknown>();
      for (const name of [...recorded.keys()].sort()) {
        const agent = await RawAgent.open(serve.port);
        agents.push(agent);
        expect(await agent.login(name)).toBe('ok');
      }
      for (const [i, name] of [...recorded.keys()].sort().entries()) {
        const request = await agents[i]!.next('request-action');
        expect(request.content.step).toBe(0);
        received.set(name, normalisePercept(request.content.percept!));
      }
      expect(received).toEqual(recorded);
    } finally {
      for (const agent of agents) agent.close();
      serve.interrupt();
      await serve.done;
    }
  });
});
