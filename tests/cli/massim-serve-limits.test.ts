/**
 * `protoplay serve massim` against agents that would make a server hold what they send: one that never
 * ends its frame is dropped once past --max-frame-bytes (the host never buffers it), and the server goes on
 * serving everyone else.
 */
import { describe, expect, it } from 'vitest';
import { RawAgent, startServe } from './massim-tcp';

describe('serve massim limits', () => {
  it('drops an agent that sends more than --max-frame-bytes without a 0 byte, and serves the others', async () => {
    const serve = await startServe(['--agents', '2', '--steps', '4', '--max-frame-bytes', '65536']);
    const flooder = await RawAgent.open(serve.port);
    expect(await flooder.login('agentA1')).toBe('ok');
    // 1 MiB of one never-ending frame, as in a memory attack (the real server would hold none of it either).
    flooder.socket.write(Buffer.alloc(1024 * 1024, 'x'));
    await flooder.untilClosed();
    await serve.waitFor(
      /agentA1\.conn1: sent more than 64 KiB without ending a message; dropping the connection/,
    );
    await serve.waitFor(/agentA1 disconnected \(agentA1\.conn1\)/);
    const other = await RawAgent.open(serve.port);
    expect(await other.login('agentA2')).toBe('ok');
    other.close();
    serve.interrupt();
    expect((await serve.done).code).toBe(130);
  });
});
