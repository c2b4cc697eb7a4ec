/**
 * Records what a sans-IO endpoint's connections carry, cut into messages by the protocol's framing (over
 * HTTP: each request, and each response paired with its request): the command line's generic `serve` and
 * `connect` wrap the protocol's host or driven client in it, so every session is a transcript whatever
 * the protocol.
 */
import type {
  HttpMessage,
  Protocol,
  SansIoEndpoint,
  StreamSplitter,
  WireData,
  WirePeer,
} from '../protocols/contract';
import type { Direction } from '../transcript/model';
import type { TranscriptRecorder } from '../transcript/recorder';

/** Options of `recordingEndpoint`. */
export interface RecordingOptions {
  protocol: Protocol;
  /** Which side the endpoint plays: a host receives what clients send (`c2s`). */
  side: 'host' | 'client';
  /** The recorder of a new connection (one per connection, or one shared). */
  recorderFor(connection: { id: string; remote?: string }): TranscriptRecorder;
  /** HTTP only: the headers recorded (lower case); all when absent. */
  recordedHeaders?: readonly string[];
  /** The connection ended, either side closing first; `reason` when it was not a plain close. */
  onEnd?(connection: { id: string; remote?: string }, reason: string | undefined): void;
}

/** Records one direction's data on one connection. */
function directionRecorder(
  options: RecordingOptions,
  recorder: TranscriptRecorder,
  conn: string,
  dir: Direction,
  exchanges: { index: number; channel: string | undefined }[],
): (data: WireData) => void {
  const transport = options.protocol.transport;
  if (transport.kind === 'http') {
    const keep = options.recordedHeaders;
    const recordable = (message: HttpMessage): HttpMessage => {
      if (!keep) return message;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(message.meta.headers ?? {}))
        if (keep.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
      return { ...message, meta: { ...message.meta, headers } };
    };
    // Requests go c2s, each response pairs with the oldest request not answered yet (HTTP answers in order)
    // and takes its request's channel.
    if (dir === 'c2s')
      return (data) => {
        const request = data as HttpMessage;
        const channel = transport.channelOf?.(request);
        const { index } = recorder.httpRequest(conn, recordable(request), channel);
        exchanges.push({ index, channel });
      };
    return (data) => {
      const request = exchanges.shift();
      recorder.httpResponse(conn, request?.index ?? -1, recordable(data as HttpMessage), request?.channel);
    };
  }
  if (transport.kind === 'websocket')
    return (data) => {
      const text = String(data);
      recorder.text(conn, dir, text, 'frame', transport.channelOf?.(text, dir) || undefined);
    };
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
      const exchanges: { index: number; channel: string | undefined }[] = [];
      const recordIn = directionRecorder(options, recorder, conn, inbound, exchanges);
      const recordOut = directionRecorder(options, recorder, conn, outbound, exchanges);
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
