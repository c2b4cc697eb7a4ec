/** Raw bytes over TCP, for tests of what an HTTP server does with a request as the client wrote it. */
import { connect } from 'node:net';

/**
 * Sends `bytes` on a new connection and sends nothing more: what came back (as latin1 text) once the
 * server closed it, or after `ms` if it did not.
 */
export async function rawExchange(
  port: number,
  bytes: string,
  ms = 5_000,
): Promise<{ text: string; closed: boolean }> {
  const socket = connect({ host: '127.0.0.1', port });
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(bytes);
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  socket.destroy();
  return { text, closed };
}
