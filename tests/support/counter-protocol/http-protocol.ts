/**
 * The counter game over HTTP (`counter-http`): the same game, host and client as `counter`, played as
 * request/response exchanges on `/counter/<player>`. A `GET` asks for the server's next message, a `POST`
 * carries the client's `add` and is answered with the next message; each body is one JSON message. Once
 * the last game ended, the next request gets `410 Gone` and the session is over. The player in the path
 * is the session (`sessionOf`): a client may send each request on a new connection. `connect` takes the
 * player's name as an option of the protocol's own (`--player`). Everything that makes
 * it an HTTP protocol is in this file; loaded through PROTOPLAY_EXTRA_PROTOCOLS, the command line's
 * generic `serve` and `connect` carry it over their HTTP server and client with nothing added elsewhere.
 */
import type {
  ClientPeer,
  HttpMessage,
  PlaySetup,
  Protocol,
  SansIoClient,
  SansIoEndpoint,
} from '../../../src/core/protocols/contract';
import type { ProtocolMachine } from '../../../src/core/protocols/machine';
import { lineFraming } from './framing';
import { counterClient } from './host';
import { createCounterReader } from './reader';
import { readCounterMessage } from './messages';
import { counterProtocol } from './protocol';

const decoder = new TextDecoder();
const PATH = /^\/counter\/([A-Za-z0-9_-]{1,64})$/;

const json = (status: number, body: string): HttpMessage => ({
  meta: { status, headers: { 'content-type': 'application/json' } },
  body,
});

/** The counter host, answering each request with its next message. */
function httpHost(setup: PlaySetup): SansIoEndpoint<HttpMessage, HttpMessage> {
  const host = counterProtocol.endpoints!.host(setup) as SansIoEndpoint<Uint8Array, Uint8Array>;
  return {
    connect(sink, connection) {
      const splitter = lineFraming.splitter('s2c');
      /** What the game said and no request has carried yet. */
      const queued: string[] = [];
      let over = false;
      const peer = host.connect(
        {
          send: (bytes) => splitter.push(bytes).forEach((frame) => queued.push(decoder.decode(frame.bytes))),
          close: () => (over = true),
        },
        connection,
      );
      return {
        receive(request) {
          if (request.meta.method === 'POST') {
            if (over || queued.length > 0) {
              sink.send(json(409, ''));
              return;
            }
            peer.receive(lineFraming.encode(request.body));
          } else if (request.meta.method !== 'GET') {
            sink.send(json(405, ''));
            return;
          }
          const next = queued.shift();
          if (next !== undefined) sink.send(json(200, next));
          else if (over) {
            sink.send(json(410, ''));
            sink.close();
          } else sink.send(json(409, ''));
        },
        end: (reason) => peer.end(reason),
      };
    },
  };
}

let players = 0;

/** The counter client, asking for each message and posting each move. */
function httpClient(setup: Pick<PlaySetup, 'options'>): SansIoClient<HttpMessage, HttpMessage> {
  const client = counterClient();
  const player = setup.options?.player;
  return {
    connect(sink, connection) {
      const path = `/counter/${player ?? `${connection.id}-${process.pid}-${++players}`}`;
      const request = (method: 'GET' | 'POST', body = '') =>
        sink.send({
          meta: { method, path, headers: method === 'POST' ? { 'content-type': 'application/json' } : {} },
          body,
        });
      const peer = client.connect(
        {
          send: (bytes) =>
            lineFraming
              .splitter('c2s')
              .push(bytes)
              .forEach((frame) => request('POST', decoder.decode(frame.bytes))),
          close: (reason) => sink.close(reason),
          decide: (decision) => sink.decide(decision),
        },
        connection,
      );
      request('GET');
      const framed: ClientPeer<HttpMessage> = {
        receive(response) {
          const status = response.meta.status ?? 0;
          if (status === 410) return peer.end();
          if (status !== 200) return sink.close(`the server answered ${status}`);
          peer.receive(lineFraming.encode(response.body));
          // A start or an end is followed by another message of the server's: ask for it.
          const type = readCounterMessage(response.body)?.type;
          if (type === 'start' || type === 'end') request('GET');
        },
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

/** The counter machines, skipping the bodiless requests and answers that only carry the exchange. */
const machines: ProtocolMachine<unknown>[] = counterProtocol.machines.map((machine) => ({
  ...machine,
  accept: (state, message) =>
    message.kind === 'data' && message.text === '' ? { ok: true, state } : machine.accept(state, message),
}));

// The page's playground is `counter`'s; this variant is for the command line's transports.
const { playground: _playground, ...definition } = counterProtocol;

export const counterHttpProtocol: Protocol = {
  ...definition,
  id: 'counter-http',
  label: 'Counter (HTTP)',
  description: 'The counting game, one JSON message per request or response over HTTP (tests only)',
  transport: {
    kind: 'http',
    defaultPort: 7779,
    sessionOf: (request) => PATH.exec(request.meta.path ?? '')?.[1],
  },
  machines,
  createReader() {
    const reader = createCounterReader();
    return {
      ...reader,
      append: (messages, annotations) =>
        reader.append(
          messages.filter((message) => message.kind !== 'data' || message.text !== ''),
          annotations,
        ),
    };
  },
  endpoints: {
    host: httpHost,
    client: httpClient,
    options: [
      {
        name: 'player',
        type: 'string',
        valueName: 'NAME',
        description: 'the player the requests name, which keys the session (default: a fresh one)',
        side: 'client',
      },
    ],
  },
};

export default counterHttpProtocol;
