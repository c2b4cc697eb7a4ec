/**
 * The session worker's bridge connection against a real in-process bridge: statuses as the Connect panel
 * shows them, a wrong token refused with its advice, the access runners use, and a disconnect.
 */
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BridgeHolder } from '../../../src/core/session/bridge-holder';
import type { BridgeConnectionStatus } from '../../../src/core/session/bridge-route';
import { bridgeStatusText } from '../../../src/state/bridge-status-text';
import { afterTest } from '../../cli/bridge/cleanup';
import {
  PAGE_ORIGIN,
  RecordingPeer,
  socketFrom,
  startBridge,
  startNulServer,
  target,
  TOKEN,
} from '../../cli/bridge/bridge-fixture';

function holder(statuses: BridgeConnectionStatus[]): BridgeHolder {
  return new BridgeHolder({
    WebSocket: socketFrom(PAGE_ORIGIN),
    onStatus: (status) => statuses.push(status),
  });
}

describe('BridgeHolder', () => {
  it('connects, lists targets and listen ports, opens a target for a runner, and disconnects', async () => {
    const nul = await startNulServer((message, socket) => {
      socket.write(`echo ${message}\0`);
      return true;
    });
    afterTest(() => nul.close());
    const bridge = await startBridge({ targets: [target('game', 'tcp', nul.port)] });
    afterTest(() => bridge.server.close());
    const statuses: BridgeConnectionStatus[] = [];
    const held = holder(statuses);
    afterTest(() => held.disconnect());

    const reached = await held.connect({ url: bridge.server.url, token: TOKEN });
    expect(reached.state).toBe('connected');
    expect(statuses.map((status) => status.state)).toEqual(['connecting', 'connected']);
    expect(bridgeStatusText(reached)).toBe(`connected to ${bridge.server.url} (1 target, 0 listen ports)`);
    const access = held.access;
    expect(access.describe({ mode: 'outbound', target: 'game' })).toBe(`tcp://127.0.0.1:${nul.port}`);

    const peer = new RecordingPeer();
    const channel = await access.connect('game', { connect: () => peer });
    channel.send('hi\0');
    await peer.until(() => peer.text().includes('echo hi'));

    held.disconnect();
    expect(statuses.at(-1)).toEqual({ state: 'disconnected' });
    expect(await channel.ended).toBe('the page closed the bridge connection');
    expect(() => held.access).toThrow(/not connected to a bridge: connect in the Connect panel first/);
  });

  it('reports a wrong token as closed, with the advice the client gives', async () => {
    const bridge = await startBridge();
    afterTest(() => bridge.server.close());
    const statuses: BridgeConnectionStatus[] = [];
    const reached = await holder(statuses).connect({ url: bridge.server.url, token: 'wrong' });
    expect(reached).toMatchObject({ state: 'closed', error: { code: 'bridge.token' } });
    expect(bridgeStatusText(reached)).toMatch(
      /^closed: the bridge at .* refused the token: open the link protoplay bridge printed/,
    );
    expect(statuses.at(-1)).toEqual(reached);
  });
});

describe('BridgeHolder on a page embedded in another site', () => {
  /** A loopback port nothing listens on (the kernel picked it, and it was closed again). */
  async function closedPort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((listening) => probe.listen(0, '127.0.0.1', listening));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((closed) => probe.close(() => closed()));
    return port;
  }

  for (const embedded of [true, false])
    it(`an unreachable bridge ${embedded ? 'names' : 'does not name'} the iframe's allow="loopback-network" when the page says it is ${embedded ? '' : 'not '}embedded`, async () => {
      const statuses: BridgeConnectionStatus[] = [];
      const held = new BridgeHolder({
        WebSocket: socketFrom('https://course.example.org'),
        surroundings: { pageOrigin: 'https://course.example.org' },
        onStatus: (status) => statuses.push(status),
      });
      const url = `ws://127.0.0.1:${await closedPort()}`;
      const reached = await held.connect({ url, token: TOKEN, embedded });
      expect(reached).toMatchObject({ state: 'closed', error: { code: 'bridge.unreachable' } });
      const message = reached.state === 'closed' ? (reached.error?.message ?? '') : '';
      expect(message).toContain('is protoplay bridge running?');
      if (embedded) expect(message).toContain('allow="loopback-network"');
      else expect(message).not.toContain('loopback-network');
    });
});

describe('bridgeStatusText', () => {
  it('says a reconnection attempt, its delay and its reason', () => {
    expect(
      bridgeStatusText({
        state: 'reconnecting',
        url: 'ws://127.0.0.1:8787',
        attempt: 3,
        delayMs: 1000,
        reason: 'the connection to the bridge was lost (1006)',
      }),
    ).toBe(
      'reconnecting to ws://127.0.0.1:8787 (attempt 3, in 1 s): the connection to the bridge was lost (1006)',
    );
    expect(bridgeStatusText({ state: 'disconnected' })).toBe('not connected');
  });
});
