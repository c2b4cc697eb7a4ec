/**
 * Real MASSim agents answered by the page's emulated server through the bridge: the bridge replaced by
 * what it hands the run (a listen port's endpoint), the agents by frames written here.
 */
import { describe, expect, it } from 'vitest';
import type { SansIoEndpoint, WireData, WirePeer } from '../../../../../src/core/protocols/contract';
import { encodeNulFrame } from '../../../../../src/core/transport/nul-framing';
import { startBridgedMassimHostRun } from '../../../../../src/core/protocols/massim/playground/bridged-host-run';
import type { MassimSessionOptions } from '../../../../../src/core/protocols/massim/playground/options';
import type { SessionConfig } from '../../../../../src/core/protocols/session-contract';
import type { Transcript } from '../../../../../src/core/transcript/model';
import { fakeListenBridge, recordingServices } from '../../../session/playground-fakes';

const OPTIONS: MassimSessionOptions = {
  match: { kind: 'quick', setup: { agentsPerTeam: 1, steps: 5, width: 20, height: 20 } },
  otherTeams: { code: '', language: 'ts', level: 'policy' } as MassimSessionOptions['otherTeams'],
  faithfulRaces: false,
};

const CONFIG: SessionConfig = {
  protocol: 'massim',
  environment: 'quick',
  rounds: 1,
  seed: 2,
  delayMs: 0,
  budgetMs: 1000,
  policy: { code: '', language: 'ts', level: 'policy' } as SessionConfig['policy'],
  startPaused: false,
  options: OPTIONS,
};

const fakeBridge = () => fakeListenBridge('tcp://127.0.0.1:12300');

/** An agent's connection: the frames it got (types) and whether the server closed it. */
function agent(endpoint: SansIoEndpoint<WireData, WireData>, user: string) {
  const received: string[] = [];
  const state = { closed: false };
  const decoder = new TextDecoder();
  const peer: WirePeer<WireData> = endpoint.connect(
    {
      send: (bytes) => {
        for (const text of decoder.decode(bytes as Uint8Array).split('\0'))
          if (text) received.push((JSON.parse(text) as { type: string }).type);
      },
      close: () => (state.closed = true),
    },
    { id: `massim#${user}`, remote: `127.0.0.1:${user}` },
  );
  peer.receive(encodeNulFrame(JSON.stringify({ type: 'auth-request', content: { user, pw: '1' } })));
  return { received, state, peer };
}

describe('the MASSim inbound run', () => {
  it('starts the match once every agent of the first simulation has logged in, and stops it on Stop', async () => {
    const bridge = fakeBridge();
    const { services, updates } = recordingServices();
    const run = await startBridgedMassimHostRun(CONFIG, 'massim', services, bridge.access);
    const endpoint = bridge.served.get('massim')!;
    const a = agent(endpoint, 'agentA1');
    await expect.poll(() => a.received).toEqual(['auth-response']);
    // One team alone does not start the match.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.received).toEqual(['auth-response']);
    const b = agent(endpoint, 'agentB1');
    await expect.poll(() => b.received).toContain('request-action');
    expect(a.received).toEqual(['auth-response', 'sim-start', 'request-action']);

    run.stop();
    expect(a.state.closed && b.state.closed).toBe(true);
    expect(bridge.served.has('massim')).toBe(false);
    expect(updates.at(-1)?.status).toBe('stopped');
    const transcript = JSON.parse(run.exportJson().join('')) as Transcript;
    expect(transcript.meta).toMatchObject({ source: 'bridge', listen: 'massim', seed: 2 });
    expect(transcript.connections.map((c) => c.id).sort()).toEqual(['agentA1.conn1', 'agentB1.conn1']);
  });

  it('refuses a login with a wrong password as the real server does, without starting', async () => {
    const bridge = fakeBridge();
    const run = await startBridgedMassimHostRun(
      CONFIG,
      'massim',
      recordingServices().services,
      bridge.access,
    );
    const endpoint = bridge.served.get('massim')!;
    agent(endpoint, 'agentA1');
    const decoder = new TextDecoder();
    const answers: string[] = [];
    const intruder = endpoint.connect(
      { send: (bytes) => answers.push(decoder.decode(bytes as Uint8Array)), close: () => undefined },
      { id: 'massim#x', remote: '127.0.0.1:1' },
    );
    intruder.receive(
      encodeNulFrame(JSON.stringify({ type: 'auth-request', content: { user: 'agentB1', pw: 'no' } })),
    );
    await expect.poll(() => answers.join('')).toContain('"fail"');
    expect(answers.join('')).not.toContain('sim-start');
    run.stop();
  });
});
