/**
 * One emulated connection in memory: a protocol's host and a client endpoint joined by a pipe that
 * records every message as it crosses, cut into messages by the protocol's framing. What the page's
 * emulated sessions and `protoplay run` play for a protocol with `endpoints`, with no socket in between.
 */
import { describeError } from '../errors';
import type { Protocol, SansIoEndpoint, StreamSplitter, WireData, WirePeer } from '../protocols/contract';
import type { Direction } from '../transcript/model';
import type { TranscriptRecorder } from '../transcript/recorder';

/** Options of `playInMemory`. */
export interface InMemoryPlayOptions {
  protocol: Protocol;
  host: SansIoEndpoint;
  /** The client, driven (its decisions answered: see `driveClient`). */
  client: SansIoEndpoint;
  recorder: TranscriptRecorder;
  /** The connection's id in the transcript (default `agent-1`). */
  connection?: string;
}

/** A connection under way. */
export interface InMemoryPlay {
  /** Settles once both sides have closed (or the play was stopped). */
  readonly done: Promise<void>;
  /** Ends the connection now, for both sides; what was recorded stays, and nothing more is. */
  stop(reason: string): void;
}

/** Records one direction's data as messages. */
type DirectionRecorder = (data: WireData) => void;

/** Joins host and client and starts the conversation (the host speaks first when its protocol says so). */
export function playInMemory(options: InMemoryPlayOptions): InMemoryPlay {
  const { protocol, recorder } = options;
  const conn = options.connection ?? 'agent-1';
  const transport = protocol.transport;
  if (transport.kind === 'http')
    throw new Error(`${protocol.label} talks HTTP: in-memory play needs a stream or frames`);
  const directionRecorder = (dir: Direction): DirectionRecorder => {
    if (transport.kind === 'websocket')
      return (data) => {
        const text = String(data as string);
        recorder.text(conn, dir, text, 'frame', transport.channelOf?.(text, dir) || undefined);
      };
    const splitter: StreamSplitter = transport.framing.splitter(dir);
    return (data) => {
      for (const frame of splitter.push(data as Uint8Array))
        recorder.bytes(conn, dir, frame.bytes.slice(), frame.framing);
    };
  };
  const record: Record<Direction, DirectionRecorder> = {
    c2s: directionRecorder('c2s'),
    s2c: directionRecorder('s2c'),
  };

  const queue: (() => void)[] = [];
  let pumping = false;
  const pump = () => {
    if (pumping) return;
    pumping = true;
    queueMicrotask(() => {
      while (queue.length > 0) queue.shift()!();
      pumping = false;
    });
  };
  const later = (action: () => void) => {
    queue.push(action);
    pump();
  };

  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const open: Record<Direction, boolean> = { c2s: true, s2c: true };
  // Both peers are only reached from deliveries, which run after both exist (see `later`).
  const peers: { host?: WirePeer; client?: WirePeer } = {};
  /** Peers told the connection ended: each exactly once, as a socket's close reaches both ends. */
  const told = { host: false, client: false };
  const tell = (side: 'host' | 'client', reason: string | undefined) => {
    if (told[side]) return;
    told[side] = true;
    guarded(side === 'host' ? 's2c' : 'c2s', () => peers[side]?.end(reason));
  };
  const closed = (dir: Direction, reason: string | undefined) => {
    if (!open[dir]) return;
    open[dir] = false;
    recorder.event(conn, dir, 'close', reason);
    // The other side learns of the close after whatever was sent before it. A host answers at once; a
    // driven client may still be deciding (it holds the close until then) and closes its side itself.
    later(() => {
      if (dir === 'c2s') {
        tell('host', reason);
        if (open.s2c) {
          open.s2c = false;
          recorder.event(conn, 's2c', 'close', reason);
        }
      } else tell('client', reason);
      if (open.c2s || open.s2c) return;
      // The connection is over for both ends (a transport tells both when the socket closes).
      tell('host', undefined);
      tell('client', undefined);
      finish();
    });
  };
  /** A side that throws closes its connection, with the error recorded. */
  const guarded = (dir: Direction, action: () => void) => {
    try {
      action();
    } catch (error) {
      recorder.annotate('error', {
        source: dir === 'c2s' ? 'client' : 'host',
        message: describeError(error),
      });
      closed(dir, describeError(error));
    }
  };

  recorder.event(conn, 'c2s', 'open');
  peers.host = options.host.connect(
    {
      send: (data) => {
        if (!open.s2c) return;
        record.s2c(data);
        later(() => guarded('c2s', () => peers.client?.receive(data)));
      },
      close: (reason) => closed('s2c', reason),
    },
    { id: conn },
  );
  peers.client = options.client.connect(
    {
      send: (data) => {
        if (!open.c2s) return;
        record.c2s(data);
        later(() => guarded('s2c', () => peers.host?.receive(data)));
      },
      close: (reason) => closed('c2s', reason),
    },
    { id: conn },
  );
  return {
    done,
    stop(reason) {
      queue.length = 0;
      for (const dir of ['c2s', 's2c'] as const) {
        if (!open[dir]) continue;
        open[dir] = false;
        recorder.event(conn, dir, 'close', reason);
      }
      tell('host', reason);
      tell('client', reason);
      finish();
    },
  };
}
