/** The counter game's server and client, sans-IO: the same code behind TCP, a worker or a test. */
import type { SansIoEndpoint } from '../../../src/core/protocols/contract';
import { lineFraming } from './framing';
import { readCounterMessage } from './messages';

const decoder = new TextDecoder();

/** A server counting from 0 to `target`; each step's reward is the amount added, minus 1 past the target. */
export function counterHost(target: number): SansIoEndpoint<Uint8Array, Uint8Array> {
  return {
    connect(sink) {
      const splitter = lineFraming.splitter('c2s');
      let value = 0;
      let total = 0;
      const send = (message: object) => sink.send(lineFraming.encode(JSON.stringify(message)));
      send({ type: 'start', target });
      send({ type: 'state', value, reward: 0 });
      return {
        receive(bytes) {
          for (const frame of splitter.push(bytes)) {
            const message = readCounterMessage(decoder.decode(frame.bytes));
            const amount = message?.type === 'add' ? Number(message.amount) : NaN;
            if (amount !== 1 && amount !== 2) {
              sink.close(`expected {"type":"add","amount":1|2}`);
              return;
            }
            value += amount;
            const reward = value > target ? amount - 1 : amount;
            total += reward;
            if (value >= target) {
              send({ type: 'end', total });
              sink.close();
              return;
            }
            send({ type: 'state', value, reward });
          }
        },
        end() {},
      };
    },
  };
}

/** A client answering every state with the policy's amount. */
export function counterClient(
  act: (value: number, target: number) => number,
): SansIoEndpoint<Uint8Array, Uint8Array> {
  return {
    connect(sink) {
      const splitter = lineFraming.splitter('s2c');
      let target = 0;
      return {
        receive(bytes) {
          for (const frame of splitter.push(bytes)) {
            const message = readCounterMessage(decoder.decode(frame.bytes));
            if (message?.type === 'start') target = Number(message.target);
            if (message?.type === 'state')
              sink.send(
                lineFraming.encode(
                  JSON.stringify({ type: 'add', amount: act(Number(message.value), target) }),
                ),
              );
            if (message?.type === 'end') sink.close();
          }
        },
        end() {},
      };
    },
  };
}
