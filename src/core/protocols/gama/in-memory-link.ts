/**
 * Two sans-IO endpoints of a text protocol joined in memory: what one sends, the other receives, in order,
 * as over a WebSocket. Deliveries are queued and drained in a loop, so a long conversation between
 * endpoints that answer at once does not grow the call stack.
 */
import type { SansIoEndpoint, WirePeer } from '../contract';

/** Options of a link. */
export interface InMemoryLinkOptions {
  /** Connection id given to both endpoints. */
  id: string;
  /** Every frame, as it is delivered. */
  onFrame?(dir: 'c2s' | 's2c', text: string): void;
  /** The connection closed: who closed it and why. */
  onClose?(by: 'client' | 'server', reason: string | undefined): void;
}

type Delivery = { to: 'client' | 'server'; text?: string; end?: string | undefined };

/** Runs one connection between a client and a server endpoint; resolves once it is closed. */
export function linkInMemory(
  client: SansIoEndpoint<string, string>,
  server: SansIoEndpoint<string, string>,
  options: InMemoryLinkOptions,
): Promise<void> {
  return new Promise((resolve) => {
    const queue: Delivery[] = [];
    let head = 0;
    let pumping = false;
    let closed = false;
    // Filled once both endpoints have accepted the connection; frames sent meanwhile wait in the queue.
    const peers: { server?: WirePeer<string>; client?: WirePeer<string> } = {};

    const pump = () => {
      if (pumping || !peers.server || !peers.client) return;
      pumping = true;
      while (head < queue.length) {
        const delivery = queue[head++]!;
        const peer = peers[delivery.to]!;
        if ('end' in delivery) peer.end(delivery.end);
        else peer.receive(delivery.text!);
      }
      queue.length = 0;
      head = 0;
      pumping = false;
    };
    const sinkOf = (from: 'client' | 'server') => ({
      send(text: string) {
        if (closed) return;
        options.onFrame?.(from === 'client' ? 'c2s' : 's2c', text);
        queue.push({ to: from === 'client' ? 'server' : 'client', text });
        pump();
      },
      close(reason?: string) {
        if (closed) return;
        closed = true;
        options.onClose?.(from, reason);
        queue.push({ to: from === 'client' ? 'server' : 'client', end: reason });
        pump();
        resolve();
      },
    });
    peers.server = server.connect(sinkOf('server'), { id: options.id });
    peers.client = client.connect(sinkOf('client'), { id: options.id });
    pump();
  });
}
