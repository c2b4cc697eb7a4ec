/**
 * What an aisys policy is: `act(percept, run, context)` returns the action for one action request, as the
 * course's Python client calls `agent(percept, request_info)`. Each run has a memory of its own that lives
 * as long as the run (one agent object per run in the course client); `context.memory` lives for the
 * whole session. A policy may also export `onRunEnd(outcome, run, context)`.
 *
 * The client hands the policy everything one response asked for at once (a decision batch), so a policy
 * in a worker costs one message each way per response, however many runs play in parallel.
 */
import type { PolicyFault, PolicyLogLine } from '../../policy/types';
import type { AisysMessage, JsonValue } from './messages';

/** A run as a policy sees it. */
export interface AisysRunInfo {
  /** The run id (a string of a global integer). */
  id: string;
  /** The number of this action in the run (0 for the first). */
  actNo: number;
  /** The run's page on the server (`<url>run/<env>/<id>`). */
  url: string;
  /** Anything the policy keeps for this run; forgotten when the run ends. */
  memory: Record<string, unknown>;
}

/** What one response asks of the policy. */
export interface AisysDecisionBatch {
  /** The action requests to answer, in order. */
  requests: { run: string; actNo: number; percept: JsonValue; url: string }[];
  /** Runs that ended in this response, with their outcomes (before the requests are answered). */
  finished: { run: string; outcome: JsonValue; url: string }[];
  /** The runs still active: the memory of any other run is dropped after this batch. */
  active: string[];
  /** The server's messages of this response. */
  messages: AisysMessage[];
}

/** The policy's answer: one action per request, in order, or why it could not give them. */
export type AisysDecisionReply =
  | { ok: true; actions: JsonValue[]; logs: PolicyLogLine[] }
  | { ok: false; fault: PolicyFault; logs: PolicyLogLine[] };

/** Decides a batch: a policy in a worker, or a function in-process. */
export type AisysDecide = (batch: AisysDecisionBatch) => Promise<AisysDecisionReply>;

/** The context of every call: the runtime's helpers and the session's facts. */
export interface AisysPolicyContext {
  /** Kept for the whole session. */
  memory: Record<string, unknown>;
  /** Uniform in [0, 1), seeded with the session's seed. */
  random(): number;
  log(...values: unknown[]): void;
  /** The environment played (`nim`). */
  env: string;
}

/** A policy's `act`, as plain code. */
export type AisysActFunction = (
  percept: JsonValue,
  run: AisysRunInfo,
  context: AisysPolicyContext,
) => JsonValue | Promise<JsonValue>;

/** A policy's optional `onRunEnd`. */
export type AisysRunEndFunction = (
  outcome: JsonValue,
  run: AisysRunInfo,
  context: AisysPolicyContext,
) => void | Promise<void>;

/** The call that answers a batch: `call(AISYS_DECIDE, [batch], {})` on an `AisysPolicyRuntime`. */
export const AISYS_DECIDE = 'aisys-decide';

/** How the entry is called, for the error a policy without `act` gets. */
export const AISYS_ENTRY_SIGNATURE = 'act(percept, run, context)';

/** How the wire level's entry is called: the last response in, the next request's body out. */
export const AISYS_WIRE_SIGNATURE = 'onMessage(response, context)';
