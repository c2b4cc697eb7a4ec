/**
 * The page as the API side a GAMA model dials through the bridge: the bridge replaced by what it hands the
 * run (a listen port's endpoint), GAMA by the core's own GAMA side (`GamaSimulation`) linked in memory, the
 * learner's policy by GAMA's policy runtime in this thread.
 */
import { describe, expect, it } from 'vitest';
import { findScavengerScenario } from '../../../../../src/core/envs/scavenger';
import type { SansIoEndpoint } from '../../../../../src/core/protocols/contract';
import { GAMA_SAMPLES, gamaProtocol, linkInMemory } from '../../../../../src/core/protocols/gama';
import { startBridgedApiRun } from '../../../../../src/core/protocols/gama/playground/bridged-api-run';
import type {
  GamaEpisodeView,
  GamaWorldView,
} from '../../../../../src/core/protocols/gama/playground/options';
import { GamaSimulation } from '../../../../../src/core/protocols/gama/simulation';
import type { SessionConfig } from '../../../../../src/core/protocols/session-contract';
import type { Transcript } from '../../../../../src/core/transcript/model';
import { fakeListenBridge, inProcessPolicy, recordingServices } from '../../../session/playground-fakes';

function config(code: string, startPaused = false): SessionConfig {
  return {
    protocol: 'gama',
    environment: 'C',
    rounds: 1,
    seed: 0,
    delayMs: 0,
    budgetMs: 10_000,
    policy: { code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: 1 },
    startPaused,
  };
}

const inProcess = inProcessPolicy(gamaProtocol.playground!);

const GREEDY = GAMA_SAMPLES.find((sample) => sample.id === 'greedy')!.code;

const fakeBridge = () => fakeListenBridge('ws://127.0.0.1:3001/');

const gamaSide = () => new GamaSimulation({ scenario: findScavengerScenario('C')!, seed: 0, maxCycles: 8 });

describe('the GAMA inbound run (the page as the API side)', () => {
  it('answers two episodes with the policy, records their channels and rebuilds their worlds', async () => {
    const bridge = fakeBridge();
    const { services, updates } = recordingServices(inProcess);
    const run = await startBridgedApiRun(config(GREEDY), 'gama', services, bridge.access);
    const endpoint = bridge.served.get('gama')! as unknown as SansIoEndpoint<string, string>;
    // One GAMA side playing two episodes in a row, as `connect gama --episodes 2` does.
    const simulation = gamaSide();
    await linkInMemory(simulation, endpoint, { id: 'gama#1' });
    await linkInMemory(simulation, endpoint, { id: 'gama#2' });

    const transcript = JSON.parse(run.exportJson().join('')) as Transcript;
    expect(transcript.meta).toMatchObject({ source: 'bridge', listen: 'gama' });
    expect(transcript.connections.map((c) => c.id)).toEqual(['episode 1', 'episode 2']);
    const replies = transcript.messages.filter((m) => m.kind === 'data' && m.dir === 's2c');
    expect(replies.length).toBeGreaterThan(12 * 8);
    for (const reply of replies) expect(reply.channel).toBe(reply.text!.split(';')[0]);
    const episodes = run.ask('episodes', []) as GamaEpisodeView[];
    expect(episodes).toHaveLength(2);
    // The world is rebuilt from the recorded answers: Protoplay's GAMA side with its seeds replays exactly.
    const world = run.ask('world', [2, 8]) as GamaWorldView;
    expect(world.world.cycle).toBe(8);
    expect(world.world.scavengers).toHaveLength(12);
    run.stop();
    expect(updates.at(-1)?.status).toBe('stopped');
    expect(bridge.served.has('gama')).toBe(false);
  });

  it('says it runs only once the listen port is served, not while the policy still loads', async () => {
    const bridge = fakeBridge();
    let release: () => void = () => undefined;
    const loading = new Promise<void>((done) => (release = done));
    const slowPolicy = () => {
      const endpoint = inProcess();
      return {
        ...endpoint,
        load: async (source: Parameters<typeof endpoint.load>[0]) => {
          await loading;
          return endpoint.load(source);
        },
      };
    };
    const { services, updates } = recordingServices(slowPolicy);
    // What the page is told, each time, beside whether an agent dialling now would be answered.
    const seen: { status: string | undefined; served: boolean }[] = [];
    const update = services.listener.update.bind(services.listener);
    services.listener.update = (json, deferred) => {
      update(json, deferred);
      seen.push({ status: updates.at(-1)?.status, served: bridge.served.has('gama') });
    };
    const started = startBridgedApiRun(config(GREEDY), 'gama', services, bridge.access);
    // Several frames go by while the policy loads: nothing may say running yet.
    for (let frame = 0; frame < 5; frame++) await new Promise((done) => setTimeout(done, 0));
    expect(seen.filter((s) => s.status === 'running')).toEqual([]);
    release();
    const run = await started;
    await expect.poll(() => seen.some((s) => s.status === 'running')).toBe(true);
    expect(seen.filter((s) => s.status === 'running').every((s) => s.served)).toBe(true);
    run.stop();
  });

  it('fails with the policy fault located, closing the episode, when act throws', async () => {
    const bridge = fakeBridge();
    const { services, updates } = recordingServices(inProcess);
    const code = "export function act(): string {\n  throw new Error('no idea');\n}\n";
    await startBridgedApiRun(config(code), 'gama', services, bridge.access);
    const endpoint = bridge.served.get('gama')! as unknown as SansIoEndpoint<string, string>;
    let closedBy: string | undefined;
    await linkInMemory(gamaSide(), endpoint, { id: 'gama#1', onClose: (by) => (closedBy = by) });
    expect(closedBy).toBe('server');
    await expect.poll(() => updates.some((u) => u.status === 'failed')).toBe(true);
    const fault = updates.find((u) => u.fault)?.fault;
    expect(fault?.message).toContain('no idea');
    expect(updates.find((u) => u.faultOwner)?.faultOwner).toMatch(/^Scav\. \d+$/);
  });

  it('holds its answers while paused: the GAMA side waits, and Step answers one request', async () => {
    const bridge = fakeBridge();
    const { services } = recordingServices(inProcess);
    const run = await startBridgedApiRun(config(GREEDY, true), 'gama', services, bridge.access);
    const endpoint = bridge.served.get('gama')! as unknown as SansIoEndpoint<string, string>;
    const frames: string[] = [];
    void linkInMemory(gamaSide(), endpoint, {
      id: 'gama#1',
      onFrame: (dir, text) => {
        if (dir === 's2c') frames.push(text);
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frames).toEqual([]);
    run.step();
    await expect.poll(() => frames.length).toBe(1);
    run.stop();
  });
});
