/**
 * The part of the WebSocket API the bridge client uses. Browsers' `WebSocket` and Node's `ws` both have
 * it; the client takes the constructor as an option, so core needs neither the DOM nor Node typings and a
 * test on Node 20 (no global WebSocket) passes `ws`'s.
 */

/** What a message event carries: a string for text frames, an ArrayBuffer for binary ones. */
export interface SocketMessageEvent {
  data: unknown;
}

/** Why a WebSocket closed. */
export interface SocketCloseEvent {
  code: number;
  reason: string;
}

/** A WebSocket as the bridge client drives it. */
export interface BridgeSocket {
  /** Set to `arraybuffer` by the client. */
  binaryType: string;
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: SocketMessageEvent) => void): void;
  addEventListener(type: 'close', listener: (event: SocketCloseEvent) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
}

/** `WebSocket` in a browser; a subclass of `ws`'s `WebSocket` in Node (which can set the Origin header). */
export type BridgeSocketConstructor = new (url: string) => BridgeSocket;

/** The `readyState` of an open socket. */
export const SOCKET_OPEN = 1;
