import { describe, expect, it } from 'vitest';
import { bridgeLink, readBridgeLink } from '../../../src/core/bridge/bridge-link';

describe('bridge links', () => {
  it('carry the address and token in the fragment, keeping other fragment options', () => {
    const link = bridgeLink('http://localhost:4173/', { url: 'ws://127.0.0.1:8787', token: 'a_b-c' });
    expect(link).toBe('http://localhost:4173/#bridge=ws://127.0.0.1:8787&token=a_b-c');
    expect(readBridgeLink(new URL(link).hash)).toEqual({ url: 'ws://127.0.0.1:8787', token: 'a_b-c' });
    const embedded = bridgeLink('https://x.org/play#embed=1', { url: 'ws://127.0.0.1:9000', token: 't' });
    expect(embedded).toBe('https://x.org/play#embed=1&bridge=ws://127.0.0.1:9000&token=t');
    expect(readBridgeLink(embedded.slice(embedded.indexOf('#')))).toEqual({
      url: 'ws://127.0.0.1:9000',
      token: 't',
    });
  });

  it('name no bridge when a part is missing or the address is not a WebSocket server', () => {
    expect(readBridgeLink('')).toBeUndefined();
    expect(readBridgeLink('#bridge=ws://127.0.0.1:8787')).toBeUndefined();
    expect(readBridgeLink('#token=t')).toBeUndefined();
    expect(readBridgeLink('#bridge=javascript:alert(1)&token=t')).toBeUndefined();
    expect(readBridgeLink('#bridge=ws://127.0.0.1:8787/x/y&token=t')).toBeUndefined();
    expect(readBridgeLink('#bridge=ws://127.0.0.1:8787&token=%E0%A4%A')).toEqual({
      url: 'ws://127.0.0.1:8787',
      token: '%E0%A4%A',
    });
  });
});
