/**
 * The agent side of MASSim, sans-IO: an agent connection logs in, answers every request-action with the
 * action its policy chose (with the request's id and a `p` array, so the policy cannot fall into the
 * missing-`p` trap), and checks the server's messages with the client machine. A team client runs one agent
 * connection per agent of a team and gives the policy `act(percept, agent, team)` with per-agent and
 * per-team memory.
 */
import type { MassimSimStartPercept, MassimStepPercept } from '../../envs/massim/api';
import { decodeServerFrame } from './codec';
import { NulFrameSplitter } from './framing';
import {
  acceptServerMessage,
  massimClientMachine,
  type MassimClientMachineState,
  type MassimJudgedMessage,
} from './client-machine';
import type { Step } from '../machine';
import { serializeMassimMessage, type MassimClientMessage, type MassimServerMessage } from './messages';
import type {
  MassimAct,
  MassimAgentContext,
  MassimPolicyAction,
  MassimSimulationInfo,
  MassimStepPerceptInfo,
  MassimTeamContext,
} from './policy-api';
import type { MassimOutgoingFrame } from './outgoing';
import type { MassimViolation } from './violation';
import type { TranscriptMessage } from '../../transcript/model';

/**
 * One request-action, as the policy adapter hands it to whoever decides. `percept` and `text` may be made
 * on first read (a policy in the same thread reads the object, one in a worker the text); to send a request
 * elsewhere, copy the fields it needs.
 */
export interface MassimDecisionRequest {
  readonly team: string;
  readonly agent: string;
  /** Agents of the team in this simulation. */
  readonly teamAgents: readonly string[];
  readonly step: number;
  readonly id: number;
  readonly deadline: number;
  /** The percept object. */
  readonly percept: MassimStepPercept;
  /** The request-action exactly as sent: what a policy in a worker receives. */
  readonly text: string;
  /** The last sim-start's percept, if one arrived. */
  readonly simulation: MassimSimStartPercept | undefined;
  /** The frame being answered, when the host is in memory (its transcript keeps the text as phrases). */
  readonly frame?: MassimOutgoingFrame;
}

/** Decides one agent's action; may be asynchronous (a policy in a worker). Undefined: send nothing. */
export type MassimDecide = (
  request: MassimDecisionRequest,
) => MassimPolicyAction | undefined | Promise<MassimPolicyAction | undefined>;

/** What an agent connection reports. */
export type MassimAgentEvent =
  | { kind: 'logged-in'; agent: string }
  | { kind: 'login-failed'; agent: string }
  | { kind: 'sim-start'; agent: string; percept: MassimSimStartPercept }
  | { kind: 'sim-end'; agent: string; score: number; ranking: number }
  | { kind: 'bye'; agent: string }
  /**
   * The agent received no request for these steps of the running simulation (it logged in late, or was
   * disconnected): steps `from` to `to`, inclusive.
   */
  | { kind: 'missed-steps'; agent: string; from: number; to: number }
  /** The server broke a rule the client machine checks. */
  | { kind: 'server-violation'; agent: string; violation: MassimViolation }
  /** The decision came after a newer request arrived; it was not sent. */
  | { kind: 'decision-outdated'; agent: string; id: number }
  /** Deciding failed (the policy threw); nothing was sent for this request. */
  | { kind: 'decision-failed'; agent: string; id: number; error: unknown };

/** Options of one agent connection. */
export interface MassimAgentClientOptions {
  user: string;
  password: string;
  team: string;
  /** The team's accounts, in order; the first `teamSize` play a simulation. */
  teamAccounts: readonly string[];
  decide: MassimDecide;
  /** Sends one frame (text without its 0 terminator). */
  send(text: string): void;
  onEvent?(event: MassimAgentEvent): void;
}

/** One agent's connection to a MASSim server. */
export class MassimAgentClient {
  readonly #options: MassimAgentClientOptions;
  #splitter = new NulFrameSplitter();
  #machine: MassimClientMachineState = massimClientMachine.initial();
  #received = 0;
  #simulation: MassimSimStartPercept | undefined;
  /** The step the next request-action should be for, once a simulation has started (to see missed steps). */
  #nextStep: number | undefined;
  #latestId = -1;
  #decodeText = new TextDecoder('utf-8');
  /** The team's agents in the current simulation (the first `teamSize` accounts). */
  #teamAgents: readonly string[] = [];

