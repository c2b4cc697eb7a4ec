import { describe, expect, it } from 'vitest';
import { explainRefusal } from '../../../src/core/bridge/bridge-errors';
import { BridgeCloseCode } from '../../../src/core/bridge/control-protocol';

const url = 'ws://127.0.0.1:8787';

describe('explaining why the bridge cannot be used', () => {
  it("maps the bridge's refusals to what the learner should do", async () => {
    const token = await explainRefusal(url, { code: BridgeCloseCode.wrongToken, reason: 'wrong token' }, {});
    expect(token.code).toBe('bridge.token');
    const origin = await explainRefusal(
      url,
      {
        code: BridgeCloseCode.originNotAllowed,
        reason: 'origin https://x.org is not allowed (see --origin)',
      },
      { pageOrigin: 'https://x.org' },
    );
    expect(origin.code).toBe('bridge.origin');
    expect(origin.message).toMatch(/start it with --origin https:\/\/x\.org$/);
  });

  it("names Chrome's Local Network Access when the permission is denied", async () => {
    const error = await explainRefusal(url, undefined, {
      embedded: true,
      pageOrigin: 'https://course.example.org',
      localNetworkPermission: () => Promise.resolve('denied'),
    });
    expect(error.code).toBe('bridge.local-network-access');
    expect(error.message).toMatch(/refused this page access to the local network/);
    expect(error.message).toMatch(/allow="loopback-network" on its iframe$/);
  });

  it('mentions the iframe attribute when an embedded page cannot reach the bridge', async () => {
    const embedded = await explainRefusal(url, undefined, {
      embedded: true,
      pageOrigin: 'https://course.example.org',
      localNetworkPermission: () => Promise.reject(new Error('unknown permission name')),
    });
    expect(embedded.code).toBe('bridge.unreachable');
    expect(embedded.message).toMatch(/the iframe embedding the playground needs allow="loopback-network"$/);
    const local = await explainRefusal(url, undefined, {
      embedded: true,
      pageOrigin: 'http://localhost:4173',
    });
    expect(local.message).toBe(
      `cannot reach the bridge at ${url}: is protoplay bridge running? (it prints the link to open)`,
    );
  });
});
