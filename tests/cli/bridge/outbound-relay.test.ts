import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeClient } from '../../../src/core/bridge/bridge-client';
import {
  closeServer,
  connectPage,
  RecordingPeer,
  startBridge,
  startNulServer,
  target,
  type TestBridge,
} from './bridge-fixture';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp<T extends { close(): unknown }>(value: Promise<T>): Promise<T> {
  const resolved = await value;
  cleanups.push(() => resolved.close());
  return resolved;
}

describe('outbound TCP relay', () => {
  it('relays NUL-framed messages both ways', async () => {
    const nul = await startNulServer();
    cleanups.push(() => closeServer(nul.server));
    const bridge: TestBridge = await startBridge({ targets: [target('game', 'tcp', nul.port)] });
    cleanups.push(() => bridge.server.close());
    const page: BridgeClient = await setUp(connectPage(bridge));
    expect(page.targets).toEqual([{ name: 'game', transport: 'tcp', url: `tcp://127.0.0.1:${nul.port}` }]);
    const channel = await page.open('game');
    const peer = new RecordingPeer();
    channel.attach(peer);
    channel.send(new TextEncoder().encode('hello\0world\0'));
    await peer.until(() => peer.text() === 'ok:hello\0ok:world\0');
  });
});
