/**
 * The counter game over WebSocket (`counter-ws`): the same game, host and client as `counter`, each message
 * one text frame instead of one line of a TCP stream. Everything that makes it a WebSocket protocol is in
 * this file: its `transport`, and endpoints that speak frames. Loaded through PROTOPLAY_EXTRA_PROTOCOLS like
 * `counter`, the command line's generic `serve` and `connect` carry it over their WebSocket server and
 * client with nothing added for it elsewhere.
 */
import type {
  ClientPeer,
  PlaySetup,
  Protocol,
  SansIoClient,
  SansIoEndpoint,
  StreamSplitter,
} from '../../../src/core/protocols/contract';
import { lineFraming } from './framing';
import { counterClient } from './host';
import { counterProtocol } from './protocol';

const decoder = new TextDecoder();

/** What a line-speaking side sends, as one text frame per line. */
function framesOf(splitter: StreamSplitter, bytes: Uint8Array): string[] {
  return splitter.push(bytes).map((frame) => decoder.decode(frame.bytes));
}

/** The counter host, speaking one text frame per message. */
function frameHost(setup: PlaySetup): SansIoEndpoint<string, string> {
  const host = counterProtocol.endpoints!.host(setup) as SansIoEndpoint<Uint8Array, Uint8Array>;
  return {
    connect(sink, connection) {
      const splitter = lineFraming.splitter('s2c');
      const peer = host.connect(
        {
          send: (bytes) => framesOf(splitter, bytes).forEach((text) => sink.send(text)),
          close: (reason) => sink.close(reason),
        },
        connection,
      );
      return {
        receive: (text) => peer.receive(lineFraming.encode(text)),
        end: (reason) => peer.end(reason),
      };
    },
  };
}

/** The counter client, speaking one text frame per message. */
function frameClient(): SansIoClient<string, string> {
  const client = counterClient();
  return {
    connect(sink, connection) {
      const splitter = lineFraming.splitter('c2s');
      const peer = client.connect(
        {
          send: (bytes) => framesOf(splitter, bytes).forEach((text) => sink.send(text)),
          close: (reason) => sink.close(reason),
          decide: (request) => sink.decide(request),
        },
        connection,
      );
      const framed: ClientPeer<string> = {
        receive: (text) => peer.receive(lineFraming.encode(text)),
        end: (reason) => peer.end(reason),
        decided: (outcome) => peer.decided(outcome),
        get paused() {
          return peer.paused;
        },
      };
      return framed;
    },
  };
}

// The page's playground is `counter`'s; this variant is for the command line's transports.
const { playground: _playground, ...definition } = counterProtocol;

export const counterWebSocketProtocol: Protocol = {
  ...definition,
  id: 'counter-ws',
  label: 'Counter (WebSocket)',
  description: 'The counting game, one JSON text frame per message over WebSocket (tests only)',
  transport: { kind: 'websocket', defaultPort: 7778 },
  endpoints: { host: frameHost, client: frameClient },
};

export default counterWebSocketProtocol;
