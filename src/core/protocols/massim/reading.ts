/**
 * What the MASSim views know about a session, as plain data: the reader in the session worker produces
 * it from the transcript (news as the transcript grows), the page keeps it. Big things (message texts,
 * percepts, world snapshots) stay in the worker's transcript store and are asked for one at a time.
 */
import type { MassimStepPercept, MassimWorldSnapshot, MassimWorldStatic } from '../../envs/massim/api';

/**
 * Every kind of action outcome the views count, by code (a code is the position in this list). `no_action`
 * stands for a request the agent left unanswered (the server's `no_action` that succeeded), so silent
 * agents show; `unknown_action` is the real server's fallback result.
 */
export const MASSIM_RESULT_KINDS = [
  'success',
  'partial_success',
  'no_action',
  'failed',
  'failed_parameter',
  'failed_path',
  'failed_target',
  'failed_blocked',
  'failed_partner',
  'failed_role',
  'failed_random',
  'failed_status',
  'failed_location',
  'failed_resources',
  'unknown_action',
] as const;

/** An action outcome the views count. */
export type MassimResultKind = (typeof MASSIM_RESULT_KINDS)[number];

/** A result code meaning "not known" (no percept told it). */
export const NO_RESULT = -1;

/**
 * One point of the timeline: a step of a simulation. Frames are numbered from 0 over the whole session
 * (several simulations follow one another).
 */
export interface MassimFrame {
  /** Simulation of the session, from 0, in the order they were played. */
  simulation: number;
  /** The step, as the server numbers it (from 0 in every simulation). */
  step: number;
  /** Index of the first message of the step (its first request-action). */
  index: number;
  /** Team scores once the step was executed, as the agents were told (next percept, or sim-end). */
  scores: Record<string, number>;
  /** True when the transcript holds the world after this step (emulated sessions). */
  world: boolean;
}

/** An agent, in order of first appearance. */
export interface MassimAgent {
  name: string;
  /** Its team, once a sim-start said so (empty before). */
  team: string;
  /** Its connections, in order (a reconnection adds one). */
  connections: string[];
}

/**
 * The moment the server stopped reading an agent's connection (malformed JSON, an action without `p`...):
 * the agent does `no_action` until it logs in again on a new connection.
 */
export interface MassimReceiverStop {
  agent: string;
  conn: string;
  /** The frame that stopped it. */
  index: number;
  /** The rule it broke (`massim.receiver.action-without-p`...). */
  rule: string;
  message: string;
  /** Timeline frame it happened in. */
  frame: number;
  /** Timeline frame from which the agent is read again (a new login), if it came back. */
  resumedAt?: number;
}

/** A note beside the messages: a rule an agent broke, a real-server race, an error, console output. */
export interface MassimNote {
  index: number;
  kind: 'violation' | 'note' | 'error' | 'policy-log';
  text: string;
  /** Console level for policy logs; the rule's severity for violations. */
  level?: string;
  frame: number;
  agent?: string;
  conn?: string;
}

/** Log rows of consecutive messages, as columns. */
export interface MassimRows {
  /** Transcript index of the first row; the rows are the messages from there on, in order. */
  from: number;
  /** Connection of each row (a position in the session's connection list). */
  conn: number[];
  dir: ('c2s' | 's2c')[];
  /** Milliseconds since the transcript started. */
  t: number[];
  /** Message type (`request-action`...) or connection event (`open`, `close`). */
  type: string[];
  /** Timeline frame each row belongs to (-1 before the first step). */
  frame: number[];
  gist: string[];
  /** Set where the message could not be read as MASSim (the text is still there). */
  unreadable: (string | null)[];
}

/** What the reader learned since it last reported. Lists replace from `from` on; `stops` and `notes` add. */
export interface MassimNews {
  /** Every connection so far, when there are new ones. */
  connections?: string[];
  /** Every agent so far, when one is new or changed. */
  agents?: MassimAgent[];
  /** Every team so far, when there are new ones. */
  teams?: string[];
  rows: MassimRows;
  /** Frames `framesFrom` onwards (earlier ones did not change). */
  framesFrom: number;
  frames: MassimFrame[];
  /**
   * Result codes from frame `framesFrom` on: `results[i][a]` is the outcome of agent `a`'s action in frame
   * `framesFrom + i` (a position in `MASSIM_RESULT_KINDS`, or `NO_RESULT`).
   */
  results: number[][];
  stops: MassimReceiverStop[];
  /** Updates of earlier stops (an agent came back). */
  resumed: { index: number; conn: string; resumedAt: number }[];
  notes: MassimNote[];
}

/** The world at a frame, for the world view. */
export interface MassimWorldView {
  frame: number;
  static: MassimWorldStatic;
  /** The world after the frame's step. */
  snapshot: MassimWorldSnapshot;
}

/** What one agent perceived and did at a frame, for its point of view. */
export interface MassimAgentView {
  agent: string;
  frame: number;
  /** The request-action it got (index), and its percept. */
  requestIndex?: number;
  percept?: MassimStepPercept;
  /** Its vision, from its role's sim-start entry. */
  vision?: number;
  /** The first action it sent for that request, as sent. */
  actionIndex?: number;
  actionText?: string;
  /** What the server made of the step: the executed action and its result (next percept or the world). */
  executed?: { action: string; params: string[]; result: string };
  /** When its connection was not read at this frame. */
  stop?: MassimReceiverStop;
}
