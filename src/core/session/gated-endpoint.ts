/**
 * Paces what real clients send to an emulated server by the run controls: each piece of data a connection
 * brings passes the `TurnGate` before the endpoint gets it, in arrival order, so Pause holds the server's
 * next answer (the client waits, as for a slow server), Step lets one piece through, and the delay spaces
 * them. A stopped gate drops what still waits. The end of a connection follows what it sent. Names no
 * protocol.
 */
import type { TurnGate } from '../policy/turn-gate';
import type { SansIoEndpoint, WireData } from '../protocols/contract';

/** The endpoint behind the gate. */
export function gatedEndpoint<In extends WireData, Out extends WireData>(
  endpoint: SansIoEndpoint<In, Out>,
  gate: TurnGate,
): SansIoEndpoint<In, Out> {
  // One line for every connection: pieces pass the gate one at a time, in the order they came.
  let line: Promise<unknown> = Promise.resolve();
  let first = true;
  return {
    connect(sink, connection) {
      const peer = endpoint.connect(sink, connection);
      return {
        receive(data) {
          line = line
            .then(async () => {
              const go = await gate.pass(first);
              first = false;
              if (go) peer.receive(data);
            })
            // An endpoint that throws costs its connection, never the line of the others.
            .catch((error: unknown) => sink.close(`internal error: ${String(error)}`));
        },
        end(reason) {
          line = line.then(() => peer.end(reason)).catch(() => undefined);
        },
      };
    },
  };
}
