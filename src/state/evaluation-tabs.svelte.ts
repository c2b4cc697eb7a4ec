/**
 * Other tabs of the page as Compare baselines: every tab answers, on a BroadcastChannel, with the code it
 * would evaluate now (its protocol's current policy), so Compare in one tab can play another tab's code
 * against its own on the same seeds. A tab asks when its Evaluate panel opens or the list is focused,
 * announces itself when it opens, and says goodbye when it closes. The channel is in the exercise's
 * storage scope, so two embedded exercises never see each other's code.
 */
import type { EvaluatedPolicySource } from '../core/protocols/evaluation-contract';
import { scopedKey } from '../storage/storage-scope';

/** What a tab would evaluate now. */
export interface TabCode {
  protocol: string;
  source: EvaluatedPolicySource;
}

/** Another tab's current code. */
export interface PeerTab extends TabCode {
  id: string;
  /** `the tab opened at 12:03:05`. */
  label: string;
}

type TabMessage =
  | { kind: 'ask'; from: string }
  | { kind: 'code'; from: string; opened: number; code: TabCode | undefined }
  | { kind: 'bye'; from: string };

/** This tab on the channel, and the other tabs it has heard from. */
export class EvaluationTabs {
  readonly id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  readonly #opened = Date.now();
  #channel: BroadcastChannel | undefined;
  #current: (() => TabCode | undefined) | undefined;
  /** Callers of `latest`, by the tab they wait for. */
  #waiters: { wake: () => void; id: string }[] = [];
  /** Other tabs' code, newest answer of each. */
  peers = $state<PeerTab[]>([]);

  /** Joins the channel (no-op where BroadcastChannel does not exist) and tells the others. */
  open(): void {
    if (this.#channel || typeof BroadcastChannel === 'undefined') return;
    this.#channel = new BroadcastChannel(scopedKey('protoplay:evaluation-tabs'));
    this.#channel.onmessage = (event: MessageEvent<TabMessage>) => this.#receive(event.data);
    this.#announce();
    this.ask();
    globalThis.addEventListener?.('pagehide', () => this.#post({ kind: 'bye', from: this.id }));
  }

  /** Leaves the channel, saying goodbye. */
  close(): void {
    this.#post({ kind: 'bye', from: this.id });
    this.#channel?.close();
    this.#channel = undefined;
  }

  /** Says what this tab would evaluate (its page calls it once it knows). */
  provide(current: () => TabCode | undefined): void {
    this.#current = current;
    this.open();
    this.#announce();
  }

  /** Asks every other tab for its code now. */
  ask(): void {
    this.#post({ kind: 'ask', from: this.id });
  }

  /**
   * Another tab's code as it is now: asks again and waits for its answer (at most `waitMs`; then the last
   * answer heard, or undefined when the tab has gone).
   */
  latest(id: string, waitMs = 1000): Promise<PeerTab | undefined> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters = this.#waiters.filter((waiter) => waiter.wake !== done);
        resolve(this.peers.find((peer) => peer.id === id));
      };
      const timer = setTimeout(done, waitMs);
      this.#waiters.push({ wake: done, id });
      this.ask();
    });
  }

  /** The other tabs playing `protocol`. */
  peersOf(protocol: string): PeerTab[] {
    return this.peers.filter((peer) => peer.protocol === protocol);
  }

  #announce(): void {
    let code: TabCode | undefined;
    try {
      code = this.#current?.();
    } catch {
      code = undefined;
    }
    this.#post({ kind: 'code', from: this.id, opened: this.#opened, code });
  }

  #receive(message: TabMessage): void {
    if (!message || message.from === this.id) return;
    if (message.kind === 'ask') this.#announce();
    else if (message.kind === 'bye') this.peers = this.peers.filter((peer) => peer.id !== message.from);
    else if (message.kind === 'code') {
      const others = this.peers.filter((peer) => peer.id !== message.from);
      const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(message.opened);
      this.peers = message.code
        ? [...others, { ...message.code, id: message.from, label: `the tab opened at ${time}` }]
        : others;
    }
    if (message.kind !== 'ask')
      for (const waiter of [...this.#waiters]) if (waiter.id === message.from) waiter.wake();
  }

  #post(message: TabMessage): void {
    try {
      this.#channel?.postMessage(message);
    } catch {
      // A closed channel (the page is going away): nothing to tell.
    }
  }
}
