/**
 * Every rddlsim wire message as a typed object. Element names and child order follow what the real server
 * and its Java client send (see docs/rddlsim-protocol.md), not the written PROTOCOL.txt.
 */

/** One `<action>` of an `<actions>` message: name, arguments and value exactly as written on the wire. */
export interface WireAction {
  name: string;
  /** Object names (an optional leading `$` is accepted by the server) or enum values with `@`. */
  args: string[];
  /** `true`/`false`, a number, `@enum` or an object name. */
  value: string;
}

/** One `<observed-fluent>` of a turn: a state (MDP) or observation (POMDP) fluent grounding and its value. */
export interface WireFluent {
  name: string;
  /** Objects without `$`, enum values with `@`. */
  args: string[];
  /** `true`/`false`, an integer, a Java double (`0.5`, `1.0E-4`), `@enum` or an object name. */
  value: string;
}

/** `<session-request>`: the client asks for an instance. */
export interface SessionRequest {
  type: 'session-request';
  problemName: string;
  clientName: string;
  /** `rddl` or `pddl` (IPC 2018); absent in rddlsim's own client. */
  inputLanguage?: string;
  /** True when a `<no-header/>` element is present: the server then drops declarations and NULs. */
  noHeader: boolean;
}

/** `<round-request>`: the client asks for the next round. */
export interface RoundRequest {
  type: 'round-request';
  /** Text of `<execute-policy>` (`yes`/`no`), read only by a server in monitor mode; absent if not sent. */
  executePolicy?: string;
}

/** `<actions>`: the client's joint action for the current turn (empty = noop). */
export interface ActionsMessage {
  type: 'actions';
  actions: WireAction[];
}

/** `<resource-request>`: the client asks how much time is left; allowed wherever the server waits. */
export interface ResourceRequest {
  type: 'resource-request';
}

/** A message a client sends. */
export type RddlsimClientMessage = SessionRequest | RoundRequest | ActionsMessage | ResourceRequest;

/** `<session-init>`: the session is on. */
export interface SessionInit {
  type: 'session-init';
  /** Base64 of the RDDL text: domain file + `\n\n` + instance file + `\n`. */
  task: string;
  sessionId: number;
  numRounds: number;
  /** Milliseconds, a Java double (`1080000.0`). */
  timeAllowed: number;
}

/** The literal text `null` the server sends instead of a session-init when it cannot read the task files. */
export interface NullSessionInit {
  type: 'session-init-null';
}

/** `<round-init>`: a round starts. Note: no session-id, `round-left` singular. */
export interface RoundInit {
  type: 'round-init';
  /** 1-based for counted rounds; in monitor mode a practice round shows the rounds counted so far. */
  roundNum: number;
  /** num-rounds minus round-num. */
  roundLeft: number;
  /** Milliseconds left in the session, a Java double. */
  timeLeft: number;
}

/** `<turn>`: the state (or observation) the client acts on. */
export interface Turn {
  type: 'turn';
  /** 1-based within the round. */
  turnNum: number;
  /** Milliseconds left, a Java double. */
  timeLeft: number;
  /** Reward of the previous step (0.0 on turn 1). */
  immediateReward: number;
  /** Every grounding sent, in the server's order; null for `<no-observed-fluents/>` (POMDP turn 1). */
  fluents: WireFluent[] | null;
}

/** `<round-end>`: the round is over (horizon, terminal state, illegal action or session time out). */
export interface RoundEnd {
  type: 'round-end';
  instanceName: string;
  clientName: string;
  /** 0-based, unlike round-init (-1 for a practice round before the first counted one). */
  roundNum: number;
  /** Discounted sum of the round's step rewards. */
  roundReward: number;
  turnsUsed: number;
  /** Milliseconds left, a Java long (may be negative). */
  timeLeft: number;
  /** Reward of the last executed step, seen nowhere else. */
  immediateReward: number;
}

/** `<session-end>`: sent right after the last round-end; the server then closes the connection. */
export interface SessionEnd {
  type: 'session-end';
  instanceName: string;
  /** Sum of the round rewards of counted rounds. */
  totalReward: number;
  roundsUsed: number;
  clientName: string;
  sessionId: number;
  /** Milliseconds left, a Java long. */
  timeLeft: number;
}

/** `<resource-notification>`: answer to a resource-request (and to a malformed round-request). */
export interface ResourceNotification {
  type: 'resource-notification';
  /** Milliseconds left, a Java double. */
  timeLeft: number;
  /** Always `enough` from the real server. */
  memoryLeft: string;
}

/** A message a server sends. */
export type RddlsimServerMessage =
  SessionInit | NullSessionInit | RoundInit | Turn | RoundEnd | SessionEnd | ResourceNotification;

/** Any rddlsim message. */
export type RddlsimMessage = RddlsimClientMessage | RddlsimServerMessage;

/** Root element names of client messages (the direction of a message follows from its root). */
export const CLIENT_ROOTS: readonly string[] = [
  'session-request',
  'round-request',
  'actions',
  'resource-request',
];

/** Root element names of server messages. */
export const SERVER_ROOTS: readonly string[] = [
  'session-init',
  'round-init',
  'turn',
  'round-end',
  'session-end',
  'resource-notification',
];
