/**
 * The aisys protocol's messages (aisysprojserver, the course server of FAU's AI lectures): JSON bodies of
 * HTTP requests to `/act/<env>` and of their responses, in protocol version 1 and the older version 0.
 * Field names are the wire's own.
 */
import type { JsonValue } from '../../envs/aisys/api';

export type { JsonValue };

/** One action of a version 1 request: the answer to the action request `act_no` of run `run`. */
export interface AisysAction {
  run: string;
  act_no: number;
  action: JsonValue;
}

/** A version 1 request body, as the server reads it (defaults filled in). */
export interface AisysRequest {
  agent: string;
  pwd: string;
  actions: AisysAction[];
  /** Several action requests per response (the environment's number, default 5), or one. */
  parallel_runs: boolean;
  /** Runs to give up (they count as the environment's abandon outcome, usually a loss). */
  to_abandon: string[];
  /** What client sent it (statistics only). */
  client: string;
}

/** An action request: the server wants action number `act_no` of run `run`, which shows `percept`. */
export interface AisysActionRequest {
  run: string;
  act_no: number;
  percept: JsonValue;
}

/** A message of a response; `run` is the run id as the client spelled it. */
export interface AisysMessage {
  type: 'info' | 'warning' | 'error';
  content: string;
  run: string | null;
}

/** A successful version 1 response: all four keys are always present. */
export interface AisysResponse {
  action_requests: AisysActionRequest[];
  /** Every unfinished run of the agent, lowest id first (may be more than the action requests). */
  active_runs: string[];
  messages: AisysMessage[];
  /** The runs that finished during this request, with their outcomes. */
  finished_runs: Record<string, JsonValue>;
}

/** A version 0 action: `run` is `"<run id>#<action number>"`. */
export interface AisysActionV0 {
  run: string;
  action: JsonValue;
}

/** A version 0 request body, as the server reads it. */
export interface AisysRequestV0 {
  agent: string;
  pwd: string;
  actions: AisysActionV0[];
  /** One action request per response instead of several. */
  single_request: boolean;
}

/** A version 0 response: the key has a hyphen, messages are flattened into strings. */
export interface AisysResponseV0 {
  'action-requests': { run: string; percept: JsonValue }[];
  errors: string[];
  messages: string[];
}

/** The JSON body of an HTTP error from a JSON route. */
export interface AisysErrorBody {
  errorcode: number;
  errorname: string;
  description: string;
}

/** The agent config file the server's admin tools write for a new agent. */
export interface AgentConfig {
  agent: string;
  env: string;
  pwd: string;
  /** The server's base URL, ending with `/`. */
  url: string;
}

/** The protocol versions the server speaks. */
export type ProtocolVersion = 0 | 1;
