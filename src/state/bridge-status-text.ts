/**
 * What the Connect panel says about the bridge connection: one line for its state, and the advice when
 * it closed on an error. Pure, so it is tested without a page.
 */
import type { BridgeConnectionStatus } from '../core/session/bridge-route';

/** The status line of the Connect panel. */
export function bridgeStatusText(status: BridgeConnectionStatus): string {
  switch (status.state) {
    case 'disconnected':
      return 'not connected';
    case 'connecting':
      return `connecting to ${status.url}…`;
    case 'connected': {
      const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
      return `connected to ${status.url} (${counted(status.targets.length, 'target')}, ${counted(status.listens.length, 'listen port')})`;
    }
    case 'reconnecting':
      return `reconnecting to ${status.url} (attempt ${status.attempt}, in ${formatDelay(status.delayMs)}): ${status.reason}`;
    case 'closed':
      return status.error ? `closed: ${status.error.message}` : `closed`;
  }
}

/** `250 ms`, `2 s`. */
function formatDelay(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** Whether runs can go through the bridge now. */
export function bridgeUsable(status: BridgeConnectionStatus): boolean {
  return status.state === 'connected';
}
