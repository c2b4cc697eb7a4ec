/**
 * Real rddlsim clients answered by the page's emulated server through the bridge's listen port, with the
 * bridge replaced by what it hands the run (a listen port's endpoint) and the clients by the core's own
 * `RddlsimClient` over an in-memory connection, as the bridge's channels would carry them.
 */
import { describe, expect, it } from 'vitest';
import type { SansIoEndpoint, WireData, WirePeer } from '../../../../../src/core/protocols/contract';
import { RddlsimClient, type ClientEvent } from '../../../../../src/core/protocols/rddlsim/client';
import { startBridgedHostRun } from '../../../../../src/core/protocols/rddlsim/playground/bridged-host-run';
import { loadExampleEnvironment } from '../../../../../src/core/protocols/rddlsim/playground/environments';
import type { SessionConfig } from '../../../../../src/core/protocols/session-contract';
import type { Transcript } from '../../../../../src/core/transcript/model';
import { fakeListenBridge, recordingServices } from '../../../session/playground-fakes';

const ENVIRONMENT = 'grid_walk';

function config(rounds: number, startPaused = false): SessionConfig {
  return {
    protocol: 'rddlsim',
    environment: ENVIRONMENT,
    rounds,
    seed: 7,
    delayMs: 0,
    budgetMs: 1000,
    policy: { code: '', language: 'ts', level: 'policy' } as SessionConfig['policy'],
    startPaused,
  };
}

const fakeBridge = () => fakeListenBridge('tcp://127.0.0.1:2323');

/** A client playing noops to the end; resolves with how its connection ended. */
function playClient(
  endpoint: SansIoEndpoint<WireData, WireData>,
  id: string,
  problemName: string,
): { done: Promise<'session-end' | 'closed by the server'>; sent: () => number } {
  const { model } = loadExampleEnvironment(ENVIRONMENT);
  const client = new RddlsimClient({
    problemName,
    clientName: id,
    info: model.info,
    sendInvalidActions: true,
  });
  let sent = 0;
  let finish: (how: 'session-end' | 'closed by the server') => void = () => undefined;
  // The first way it ended counts: after session-end the server closes too.
  const done = new Promise<'session-end' | 'closed by the server'>((resolve) => (finish = resolve));
  const handle = (events: ClientEvent[]) => {
    for (const event of events) {
      if (event.kind === 'send') {
        sent++;
        // Each side's sends reach the other in a later task, as over a socket.
        setTimeout(() => host.receive(event.bytes), 0);
      } else if (event.kind === 'turn') handle(client.act([]).events);
      else if (event.kind === 'session-end') {
        setTimeout(() => host.end(), 0);
        finish('session-end');
      }
    }
  };
  const host: WirePeer<WireData> = endpoint.connect(
    {
      send: (bytes) => setTimeout(() => handle(client.receive(bytes as Uint8Array)), 0),
      close: () => setTimeout(() => finish('closed by the server'), 0),
    },
    { id: `rddlsim#${id}`, remote: `127.0.0.1:${id}` },
  );
  handle(client.start());
  return { done, sent: () => sent };
}

