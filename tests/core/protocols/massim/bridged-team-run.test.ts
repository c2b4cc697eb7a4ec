/**
 * The page's MASSim teams through the bridge, against a real emulated MASSim host behind a fake bridge
 * (each channel a pair of sinks, delivered in later tasks as a socket would): a whole match with every
 * frame recorded, the server's broken rules shown without stopping, a connection cut in the middle of a
 * simulation reopened and the match finished, a server gone for good, and a silent server.
 */
import { describe, expect, it } from 'vitest';
import { quickMassimConfig } from '../../../../src/core/envs/massim/index';
import type { BridgeChannel } from '../../../../src/core/bridge/bridge-channel';
import { BridgeError } from '../../../../src/core/bridge/bridge-errors';
import type { PolicySource } from '../../../../src/core/policy/types';
import type { SansIoEndpoint, WireData, WirePeer } from '../../../../src/core/protocols/contract';
import { MassimHost } from '../../../../src/core/protocols/massim/host';
import { MassimHostEndpoint } from '../../../../src/core/protocols/massim/host-endpoint';
import type { MassimSessionOptions } from '../../../../src/core/protocols/massim/playground/options';
import {
  startBridgedMassimRun,
  type BridgedMassimTuning,
} from '../../../../src/core/protocols/massim/playground/bridged-team-run';
import { massimProtocol } from '../../../../src/core/protocols/massim/protocol';
import type { SessionConfig } from '../../../../src/core/protocols/session-contract';
import type { BridgeAccess } from '../../../../src/core/session/bridge-route';
import { encodeNulFrame } from '../../../../src/core/transport/nul-framing';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';
import { inProcessPolicy, recordingServices as recordedServices } from '../../session/playground-fakes';

const SETUP = { agentsPerTeam: 2, steps: 6, width: 20, height: 20 };
const FAST: BridgedMassimTuning = { reconnectDelayMs: 10, maxReconnectDelayMs: 40, gatherWindowMs: 5 };

const recordingServices = () => recordedServices(inProcessPolicy(massimProtocol.playground!));

const policy = (): PolicySource => {
  const sample = massimProtocol.samples.find((s) => s.id === massimProtocol.defaultSample)!;
  return { code: sample.code, language: sample.language, fileName: 'policy.ts', level: 'policy', seed: 1 };
};

function config(): SessionConfig {
  const options: MassimSessionOptions = {
    match: { kind: 'quick', setup: SETUP },
    otherTeams: policy(),
    faithfulRaces: false,
  };
  return {
    protocol: massimProtocol.id,
    environment: massimProtocol.defaultEnvironment,
    rounds: 1,
    seed: 1,
    delayMs: 0,
    budgetMs: 10_000,
    policy: policy(),
    startPaused: false,
    options,
  };
}

