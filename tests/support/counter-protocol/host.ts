/** The counter game's server and client, sans-IO: the same code behind TCP, a worker or a test. */
import type { SansIoClient, SansIoEndpoint } from '../../../src/core/protocols/contract';
import { lineFraming } from './framing';
import { readCounterMessage } from './messages';

const decoder = new TextDecoder();

/**
 * A server playing `rounds` games on each connection, each counting from 0 to `target`; a step's reward is
 * the amount added, minus twice the overshoot past the target. It closes the connection after the last game's `end`.
 */
export function counterHost(target: number, rounds = 1): SansIoEndpoint<Uint8Array, Uint8Array> {
  return {
    connect(sink) {
      const splitter = lineFraming.splitter('c2s');
      let round = 1;
      let value = 0;
      let total = 0;
      let over = false;
      const send = (message: object) => sink.send(lineFraming.encode(JSON.stringify(message)));
      const begin = () => {
        value = 0;
        total = 0;
        send({ type: 'start', target, round });
        send({ type: 'state', value, reward: 0 });
      };
      begin();
      return {
        receive(bytes) {
          for (const frame of splitter.push(bytes)) {
            if (over) return;
            const message = readCounterMessage(decoder.decode(frame.bytes));
            const amount = message?.type === 'add' ? Number(message.amount) : NaN;
            if (amount !== 1 && amount !== 2) {
              over = true;
              sink.close(`expected {"type":"add","amount":1|2}`);
              return;
            }
            value += amount;
            const reward = value > target ? amount - 2 * (value - target) : amount;
            total += reward;
            if (value < target) {
              send({ type: 'state', value, reward });
              continue;
            }
            send({ type: 'end', total, reward });
            if (round >= rounds) {
              over = true;
              sink.close();
              return;
            }
            round++;
            begin();
          }
        },
        end() {
          over = true;
        },
      };
    },
  };
}

/** What a counter policy sees at each state. */
export interface CounterObservation {
  value: number;
  target: number;
  round: number;
}

/**
 * A client asking its policy (`act(observation)`, answering 1 or 2) at every state, and reading nothing
 * while it waits for the answer.
 */
export function counterClient(): SansIoClient<Uint8Array, Uint8Array> {
  return {
    connect(sink) {
      const splitter = lineFraming.splitter('s2c');
      let target = 0;
      let round = 0;
      let turn = 0;
      let waiting = false;
      /** Messages read from the wire and not yet handled: the client handles none while it waits. */
      const pending: string[] = [];
      const handle = () => {
        while (!waiting && pending.length > 0) {
          const message = readCounterMessage(pending.shift());
          if (message?.type === 'start') {
            target = Number(message.target);
            round = Number(message.round ?? round + 1);
            turn = 0;
          }
          if (message?.type === 'state') {
            turn++;
            waiting = true;
            const observation: CounterObservation = { value: Number(message.value), target, round };
            sink.decide({ hook: 'act', args: [observation], site: { round, turn } });
          }
        }
      };
      return {
        get paused() {
          return waiting;
        },
        receive(bytes) {
          for (const frame of splitter.push(bytes)) pending.push(decoder.decode(frame.bytes));
          handle();
        },
        decided(outcome) {
          waiting = false;
          if (!outcome.ok) {
            sink.close(`the policy failed: ${outcome.fault.message}`);
            return;
          }
          sink.send(lineFraming.encode(JSON.stringify({ type: 'add', amount: outcome.value })));
          handle();
        },
        end() {
          sink.close();
        },
      };
    },
  };
}
