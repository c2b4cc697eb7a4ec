/**
 * Records what a sans-IO endpoint's connections carry, cut into messages by the protocol's framing: the
 * command line's generic `serve` and `connect` wrap the protocol's host or driven client in it, so every
 * session is a transcript whatever the protocol.
 */
import type { Protocol, SansIoEndpoint, StreamSplitter, WireData, WirePeer } from '../protocols/contract';
import type { Direction } from '../transcript/model';
import type { TranscriptRecorder } from '../transcript/recorder';

/** Options of `recordingEndpoint`. */
export interface RecordingOptions {
  protocol: Protocol;
  /** Which side the endpoint plays: a host receives what clients send (`c2s`). */
  side: 'host' | 'client';
  /** The recorder of a new connection (one per connection, or one shared). */
  recorderFor(connection: { id: string; remote?: string }): TranscriptRecorder;
  /** The connection ended, either side closing first; `reason` when it was not a plain close. */
  onEnd?(connection: { id: string; remote?: string }, reason: string | undefined): void;
}

/** Records one direction's data on one connection. */
function directionRecorder(
  protocol: Protocol,
  recorder: TranscriptRecorder,
  conn: string,
  dir: Direction,
): (data: WireData) => void {
  const transport = protocol.transport;
  if (transport.kind === 'http')
    throw new Error(`${protocol.label} talks HTTP: record its exchanges instead`);
  if (transport.kind === 'websocket') return (data) => recorder.text(conn, dir, String(data), 'frame');
  const splitter: StreamSplitter = transport.framing.splitter(dir);
  return (data) => {
    for (const frame of splitter.push(data as Uint8Array))
      recorder.bytes(conn, dir, frame.bytes.slice(), frame.framing);
  };
}

/** The endpoint, recording every connection. */
export function recordingEndpoint<In extends WireData, Out extends WireData>(
  endpoint: SansIoEndpoint<In, Out>,
  options: RecordingOptions,
): SansIoEndpoint<In, Out> {
  const [inbound, outbound]: [Direction, Direction] =
    options.side === 'host' ? ['c2s', 's2c'] : ['s2c', 'c2s'];
  return {
    connect(sink, connection) {
      const recorder = options.recorderFor(connection);
      const conn = connection.id;
      const recordIn = directionRecorder(options.protocol, recorder, conn, inbound);
      const recordOut = directionRecorder(options.protocol, recorder, conn, outbound);
      let ended = false;
      const end = (reason: string | undefined) => {
        if (ended) return;
        ended = true;
        options.onEnd?.(connection, reason);
      };
      recorder.event(conn, 'c2s', 'open', connection.remote);
      const peer: WirePeer<In> = endpoint.connect(
        {
          send: (data) => {
            recordOut(data);
            sink.send(data);
          },
          close: (reason) => {
            recorder.event(conn, outbound, 'close', reason);
            sink.close(reason);
          },
        },
        connection,
      );
      return {
        receive(data) {
          recordIn(data);
          peer.receive(data);
        },
        end(reason) {
          recorder.event(conn, inbound, 'close', reason);
          try {
            peer.end(reason);
          } finally {
            end(reason);
          }
        },
      };
    },
  };
}
