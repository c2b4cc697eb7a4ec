/**
 * Listening and reporting the bound address, the same for every protocol's TCP server.
 */
import type { Server } from 'node:net';
import { describeError } from '../../src/core/errors';

/**
 * Starts `server` listening; rejects with the socket error (address in use...) when it cannot. Later
 * server errors go to `log` instead of crashing the process.
 */
export async function listen(
  server: Server,
  port: number,
  host: string,
  log: (line: string) => void,
): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log(`server error: ${describeError(error)}`));
}

/** The address and port `server` is bound to (the asked ones when it is not listening). */
export function boundAddress(
  server: Server,
  asked: { host: string; port: number },
): { host: string; port: number } {
  const address = server.address();
  if (address === null || typeof address === 'string') return { host: asked.host, port: asked.port };
  return { host: address.address, port: address.port };
}
