/**
 * Two tabs open on the same exercise store into the same keys, the later write winning. So that nobody
 * loses work without knowing it, each tab says when it stored its workspace (a BroadcastChannel per
 * exercise scope) and hears the others: a tab whose exercise was changed elsewhere tells its learner.
 */
import { storageScope } from './storage-scope';

let channel: BroadcastChannel | undefined;

function open(): BroadcastChannel | undefined {
  if (channel) return channel;
  if (typeof BroadcastChannel === 'undefined') return undefined;
  channel = new BroadcastChannel(`protoplay-workspace@${storageScope() ?? ''}`);
  return channel;
}

/** Tells the other tabs of this exercise that this one just stored its workspace. */
export function announceStored(): void {
  open()?.postMessage({ kind: 'stored' });
}

/** Calls `onChanged` whenever another tab of this exercise stores its workspace; returns the unsubscribe. */
export function watchOtherTabs(onChanged: () => void): () => void {
  const opened = open();
  if (!opened) return () => undefined;
  const listener = (event: MessageEvent) => {
    if ((event.data as { kind?: string } | null)?.kind === 'stored') onChanged();
  };
  opened.addEventListener('message', listener);
  return () => opened.removeEventListener('message', listener);
}
