import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import type { BridgeSocketConstructor } from '../../../src/core/bridge/bridge-socket';

describe('BridgeSocketConstructor', () => {
  it("is what browsers' WebSocket and ws's WebSocket are (checked by the compiler)", () => {
    const fromWs: BridgeSocketConstructor = WebSocket;
    const fromBrowser: BridgeSocketConstructor | undefined = (
      globalThis as { WebSocket?: typeof globalThis.WebSocket }
    ).WebSocket;
    expect(typeof fromWs).toBe('function');
    expect(fromBrowser === undefined || typeof fromBrowser === 'function').toBe(true);
  });
});
