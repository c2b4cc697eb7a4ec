/**
 * A run that answers real clients on one of the bridge's listen ports: it serves an endpoint there, keeps
 * the bridge channels of the connections not yet ended, and closes them all when the run stops (the
 * bridge would otherwise hold them open for clients the page no longer answers). Names no protocol.
 */
import type { SansIoEndpoint, WireData, WireSink } from '../protocols/contract';
import { describeError } from '../errors';
import type { BridgeAccess } from './bridge-route';

/** How a listener hands the bridge's data to the endpoint it serves. */
export interface BridgeListenerOptions<In extends WireData> {
  /** What arrives, as the endpoint takes it (text to bytes for a TCP host...). */
  decode: (data: WireData) => In;
  /** Called after each message sent or received and each connection ended (the transcript grew). */
  onActivity?: () => void;
}

/** Serves one listen port of the bridge. */
export class BridgeListener {
  readonly #bridge: BridgeAccess;
  readonly #listen: string;
  /** The listen port's address for the transcript, or the port's name when the bridge does not say. */
  readonly address: string;
  readonly #open = new Set<WireSink<WireData>>();
  #stopServing: (() => void) | undefined;

  constructor(bridge: BridgeAccess, listen: string) {
    this.#bridge = bridge;
    this.#listen = listen;
    this.address = bridge.describe({ mode: 'inbound', listen }) ?? listen;
  }

  /** Starts serving the endpoint; returns why the port cannot be answered, or undefined once it is. */
  serve<In extends WireData, Out extends WireData>(
    endpoint: SansIoEndpoint<In, Out>,
    { decode, onActivity = () => undefined }: BridgeListenerOptions<In>,
  ): string | undefined {
    const open = this.#open;
    const served: SansIoEndpoint<WireData, WireData> = {
      connect: (sink, connection) => {
        open.add(sink);
        const peer = endpoint.connect(
          {
            send: (data) => {
              sink.send(data);
              onActivity();
            },
            close: (reason) => {
              open.delete(sink);
              sink.close(reason);
            },
          },
          connection,
        );
        return {
          receive: (data) => {
            peer.receive(decode(data));
            onActivity();
          },
          end: (reason) => {
            open.delete(sink);
            peer.end(reason);
            onActivity();
          },
        };
      },
    };
    try {
      this.#stopServing = this.#bridge.serve(this.#listen, served);
      return undefined;
    } catch (error) {
      return `cannot answer the bridge's listen port '${this.#listen}': ${describeError(error)}`;
    }
  }

  /** Stops taking new connections; those open stay open. */
  stopServing(): void {
    this.#stopServing?.();
    this.#stopServing = undefined;
  }

  /** Stops serving the port and closes every connection still open. */
  close(): void {
    this.stopServing();
    for (const sink of [...this.#open]) sink.close('the page stopped answering');
    this.#open.clear();
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bridge's data as bytes (a TCP host's input). */
export function wireBytes(data: WireData): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : (data as Uint8Array);
}

/** The bridge's data as text (a WebSocket host's input). */
export function wireText(data: WireData): string {
  return typeof data === 'string' ? data : decoder.decode(data as Uint8Array);
}
