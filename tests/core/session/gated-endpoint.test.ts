import { describe, expect, it } from 'vitest';
import { TurnGate } from '../../../src/core/policy/turn-gate';
import type { SansIoEndpoint } from '../../../src/core/protocols/contract';
import { gatedEndpoint } from '../../../src/core/session/gated-endpoint';

/** An endpoint noting what reached it. */
function noting(seen: string[]): SansIoEndpoint<string, string> {
  return {
    connect: (_sink, connection) => ({
      receive: (text) => void seen.push(`${connection.id} ${text}`),
      end: () => void seen.push(`${connection.id} end`),
    }),
  };
}

const sink = { send: () => undefined, close: () => undefined };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('gatedEndpoint', () => {
  it('holds what arrives while paused, lets one piece through per step, all on resume, in order', async () => {
    const seen: string[] = [];
    const gate = new TurnGate({ delayMs: 0, startPaused: true });
    const peer = gatedEndpoint(noting(seen), gate).connect(sink, { id: 'a' });
    peer.receive('one');
    peer.receive('two');
    peer.receive('three');
    peer.end();
    await settle();
    expect(seen).toEqual([]);
    gate.step();
    await expect.poll(() => seen).toEqual(['a one']);
    await settle();
    expect(seen).toEqual(['a one']);
    gate.resume();
    await expect.poll(() => seen).toEqual(['a one', 'a two', 'a three', 'a end']);
  });

  it('drops what still waits once stopped, but still tells the endpoint the connection ended', async () => {
    const seen: string[] = [];
    const gate = new TurnGate({ delayMs: 0, startPaused: true });
    const peer = gatedEndpoint(noting(seen), gate).connect(sink, { id: 'b' });
    peer.receive('held');
    peer.end('gone');
    gate.stop();
    await expect.poll(() => seen).toEqual(['b end']);
  });

  it('closes only the connection whose endpoint throws', async () => {
    const closed: string[] = [];
    const seen: string[] = [];
    const gate = new TurnGate({ delayMs: 0, startPaused: false });
    const endpoint = gatedEndpoint<string, string>(
      {
        connect: (_sink, connection) => ({
          receive: (text) => {
            if (text === 'bad') throw new Error('broken');
            seen.push(`${connection.id} ${text}`);
          },
          end: () => undefined,
        }),
      },
      gate,
    );
    const bad = endpoint.connect(
      { send: () => undefined, close: (reason) => void closed.push(reason ?? '') },
      { id: 'x' },
    );
    const good = endpoint.connect(sink, { id: 'y' });
    bad.receive('bad');
    good.receive('fine');
    await expect.poll(() => seen).toEqual(['y fine']);
    expect(closed).toEqual(['internal error: Error: broken']);
  });
});
