/**
 * Real clients connect to the bridge's listen ports; the page serves them with a sans-IO host through the
 * client: a scripted TCP agent, an HTTP client, a WebSocket client.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SansIoEndpoint, WireData } from '../../../src/core/protocols/contract';
import type { BridgeLimits, ListenSpec } from '../../../cli/bridge/bridge-config';
import { afterTest } from './cleanup';
import { connectPage, startBridge } from './bridge-fixture';

const listen = (name: string, transport: ListenSpec['transport'], path = ''): ListenSpec => ({
  name,
  transport,
  host: '127.0.0.1',
  port: 0,
  path,
});

async function bridgeListening(...listens: ListenSpec[]) {
  return bridgeListeningWith({}, ...listens);
}

async function bridgeListeningWith(limits: Partial<BridgeLimits>, ...listens: ListenSpec[]) {
  const bridge = await startBridge({ listens, limits });
  afterTest(() => bridge.server.close());
  const port = (name: string) =>
    Number(new URL(bridge.server.listens.find((l) => l.name === name)!.url).port);
  return { bridge, port };
}

/** An emulated server that answers each NUL-terminated message with `hi <message>`, and notes who came. */
function nulHost(remotes: string[]): SansIoEndpoint<WireData, WireData> {
  return {
    connect(sink, connection) {
      remotes.push(connection.remote ?? '?');
      let pending = '';
      return {
        receive(data) {
          pending += new TextDecoder().decode(data as Uint8Array);
          let end: number;
          while ((end = pending.indexOf('\0')) >= 0) {
            const message = pending.slice(0, end);
            pending = pending.slice(end + 1);
            if (message === 'bye') sink.close('bye');
            else sink.send(new TextEncoder().encode(`hi ${message}\0`));
          }
        },
        end() {},
      };
    },
  };
}

/** A scripted TCP client: sends `messages`, returns everything it read until the server closed. */
async function tcpAgent(port: number, messages: string[]): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  for (const message of messages) socket.write(`${message}\0`);
  await once(socket, 'close');
  return received;
}

describe('listen ports', () => {
  it('hands a TCP agent to the page, whose emulated server answers it', async () => {
    const { bridge, port } = await bridgeListening(listen('massim', 'tcp'));
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    expect(page.listens.map((l) => [l.name, l.transport])).toEqual([['massim', 'tcp']]);
    const remotes: string[] = [];
    page.serve('massim', nulHost(remotes));
    const replies = await tcpAgent(port('massim'), ['agentA1', 'step 1', 'bye']);
    expect(replies).toBe('hi agentA1\0hi step 1\0');
    expect(remotes).toEqual([expect.stringMatching(/^127\.0\.0\.1:\d+$/)]);
  });

  it('serves several agents at once, each on its own channel', async () => {
    const { bridge, port } = await bridgeListening(listen('massim', 'tcp'));
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    const remotes: string[] = [];
    page.serve('massim', nulHost(remotes));
    const agents = ['agentA1', 'agentA2', 'agentB1', 'agentB2'];
    const replies = await Promise.all(agents.map((name) => tcpAgent(port('massim'), [name, 'bye'])));
    expect(replies).toEqual(agents.map((name) => `hi ${name}\0`));
    expect(new Set(remotes).size).toBe(4);
  });

  it('passes HTTP requests to the page and its responses back', async () => {
    const { bridge, port } = await bridgeListening(listen('aisys', 'http'));
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    page.serve('aisys', {
      connect(sink) {
        return {
          receive(data) {
            const request = data as { meta: { method?: string; path?: string }; body: string };
            sink.send({
              meta: { status: 200, headers: { 'content-type': 'application/json' } },
              body: JSON.stringify({
                method: request.meta.method,
                path: request.meta.path,
                got: request.body,
              }),
            });
          },
          end() {},
        };
      },
    });
    const response = await fetch(`http://127.0.0.1:${port('aisys')}/act/nim?run=1`, {
      method: 'PUT',
      body: '{"action":3}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ method: 'PUT', path: '/act/nim?run=1', got: '{"action":3}' });
  });

  it('passes WebSocket frames to the page and its frames back', async () => {
    const { bridge, port } = await bridgeListening(listen('gama', 'websocket'));
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    page.serve('gama', {
      connect(sink) {
        return { receive: (data) => sink.send(`page saw ${String(data)}`), end() {} };
      },
    });
    const socket = new WebSocket(`ws://127.0.0.1:${port('gama')}/`);
    afterTest(() => socket.terminate());
    await once(socket, 'open');
    socket.send('{"type":"join"}');
    const [reply] = (await once(socket, 'message')) as [Buffer];
    expect(reply.toString()).toBe('page saw {"type":"join"}');
  });

  it('refuses connections while no page is connected, or when the page serves nothing there', async () => {
    const { bridge, port } = await bridgeListening(listen('massim', 'tcp'), listen('aisys', 'http'));
    expect(await tcpAgent(port('massim'), ['agentA1'])).toBe('');
    const response = await fetch(`http://127.0.0.1:${port('aisys')}/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toMatch(/no page is connected/);
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    expect(await tcpAgent(port('massim'), ['agentA1'])).toBe('');
    expect(bridge.log.join('\n')).toMatch(/refused 127\.0\.0\.1:\d+: no page is connected/);
  });

  it('answers 504 when the page gives no response in time, and 413 to a body over the cap', async () => {
    const { bridge, port } = await bridgeListeningWith(
      { responseTimeoutMs: 200, httpBodyBytes: 100 },
      listen('aisys', 'http'),
    );
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    page.serve('aisys', { connect: () => ({ receive() {}, end() {} }) });
    const silent = await fetch(`http://127.0.0.1:${port('aisys')}/agents`);
    expect(silent.status).toBe(504);
    expect(await silent.text()).toBe('the page gave no response within 200 ms\n');
    const big = await fetch(`http://127.0.0.1:${port('aisys')}/act`, {
      method: 'PUT',
      body: 'x'.repeat(101),
    });
    expect(big.status).toBe(413);
    expect(await big.text()).toBe('the body is over the 100 bytes HTTP body cap\n');
  });
});