/** A MASSim host as the real server, behind a bridge whose channels are pairs of asynchronous sinks. */
function serverBehindBridge(options: { answer?: boolean; afterStep?: (step: number) => void } = {}) {
  const quick = quickMassimConfig(SETUP);
  const host = new MassimHost({
    config: { ...quick, server: { ...quick.server, waitBetweenSimulations: 0, agentTimeout: 2000 } },
    seed: 1,
    // In a later task, as a fault from outside would come: never inside the host's own step.
    onEvent: (event) => {
      if (event.kind === 'step') setTimeout(() => options.afterStep?.(event.step), 0);
    },
  });
  const agents = quick.teams.length * SETUP.agentsPerTeam;
  const endpoint = new MassimHostEndpoint(host, {
    log: () => undefined,
    onAgentsChanged: () => {
      if (!started && endpoint.loggedIn.size === agents) {
        started = true;
        host.start();
      }
    },
  });
  let started = false;
  /** Server-side ends of the open channels, to cut them. */
  const open = new Set<{ cut(): void }>();
  const state = { refuse: false, opened: 0, sent: [] as WireData[] };
  const later = (work: () => void) => setTimeout(work, 0);
  const bridge: BridgeAccess = {
    async connect(target, client: SansIoEndpoint<WireData, WireData>) {
      if (target !== 'massim') throw new BridgeError('bridge.unknown-target', `no target '${target}'`);
      if (state.refuse) throw new BridgeError('bridge.open', 'connect ECONNREFUSED 127.0.0.1:12300');
      state.opened++;
      /** `closed`: no more data either way; `clientGone`: the client closed, nothing reaches it. */
      let closed = false;
      let clientGone = false;
      const serverPeer = endpoint.connect(
        {
          // What the server sent before it closed reaches the client before the close, as on TCP.
          send: (bytes) => later(() => !clientGone && clientPeer.receive(bytes)),
          close: (reason) => end(reason ?? 'closed by the server'),
        },
        { id: `tcp${state.opened}`, remote: '127.0.0.1:1' },
      );
      const end = (reason: string) => {
        if (closed) return;
        closed = true;
        open.delete(link);
        later(() => !clientGone && clientPeer.end(reason));
        serverPeer.end('the client went away');
      };
      const link = { cut: () => end('the connection was reset') };
      open.add(link);
      const clientPeer: WirePeer<WireData> = client.connect(
        {
          send: (data) => {
            state.sent.push(data);
            if (options.answer === false || closed) return;
            const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : (data as Uint8Array);
            later(() => !closed && serverPeer.receive(bytes));
          },
          close: () => {
            clientGone = true;
            if (closed) return;
            closed = true;
            open.delete(link);
            serverPeer.end('the client closed');
          },
        },
        { id: `massim#${state.opened}` },
      );
      return {} as BridgeChannel;
    },
    serve: () => () => undefined,
    describe: () => 'tcp://127.0.0.1:12300',
    silenceMs: 30_000,
  };
  return { host, bridge, state, cutAll: () => [...open].forEach((link) => link.cut()) };
}

const exported = (kept: string[][]): Transcript => parseTranscriptJson(kept.at(-1)!.join(''));