  constructor(options: MassimAgentClientOptions) {
    this.#options = options;
  }

  /** The client machine's view of the connection. */
  get state(): MassimClientMachineState {
    return this.#machine;
  }

  /** Sends the auth-request (call once the transport is open). */
  login(): void {
    this.#sendOwn({
      type: 'auth-request',
      content: { user: this.#options.user, pw: this.#options.password },
    });
  }

  /** Bytes from the server, in any chunking. */
  receive(bytes: Uint8Array): void {
    this.#splitter.push(bytes, (frame) => void this.receiveFrame(this.#decodeText.decode(frame.bytes)));
  }

  /**
   * One whole frame from the server (for transports that carry frames, not bytes). For a request-action,
   * returns the work of answering it: it settles once the action was sent (or the decision dropped).
   */
  receiveFrame(text: string): Promise<void> | undefined {
    const message = this.#checkServerFrame(text);
    return message ? this.#handle(message, { message, text }) : undefined;
  }

  /**
   * A frame from an in-memory server that also hands over the message object it serialised, so the agent
   * skips parsing (the object must not be modified afterwards by anyone).
   */
  receiveDecoded(message: MassimServerMessage): Promise<void> | undefined {
    this.#advance(acceptServerMessage(this.#machine, message, this.#received++));
    return this.#handle(message, new SerialisedOnDemand(message));
  }

  /**
   * A frame from an in-memory host, whose text and object are made on first use: the agent judges the
   * request-action's header only, and its policy reads either the percept object or the text.
   */
  receiveHostFrame(frame: MassimOutgoingFrame): Promise<void> | undefined {
    const judged = frame.judged;
    this.#advance(acceptServerMessage(this.#machine, judged, this.#received++));
    return this.#handle(judged, frame, frame);
  }

  #handle(
    message: MassimJudgedMessage,
    source: FrameSource,
    frame?: MassimOutgoingFrame,
  ): Promise<void> | undefined {
    const agent = this.#options.user;
    switch (message.type) {
      case 'auth-response':
        this.#options.onEvent?.({
          kind: message.content.result === 'ok' ? 'logged-in' : 'login-failed',
          agent,
        });
        return undefined;
      case 'sim-start':
        this.#simulation = message.content.percept;
        this.#nextStep = 0;
        this.#options.onEvent?.({ kind: 'sim-start', agent, percept: message.content.percept });
        return undefined;
      case 'sim-end':
        this.#options.onEvent?.({ kind: 'sim-end', agent, ...message.content });
        return undefined;
      case 'bye':
        this.#options.onEvent?.({ kind: 'bye', agent });
        return undefined;
      case 'request-action': {
        const { step } = message.content;
        if (this.#nextStep !== undefined && step > this.#nextStep)
          this.#options.onEvent?.({ kind: 'missed-steps', agent, from: this.#nextStep, to: step - 1 });
        this.#nextStep = step + 1;
        return this.#answer(message.content, source, frame);
      }
      default:
        return undefined;
    }
  }

  /** The connection closed (the server closed it, or it broke). */
  closed(): void {
    this.#machine = massimClientMachine.accept(this.#machine, this.#record('s2c', '', 'close')).state;
  }

  async #answer(
    request: Extract<MassimJudgedMessage, { type: 'request-action' }>['content'],
    source: FrameSource,
    frame: MassimOutgoingFrame | undefined,
  ): Promise<void> {
    const { user: agent, team, teamAccounts } = this.#options;
    this.#latestId = request.id;
    const teamSize = this.#simulation?.teamSize ?? teamAccounts.length;
    if (this.#teamAgents.length !== teamSize) this.#teamAgents = teamAccounts.slice(0, teamSize);
    const decision = new DecisionRequest(
      team,
      agent,
      this.#teamAgents,
      request,
      this.#simulation,
      source,
      frame,
    );
    let action: MassimPolicyAction | undefined;
    try {
      action = await this.#options.decide(decision);
    } catch (error) {
      this.#options.onEvent?.({ kind: 'decision-failed', agent, id: request.id, error });
      return;
    }
    if (!action) return;
    if (this.#latestId !== request.id) {
      this.#options.onEvent?.({ kind: 'decision-outdated', agent, id: request.id });
      return;
    }
    const p = Array.isArray(action.p)
      ? action.p.map((value: unknown) => (typeof value === 'number' ? value : String(value)))
      : [];
    this.#sendOwn({ type: 'action', content: { id: request.id, type: action.type, p } });
  }

  #sendOwn(message: MassimClientMessage): void {
    const text = serializeMassimMessage(message);
    this.#advance(massimClientMachine.accept(this.#machine, this.#record('c2s', text, 'data')));
    this.#options.send(text);
  }

  /** Decodes a server frame and feeds it to the client machine; the message when it is well-formed. */
  #checkServerFrame(text: string): MassimServerMessage | undefined {
    const index = this.#received;
    const decoded = decodeServerFrame(text, `message ${index}`);
    if (!decoded.ok) {
      this.#advance(massimClientMachine.accept(this.#machine, this.#record('s2c', text, 'data')));
      return undefined;
    }
    this.#received++;
    this.#advance(acceptServerMessage(this.#machine, decoded.message, index));
    return decoded.message;
  }

  #advance(step: Step<MassimClientMachineState>): void {
    this.#machine = step.state;
    if (step.ok) return;
    this.#options.onEvent?.({
      kind: 'server-violation',
      agent: this.#options.user,
      violation: step.violation as MassimViolation,
    });
  }

  #record(dir: 'c2s' | 's2c', text: string, kind: TranscriptMessage['kind']): TranscriptMessage {
    return { index: this.#received++, conn: this.#options.user, dir, t: 0, kind, text };
  }
}

