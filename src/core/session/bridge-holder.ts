/**
 * The one connection to `protoplay bridge` the session worker keeps: connect, disconnect, its status as
 * plain data for the page, and the part of it a runner uses to play through the bridge. A newer
 * connection replaces an older one; statuses of a replaced connection are dropped.
 */
import { BridgeClient, type BridgeStatus } from '../bridge/bridge-client';
import { BridgeError, type PageSurroundings } from '../bridge/bridge-errors';
import type { BridgeAddress } from '../bridge/bridge-link';
import type { BridgeSocketConstructor } from '../bridge/bridge-socket';
import {
  DEFAULT_BRIDGE_SILENCE_MS,
  type BridgeAccess,
  type BridgeConnectionStatus,
  type BridgeRoute,
} from './bridge-route';

/** How the holder reaches a bridge. */
export interface BridgeHolderOptions {
  WebSocket: BridgeSocketConstructor;
  surroundings?: PageSurroundings;
  /** Receives every status change. */
  onStatus(status: BridgeConnectionStatus): void;
}

/** The client's status as the page shows it. */
export function statusForPage(url: string, status: BridgeStatus): BridgeConnectionStatus {
  switch (status.state) {
    case 'connected':
      return { state: 'connected', url, targets: [...status.targets], listens: [...status.listens] };
    case 'reconnecting':
      return { ...status, url };
    case 'closed':
      return status.error
        ? { state: 'closed', url, error: { code: status.error.code, message: status.error.message } }
        : { state: 'closed', url };
  }
}

/** Holds the worker's bridge connection. */
export class BridgeHolder {
  readonly #options: BridgeHolderOptions;
  #client: BridgeClient | undefined;
  /** Bumped by every connect and disconnect: an older attempt's outcome is dropped. */
  #generation = 0;

  constructor(options: BridgeHolderOptions) {
    this.#options = options;
  }

  /** Connects (closing any earlier connection); resolves with the status reached. */
  async connect(address: BridgeAddress): Promise<BridgeConnectionStatus> {
    this.disconnect();
    const generation = ++this.#generation;
    this.#report({ state: 'connecting', url: address.url });
    let client: BridgeClient;
    try {
      const { embedded, ...reach } = address;
      const surroundings = {
        ...this.#options.surroundings,
        ...(embedded !== undefined ? { embedded } : {}),
      };
      client = await BridgeClient.connect({ ...reach, WebSocket: this.#options.WebSocket, surroundings });
    } catch (error) {
      const failure =
        error instanceof BridgeError ? error : new BridgeError('bridge.unreachable', String(error));
      const status: BridgeConnectionStatus = {
        state: 'closed',
        url: address.url,
        error: { code: failure.code, message: failure.message },
      };
      if (generation === this.#generation) this.#report(status);
      return status;
    }
    if (generation !== this.#generation) {
      client.close();
      return { state: 'disconnected' };
    }
    this.#client = client;
    client.onStatus((status) => {
      if (this.#client === client) this.#report(statusForPage(address.url, status));
    });
    const status = statusForPage(address.url, client.status);
    this.#report(status);
    return status;
  }

  /** Leaves the bridge: every channel closes, and sessions through it end. */
  disconnect(): void {
    ++this.#generation;
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    client.close();
    this.#report({ state: 'disconnected' });
  }

  /** What runners use; throws a `BridgeError` saying so when no bridge is connected. */
  get access(): BridgeAccess {
    const client = this.#connected();
    return {
      connect: (target, endpoint) => client.connectEndpoint(target, endpoint),
      serve: (listen, endpoint) => client.serve(listen, endpoint),
      describe: (route: BridgeRoute) =>
        route.mode === 'outbound'
          ? client.targets.find((target) => target.name === route.target)?.url
          : client.listens.find((listen) => listen.name === route.listen)?.url,
      silenceMs: client.responseTimeoutMs ?? DEFAULT_BRIDGE_SILENCE_MS,
    };
  }

  #connected(): BridgeClient {
    const client = this.#client;
    if (!client || client.status.state !== 'connected')
      throw new BridgeError(
        'bridge.gone',
        'the page is not connected to a bridge: connect in the Connect panel first',
      );
    return client;
  }

  #report(status: BridgeConnectionStatus): void {
    this.#options.onStatus(status);
  }
}