describe('MASSim teams through the bridge', () => {
  it('plays a whole match, one recorded connection per agent, kept for a reload', async () => {
    const server = serverBehindBridge();
    const { services, kept, ended } = recordingServices();
    const session = await startBridgedMassimRun(config(), 'massim', services, server.bridge, FAST);
    const last = await ended;
    expect(last.status).toBe('finished');
    await expect.poll(() => kept.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const transcript = exported(kept);
    expect(transcript.meta).toMatchObject({
      source: 'bridge',
      target: 'massim',
      server: 'tcp://127.0.0.1:12300',
    });
    expect(transcript.connections.map((c) => c.id).sort()).toEqual([
      'agentA1.conn1',
      'agentA2.conn1',
      'agentB1.conn1',
      'agentB2.conn1',
    ]);
    const texts = transcript.messages.filter((m) => m.kind === 'data').map((m) => m.text ?? '');
    // Every agent answered every step of the 6 (the host runs a step once all answered or timed out).
    const actions = texts.filter((text) => text.startsWith('{"type":"action"'));
    expect(actions.length).toBe(4 * SETUP.steps);
    expect(texts.filter((text) => text.includes('"type":"sim-end"'))).toHaveLength(4);
    expect(texts.filter((text) => text.includes('"type":"bye"'))).toHaveLength(4);
    // The host saw the actions as the agents sent them: none was late (no_action in its transcript).
    expect(server.host.status.phase).toBe('finished');
    expect(session.exportJson().join('')).toContain('"agentB2.conn1"');
    // Every frame an agent sent is the one encoder's bytes: UTF-8 text and exactly one 0 byte, at the end.
    expect(server.state.sent.length).toBeGreaterThanOrEqual(4 + 4 * SETUP.steps);
    for (const data of server.state.sent) {
      expect(data).toBeInstanceOf(Uint8Array);
      const bytes = data as Uint8Array;
      expect(bytes.indexOf(0)).toBe(bytes.length - 1);
      expect([...bytes]).toEqual([...encodeNulFrame(new TextDecoder().decode(bytes.subarray(0, -1)))]);
    }
  });

  it('shows the server breaking a rule and plays on', async () => {
    const server = serverBehindBridge();
    // A second auth-response nobody asked for, sent to agentA1 right after its first.
    const connect = server.bridge.connect.bind(server.bridge);
    server.bridge.connect = (target, client) =>
      connect(target, {
        connect(sink, connection) {
          const peer = client.connect(sink, connection);
          let first = true;
          return {
            receive(data) {
              peer.receive(data);
              const text = new TextDecoder().decode(data as Uint8Array);
              if (first && text.includes('auth-response') && text.includes('"ok"')) {
                first = false;
                peer.receive(
                  new TextEncoder().encode('{"type":"auth-response","content":{"result":"ok"}}\0'),
                );
              }
            },
            end: (reason) => peer.end(reason),
          };
        },
      });
    const { services, kept, ended } = recordingServices();
    await startBridgedMassimRun(config(), 'massim', services, server.bridge, FAST);
    expect((await ended).status).toBe('finished');
    await expect.poll(() => kept.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const violations = (exported(kept).annotations ?? []).filter((a) => a.type === 'violation');
    expect(violations.length).toBeGreaterThanOrEqual(4);
    expect(violations[0]!.data).toMatchObject({ role: 'client' });
  });

  it('reopens connections cut in the middle of a simulation, and the match goes on to its end', async () => {
    // Cut once step 2 ran, whatever the machine's speed (a poll could miss a match that fast).
    const server = serverBehindBridge({ afterStep: (step) => step === 2 && server.cutAll() });
    const { services, kept, updates, ended } = recordingServices();
    await startBridgedMassimRun(config(), 'massim', services, server.bridge, FAST);
    const last = await ended;
    expect(last.status).toBe('finished');
    await expect.poll(() => kept.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const transcript = exported(kept);
    expect(transcript.connections.map((c) => c.id)).toContain('agentA1.conn2');
    const notes = (transcript.annotations ?? []).map((a) => JSON.stringify(a.data));
    expect(notes.some((note) => note.includes('reconnected'))).toBe(true);
    expect(updates.some((u) => u.status === 'failed')).toBe(false);
  });

  it('fails saying where when the server is gone for good, keeping everything recorded', async () => {
    const server = serverBehindBridge({
      afterStep: (step) => {
        if (step !== 2) return;
        server.state.refuse = true;
        server.cutAll();
      },
    });
    const { services, kept, ended } = recordingServices();
    await startBridgedMassimRun(config(), 'massim', services, server.bridge, {
      ...FAST,
      reconnectAttempts: 3,
    });
    const last = await ended;
    expect(last.status).toBe('failed');
    expect(last.error).toMatch(/closed agent[AB]\d's connection in simulation 1 at step \d+, before sim-end/);
    expect(last.error).toContain('3 tries to reconnect it failed');
    expect(last.error).toContain('ECONNREFUSED');
    await expect.poll(() => kept.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const texts = exported(kept).messages.map((m) => m.text ?? '');
    expect(texts.some((text) => text.includes('"type":"request-action"'))).toBe(true);
  });

  it('stores the transcript while the match runs, so a reload in the middle shows what was played', async () => {
    const server = serverBehindBridge();
    const { services, updates, ended } = recordingServices();
    /** Requests in each transcript kept while no final status had been reported. */
    const keptWhileRunning: number[] = [];
    services.keepTranscript = async (json) => {
      if (updates.some((u) => u.status && ['finished', 'stopped', 'failed'].includes(u.status))) return;
      const transcript = parseTranscriptJson(json.join(''));
      keptWhileRunning.push(
        transcript.messages.filter((m) => m.text?.startsWith('{"type":"request-action"')).length,
      );
    };
    await startBridgedMassimRun(config(), 'massim', services, server.bridge, { ...FAST, keepEveryMs: 20 });
    await ended;
    expect(Math.max(0, ...keptWhileRunning)).toBeGreaterThan(0);
  });

  it('fails with a timeout message when the server never answers', async () => {
    const server = serverBehindBridge({ answer: false });
    const { services, ended } = recordingServices();
    // The bridge's --response-timeout is the run's limit.
    const bridge = { ...server.bridge, silenceMs: 300 };
    await startBridgedMassimRun(config(), 'massim', services, bridge, FAST);
    const last = await ended;
    expect(last.status).toBe('failed');
    expect(last.error).toMatch(/the server sent nothing to agent[AB]\d for 0\.3 s after its auth-request/);
  });
});