/** A received frame's object and text; either may be made on first read. */
interface FrameSource {
  readonly message: MassimServerMessage;
  readonly text: string;
}

/** A message handed over as an object, serialised only when someone wants its text. */
class SerialisedOnDemand implements FrameSource {
  #text: string | undefined;

  constructor(readonly message: MassimServerMessage) {}

  get text(): string {
    return (this.#text ??= serializeMassimMessage(this.message));
  }
}

/** A decision request whose percept and text come from the frame on first read. */
class DecisionRequest implements MassimDecisionRequest {
  readonly step: number;
  readonly id: number;
  readonly deadline: number;
  readonly #source: FrameSource;

  constructor(
    readonly team: string,
    readonly agent: string,
    readonly teamAgents: readonly string[],
    header: { step: number; id: number; deadline: number },
    readonly simulation: MassimSimStartPercept | undefined,
    source: FrameSource,
    readonly frame: MassimOutgoingFrame | undefined,
  ) {
    this.step = header.step;
    this.id = header.id;
    this.deadline = header.deadline;
    this.#source = source;
  }

  get percept(): MassimStepPercept {
    return (this.#source.message as Extract<MassimServerMessage, { type: 'request-action' }>).content.percept;
  }

  get text(): string {
    return this.#source.text;
  }
}

/**
 * Turns a team policy (`act(percept, agent, team)`) into a `MassimDecide`, keeping each agent's memory and
 * the team's memory in this process between calls (run it where the policy runs, e.g. inside its worker).
 */
export function createTeamDecide(act: MassimAct): MassimDecide {
  const agentMemory = new Map<string, Record<string, unknown>>();
  const teamMemory = new Map<string, Record<string, unknown>>();
  return (request) => {
    const agent: MassimAgentContext = {
      name: request.agent,
      team: request.team,
      step: request.step,
      simulation: request.simulation as MassimSimulationInfo | undefined,
      deadline: request.deadline,
      memory: memoryOf(agentMemory, request.agent),
    };
    const team: MassimTeamContext = {
      name: request.team,
      agents: request.teamAgents,
      memory: memoryOf(teamMemory, request.team),
    };
    return act(request.percept as MassimStepPerceptInfo, agent, team);
  };
}

/** The memory kept under `key`, made empty on first use. */
function memoryOf<K>(map: Map<K, Record<string, unknown>>, key: K): Record<string, unknown> {
  let memory = map.get(key);
  if (!memory) map.set(key, (memory = {}));
  return memory;
}
