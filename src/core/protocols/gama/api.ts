/**
 * The API side of the protocol, sans-IO: the server GAMA connects to. It remembers the scenario and the
 * scavengers that connected, and answers each request with `Scav. n;<action>`, the action chosen by a
 * policy. Requests are answered one at a time, in the order they came (GAMA sends the next only after the
 * answer, but a test or a faulty client may not wait).
 */
import type { ScavengerObservation } from '../../envs/scavenger';
import type { SansIoEndpoint, WirePeer, WireSink } from '../contract';
import { encodeReply, readGamaMessage } from './codec';
import type { GamaNote } from './simulation';

/** What the policy is asked to decide: one scavenger's request. */
export interface GamaDecision {
  /** The scenario GAMA announced (undefined if it did not). */
  scenario: string | undefined;
  /** `Scav. n`. */
  id: string;
  observation: ScavengerObservation;
  /** The reward of the scavenger's previous action (0 when none). */
  reward: number;
  /** The episode is over: this request's answer is not carried out. */
  terminal: boolean;
  /** Which connection (episode) the request came on. */
  connection: string;
}

/** Chooses an action; may be asynchronous (a policy in a worker). A rejection closes the connection. */
export type GamaDecide = (decision: GamaDecision) => string | Promise<string>;

/** Options of the API side. */
export interface GamaApiOptions {
  decide: GamaDecide;
  onNote?(note: GamaNote, connection: string): void;
  /**
   * Requests of one connection waiting for the policy at which the connection is closed (default 1,000): a
   * client that sends without waiting for the answers must not pile up requests without end.
   */
  maxWaiting?: number;
}

/** The API server as a sans-IO endpoint. */
export class GamaApi implements SansIoEndpoint<string, string> {
  readonly #options: GamaApiOptions;

  constructor(options: GamaApiOptions) {
    this.#options = options;
  }

  connect(sink: WireSink<string>, connection: { id: string }): WirePeer<string> {
    const { decide, onNote } = this.#options;
    const note = (kind: GamaNote['kind'], text: string, channel?: string) =>
      onNote?.({ kind, text, ...(channel ? { channel } : {}) }, connection.id);
    let scenario: string | undefined;
    const connected = new Set<string>();
    let queue: Promise<void> = Promise.resolve();
    let closed = false;
    let waiting = 0;
    const maxWaiting = this.#options.maxWaiting ?? 1000;

    const answer = async (decision: GamaDecision) => {
      if (closed) return;
      let action: string;
      try {
        action = await decide(decision);
      } catch (error) {
        closed = true;
        note(
          'violation',
          `no answer for ${decision.id}: ${(error as Error).message ?? String(error)}`,
          decision.id,
        );
        sink.close('the policy failed');
        return;
      }
      if (!closed) sink.send(encodeReply(decision.id, action));
    };

    return {
      receive(text) {
        const reading = readGamaMessage(text);
        if (!reading.ok) {
          note('violation', `unreadable message: ${reading.problem}; not answered`);
          return;
        }
        const message = reading.message;
        if (message.type === 'scenario') {
          scenario = message.scenario;
          return;
        }
        if (message.type === 'connect') {
          if (scenario === undefined)
            note(
              'violation',
              'a connect before any scenario message (the original server fails here)',
              message.id,
            );
          connected.add(message.id);
          return;
        }
        if (!connected.has(message.id))
          note(
            'violation',
            `a request from ${message.id}, which never connected (the original server fails here)`,
            message.id,
          );
        const decision: GamaDecision = {
          scenario,
          id: message.id,
          observation: message.state,
          reward: message.reward ?? 0,
          terminal: message.terminal,
          connection: connection.id,
        };
        if (closed) return;
        if (++waiting > maxWaiting) {
          closed = true;
          note(
            'violation',
            `${maxWaiting} requests wait for the policy: the client sends without waiting for the answers; closing`,
          );
          sink.close('too many requests waiting for an answer');
          return;
        }
        queue = queue.then(() => answer(decision)).finally(() => waiting--);
      },
      end() {
        closed = true;
      },
    };
  }
}
