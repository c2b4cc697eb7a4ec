/**
 * Sessions played through `protoplay bridge`: a real server reached on one of the bridge's targets
 * (outbound), or real clients arriving on one of its listen ports and answered by the emulated host
 * (inbound). The session worker holds the one bridge connection and hands a runner what it needs of it;
 * the page sees the connection's status as plain data. Names no protocol.
 */
import type { BridgeChannel } from '../bridge/bridge-channel';
import type { BridgeErrorCode } from '../bridge/bridge-errors';
import type { ListenInfo, TargetInfo } from '../bridge/control-protocol';
import type { SansIoEndpoint, WireData } from '../protocols/contract';
import type {
  PlaygroundRunner,
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
} from '../protocols/session-contract';

/** Where a bridged session goes: a target to play against, or a listen port to answer on. */
export type BridgeRoute = { mode: 'outbound'; target: string } | { mode: 'inbound'; listen: string };

/** The bridge connection as the page shows it (plain data: it crosses from the worker as JSON). */
export type BridgeConnectionStatus =
  | { state: 'disconnected' }
  | { state: 'connecting'; url: string }
  | { state: 'connected'; url: string; targets: TargetInfo[]; listens: ListenInfo[] }
  | { state: 'reconnecting'; url: string; attempt: number; delayMs: number; reason: string }
  /** Closed by the page (no `error`), or given up on: `error` says why and what to do. */
  | { state: 'closed'; url: string; error?: { code: BridgeErrorCode; message: string } };

/** What a runner may use of the bridge connection. */
export interface BridgeAccess {
  /** Opens a channel to the target and connects the client endpoint to it. */
  connect(target: string, endpoint: SansIoEndpoint<WireData, WireData>): Promise<BridgeChannel>;
  /** Serves the listen port's connections with the host endpoint; returns the function that stops it. */
  serve(listen: string, endpoint: SansIoEndpoint<WireData, WireData>): () => void;
  /** The target's or listen port's address, for the transcript (`tcp://127.0.0.1:2323`). */
  describe(route: BridgeRoute): string | undefined;
  /**
   * How long a server that owes an answer may stay silent before the session ends as failed: the bridge's
   * `--response-timeout` when it says, else 30 s.
   */
  readonly silenceMs: number;
}

/** How long a peer owing an answer may be silent when the bridge does not say (`BridgeAccess.silenceMs`). */
export const DEFAULT_BRIDGE_SILENCE_MS = 30_000;

/** A runner that can also play through the bridge. */
export interface BridgedPlaygroundRunner extends PlaygroundRunner {
  startBridged(
    config: SessionConfig,
    route: BridgeRoute,
    services: PlaygroundServices,
    bridge: BridgeAccess,
  ): Promise<PlaygroundSession>;
}

/** Whether the runner plays through the bridge. */
export function isBridgedRunner(runner: PlaygroundRunner): runner is BridgedPlaygroundRunner {
  return typeof (runner as Partial<BridgedPlaygroundRunner>).startBridged === 'function';
}
