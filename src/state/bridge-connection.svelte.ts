/**
 * The page's connection to `protoplay bridge`, as the Connect panel edits and shows it: the bridge's
 * address and token (from the `#bridge=...&token=...` link the bridge prints), the live status, and where
 * runs go: the emulated server (the default), a target of the bridge (the policy plays a real server), or
 * a listen port (real clients play the emulated server). The connection itself lives in the session
 * worker, beside the sessions that use it.
 */
import { readBridgeLink } from '../core/bridge/bridge-link';
import type { BridgeConnectionStatus, BridgeRoute } from '../core/session/bridge-route';
import type { Session } from './session.svelte';

/** Where runs go. */
export type BridgeMode = 'emulated' | 'outbound' | 'inbound';

/** The Connect panel's state. */
export class BridgeConnection {
  url = $state('ws://127.0.0.1:8787');
  token = $state('');
  status = $state.raw<BridgeConnectionStatus>({ state: 'disconnected' });
  mode = $state<BridgeMode>('emulated');
  /** The target picked for outbound runs. */
  target = $state('');
  /** The listen port picked for inbound runs. */
  listen = $state('');
  /** Set when the page was opened with a bridge link. */
  readonly fromLink: boolean;

  readonly #session: Session;

  constructor(session: Session, fragment: string) {
    this.#session = session;
    const address = readBridgeLink(fragment);
    this.fromLink = address !== undefined;
    if (address) {
      this.url = address.url;
      this.token = address.token;
    }
    session.bridgeRoute = () => this.route;
  }

  get connected(): boolean {
    return this.status.state === 'connected';
  }

  /** Where the next run goes through the bridge; undefined for the emulated server. */
  get route(): BridgeRoute | undefined {
    if (this.status.state !== 'connected') return undefined;
    if (this.mode === 'outbound' && this.target) return { mode: 'outbound', target: this.target };
    if (this.mode === 'inbound' && this.listen) return { mode: 'inbound', listen: this.listen };
    return undefined;
  }

  /** Connects with the address and token shown; the status follows every change. */
  async connect(): Promise<void> {
    const url = this.url.trim();
    if (!/^wss?:\/\/[^/\s]+\/?$/.test(url)) {
      this.status = {
        state: 'closed',
        url,
        error: {
          code: 'bridge.unreachable',
          message: `'${url}' is not a bridge address: it looks like ws://127.0.0.1:8787 (protoplay bridge prints it)`,
        },
      };
      return;
    }
    this.status = { state: 'connecting', url };
    const embedded = typeof window !== 'undefined' && window.self !== window.top;
    const address = { url, token: this.token.trim(), embedded };
    const reached = await this.#session.connectBridge(address, (status) => this.#show(status));
    // The statuses came on the way; this one matters only if none did.
    if (this.status.state === 'connecting') this.#show(reached);
  }

  disconnect(): void {
    this.#session.disconnectBridge();
    this.mode = 'emulated';
    this.status = { state: 'disconnected' };
  }

  #show(status: BridgeConnectionStatus): void {
    this.status = status;
    if (status.state !== 'connected') return;
    // Keep the picks that still exist; otherwise pick the first (a bridge with one target needs no choice).
    if (!status.targets.some((target) => target.name === this.target))
      this.target = status.targets[0]?.name ?? '';
    if (!status.listens.some((listen) => listen.name === this.listen))
      this.listen = status.listens[0]?.name ?? '';
  }
}