describe('the rddlsim inbound run', () => {
  it('serves two clients one after the other, each a connection of the one transcript', async () => {
    const bridge = fakeBridge();
    const { services, updates } = recordingServices();
    const run = await startBridgedHostRun(config(2), 'rddlsim', services, bridge.access);
    const endpoint = bridge.served.get('rddlsim')!;
    const instance = loadExampleEnvironment(ENVIRONMENT).model.info.instance;
    const first = playClient(endpoint, '1001', instance);
    const second = playClient(endpoint, '1002', instance);
    expect(await first.done).toBe('session-end');
    expect(await second.done).toBe('session-end');
    run.stop();

    const transcript = JSON.parse(run.exportJson().join('')) as Transcript;
    expect(transcript.meta).toMatchObject({ source: 'bridge', listen: 'rddlsim', rounds: 2, seed: 7 });
    expect(transcript.connections.map((c) => c.label)).toEqual([
      'session 1 (127.0.0.1:1001)',
      'session 2 (127.0.0.1:1002)',
    ]);
    const data = transcript.messages.filter((m) => m.kind === 'data');
    const endOfFirst = data.findIndex((m) => m.conn === 'session-1' && m.text?.includes('<session-end>'));
    const startOfSecond = data.findIndex((m) => m.conn === 'session-2');
    expect(endOfFirst).toBeGreaterThan(0);
    expect(startOfSecond).toBeGreaterThan(endOfFirst);
    // The second session simulates with the next seed, as the real server's second session does.
    const inits = data.filter((m) => m.text?.includes('<session-init>')).map((m) => m.text!);
    expect(inits.map((text) => /<session-id>(\d+)<\/session-id>/.exec(text)?.[1])).toEqual(['1', '2']);
    const notes = transcript.annotations.filter((a) => a.type === 'note').map((a) => JSON.stringify(a.data));
    expect(notes.some((note) => note.includes('waits: 1 connection before it'))).toBe(true);
    // The page was told everything, and that the run was stopped.
    expect(updates.some((update) => update.status === 'stopped')).toBe(true);
    const rounds = updates.flatMap((update) => update.read?.rounds ?? []);
    expect(new Set(rounds.filter((round) => round.total !== undefined).map((r) => r.round))).toEqual(
      new Set([1, 2, 3, 4]),
    );
  });

  it('refuses a client asking for another instance as the real server does', async () => {
    const bridge = fakeBridge();
    const run = await startBridgedHostRun(config(1), 'rddlsim', recordingServices().services, bridge.access);
    const client = playClient(bridge.served.get('rddlsim')!, '1003', 'not_this_instance');
    expect(await client.done).toBe('closed by the server');
    const transcript = JSON.parse(run.exportJson().join('')) as Transcript;
    const notes = transcript.annotations.filter((a) => a.type === 'note').map((a) => JSON.stringify(a.data));
    expect(notes.some((note) => note.includes('not_this_instance'))).toBe(true);
    run.stop();
  });

  it('stops serving the listen port and closes the connections under way when stopped', async () => {
    const bridge = fakeBridge();
    const run = await startBridgedHostRun(
      config(1000),
      'rddlsim',
      recordingServices().services,
      bridge.access,
    );
    const endpoint = bridge.served.get('rddlsim')!;
    const instance = loadExampleEnvironment(ENVIRONMENT).model.info.instance;
    const client = playClient(endpoint, '1004', instance);
    await expect.poll(() => client.sent()).toBeGreaterThan(10);
    run.stop();
    expect(await client.done).toBe('closed by the server');
    expect(bridge.served.has('rddlsim')).toBe(false);
  });

  it('holds the server’s answers while paused: Step lets one message through, Resume the rest', async () => {
    const bridge = fakeBridge();
    const { services, updates } = recordingServices();
    const run = await startBridgedHostRun(config(1, true), 'rddlsim', services, bridge.access);
    const instance = loadExampleEnvironment(ENVIRONMENT).model.info.instance;
    const client = playClient(bridge.served.get('rddlsim')!, '1005', instance);
    const received = () =>
      (JSON.parse(run.exportJson().join('')) as Transcript).messages.filter((m) => m.kind === 'data').length;
    // The session-request is held (not even recorded: the server has not read it yet).
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.sent()).toBe(1);
    expect(received()).toBe(0);
    run.step();
    // Read and answered with session-init; the client's round-request now waits in its turn.
    await expect.poll(() => client.sent()).toBe(2);
    expect(received()).toBe(2);
    expect(updates.some((update) => update.status === 'paused')).toBe(true);
    run.resume();
    expect(await client.done).toBe('session-end');
    run.stop();
  });
});
