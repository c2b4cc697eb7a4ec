/**
 * The MASSim agent client in the contract's `SansIoClient` shape, for transports that carry whole frames
 * (the command line's TCP client cuts the byte stream at each 0 byte; a WebSocket would carry one frame per
 * text message). Each request-action becomes a `decide` effect whose one argument is the
 * `MassimDecisionRequest`, answered through `decided` with the action (or undefined: send nothing).
 *
 * Unlike rddlsim's, this client never pauses its reading: a MASSim server does not wait for an agent, so
 * while the policy thinks the next request may arrive, and the late decision is then dropped (reported as
 * `decision-outdated`), as a real agent's would be.
 */
import { describeError } from '../../errors';
import type { CallOutcome } from '../../policy/types';
import type { DecisionMaker } from '../../session/client-driver';
import type { ClientPeer, ClientSink, SansIoClient } from '../contract';
import {
  MassimAgentClient,
  type MassimAgentClientOptions,
  type MassimAgentEvent,
  type MassimDecide,
  type MassimDecisionRequest,
} from './client';
import type { MassimPolicyAction } from './policy-api';

/** Who an agent connection logs in as. */
export type MassimAgentAccount = Pick<
  MassimAgentClientOptions,
  'user' | 'password' | 'team' | 'teamAccounts'
>;

/** The hook name of an agent's decision (the policy's `act(percept, agent, team)`). */
export const MASSIM_ACT_HOOK = 'act';

/**
 * One agent's client: it logs in as soon as it is connected, and reports what happens (logged in, a
 * simulation started or ended, missed steps, violations of the server...) to `onEvent`.
 */
export function massimAgentSansIoClient(
  account: MassimAgentAccount,
  onEvent: (event: MassimAgentEvent) => void = () => undefined,
): SansIoClient<string, string> {
  return {
    connect(sink) {
      return new MassimAgentConnection(account, sink, onEvent);
    },
  };
}

/** The `MassimDecisionRequest` a decision of this client carries. */
export function massimDecisionRequest(request: { args: readonly unknown[] }): MassimDecisionRequest {
  return request.args[0] as MassimDecisionRequest;
}

/**
 * A `DecisionMaker` for the driver from a `MassimDecide` (a team policy, gathered or not): its action is the
 * outcome's value; a throw is a fault, which the client reports as `decision-failed`.
 */
export function massimDecisionMaker(decide: MassimDecide): DecisionMaker {
  return async (request) => {
    try {
      const value = await decide(massimDecisionRequest(request));
      return { ok: true, value, logs: [], ms: 0 };
    } catch (error) {
      return { ok: false, fault: { kind: 'crash', message: describeError(error) }, logs: [], ms: 0 };
    }
  };
}

/** One agent connection: the core agent client, its decisions asked through the sink. */
class MassimAgentConnection implements ClientPeer<string> {
  readonly #client: MassimAgentClient;
  /** Simulations this agent has seen start: the round of its decisions. */
  #simulations = 0;
  /** The decisions asked and not answered yet, oldest first. */
  readonly #waiting: {
    resolve(action: MassimPolicyAction | undefined): void;
    reject(error: Error): void;
  }[] = [];

  constructor(
    account: MassimAgentAccount,
    sink: ClientSink<string>,
    onEvent: (event: MassimAgentEvent) => void,
  ) {
    this.#client = new MassimAgentClient({
      ...account,
      decide: (request) =>
        new Promise<MassimPolicyAction | undefined>((resolve, reject) => {
          this.#waiting.push({ resolve, reject });
          sink.decide({
            hook: MASSIM_ACT_HOOK,
            args: [request],
            site: { round: this.#simulations, turn: request.step },
          });
        }),
      send: (text) => sink.send(text),
      onEvent: (event) => {
        if (event.kind === 'sim-start') this.#simulations++;
        onEvent(event);
      },
    });
    this.#client.login();
  }

  receive(text: string): void {
    void this.#client.receiveFrame(text);
  }

  end(): void {
    this.#client.closed();
  }

  decided(outcome: CallOutcome): void {
    const waiting = this.#waiting.shift();
    if (!waiting) return;
    if (outcome.ok) waiting.resolve(outcome.value as MassimPolicyAction | undefined);
    else waiting.reject(new Error(outcome.fault.message));
  }
}
