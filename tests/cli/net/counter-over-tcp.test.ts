/**
 * The command line's TCP transports are written once for every stream protocol: the tests-only counter
 * protocol (tests/support/counter-protocol) is served by `TcpServer` and played by `TcpClient` over real
 * TCP on 127.0.0.1, with nothing added for it in `cli/`; both sides' recordings validate with its machines.
 */
import { describe, expect, it } from 'vitest';
import { TcpClient } from '../../../cli/net/tcp-client';
import { TcpServer } from '../../../cli/net/tcp-server';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { validateTranscript } from '../../../src/core/transcript/validate';
import { driveClient } from '../../../src/core/session/client-driver';
import { counterClient, counterHost, type CounterObservation } from '../../support/counter-protocol/host';
import { counterProtocol } from '../../support/counter-protocol/protocol';
import type { SansIoEndpoint } from '../../../src/core/protocols/contract';

const decoder = new TextDecoder();

/** Records every line an endpoint receives and sends, on one connection. */
function recorded(
  endpoint: SansIoEndpoint<Uint8Array, Uint8Array>,
  recorder: TranscriptRecorder,
  side: 'client' | 'server',
): SansIoEndpoint<Uint8Array, Uint8Array> {
  const [inbound, outbound] = side === 'server' ? (['c2s', 's2c'] as const) : (['s2c', 'c2s'] as const);
  const lines = (dir: 'c2s' | 's2c', bytes: Uint8Array) =>
    decoder
      .decode(bytes)
      .split('\n')
      .filter(Boolean)
      .forEach((line) => recorder.text('game', dir, line, 'none'));
  return {
    connect(sink, connection) {
      const peer = endpoint.connect(
        {
          send: (bytes) => {
            lines(outbound, bytes);
            sink.send(bytes);
          },
          close: (reason) => {
            recorder.event('game', outbound, 'close', reason);
            sink.close(reason);
          },
        },
        connection,
      );
      return {
        receive: (bytes) => {
          lines(inbound, bytes);
          peer.receive(bytes);
        },
        end: (reason) => peer.end(reason),
      };
    },
  };
}

describe('the counter protocol over the shared TCP transports', () => {
  it('serves and plays a game over real TCP; both recordings validate', async () => {
    const serverSide = new TranscriptRecorder({ protocol: 'counter' });
    const server = await TcpServer.start({
      endpoint: recorded(counterHost(7), serverSide, 'server'),
      port: 0,
      frameTerminator: 0x0a,
      log: () => {},
    });
    const clientSide = new TranscriptRecorder({ protocol: 'counter' });
    const endpoint = recorded(
      driveClient(counterClient(), async (request) => {
        const { value, target } = request.args[0] as CounterObservation;
        return { ok: true, value: target - value >= 2 ? 2 : 1, logs: [], ms: 0 };
      }),
      clientSide,
      'client',
    );
    await new Promise<void>((done, failed) => {
      let peer: ReturnType<typeof endpoint.connect> | undefined;
      const client: TcpClient = new TcpClient(
        { host: '127.0.0.1', port: server.address.port, frameTerminator: 0x0a },
        {
          onConnect: () => {
            peer = endpoint.connect(
              { send: (bytes) => client.send(bytes), close: () => client.end() },
              { id: 'game' },
            );
          },
          onData: (chunk) => peer?.receive(chunk),
          onEnd: () => peer?.end(),
          onError: (error) => failed(new Error(error.description)),
          onClose: () => done(),
        },
      );
    });
    await server.close();
    for (const transcript of [clientSide.transcript, serverSide.transcript]) {
      const texts = transcript.messages.filter((m) => m.kind === 'data').map((m) => m.text);
      expect(texts.at(-1)).toBe('{"type":"end","total":7,"reward":1}');
      expect(validateTranscript(transcript, counterProtocol).violations).toEqual([]);
    }
    expect(
      clientSide.transcript.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.text]),
    ).toEqual(serverSide.transcript.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.text]));
  });
});
