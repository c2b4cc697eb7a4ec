/**
 * What the views show of a transcript, for every protocol: log rows, rounds and their rewards, the turns the
 * agent saw, notes. A protocol's reader (`Protocol.createReader`) computes it from wire messages and
 * annotations alone, so an imported recording gets the same views as a live session.
 */
import type { Annotation, Direction, TranscriptMessage } from '../transcript/model';

/** One row of the message log: what a message is and where in the session it belongs. */
export interface MessageSummary {
  index: number;
  dir: Direction;
  conn: string;
  /** The agent on a shared connection (the message's `channel`), when there is one. */
  channel?: string;
  /** Milliseconds since the transcript started. */
  t: number;
  /** The message type (`turn`, `actions`...) or the connection event (`open`, `close`...). */
  type: string;
  /** 1-based round the message belongs to, when inside one. */
  round?: number;
  /** 1-based turn within the round, when it belongs to one. */
  turn?: number;
  /** A short gist for the log row (`reward 3.5`, `2 actions`, `round 2 of 5`). */
  gist: string;
  /** Set when the message could not be read as this protocol (the log still shows its text). */
  unreadable?: string;
}

/** The rewards of one round, for the chart. */
export interface RoundSummary {
  round: number;
  /** The total the server reported at the round's end; undefined while the round runs. */
  total?: number;
  /** Reward of each executed step, in order, as far as seen. */
  stepRewards: number[];
  /** Index of the message that ended the round. */
  endIndex?: number;
}

/** A fluent (or any named value) as the state panel shows it. */
export interface ValueRow {
  name: string;
  args: string[];
  /** The value as it appeared on the wire (or in the annotation). */
  value: string;
}

/** What the agent observed at one turn, and, for emulated sessions, the true state beside it. */
export interface TurnSnapshot {
  /** Index of the message carrying the observation. */
  index: number;
  round: number;
  turn: number;
  /** The reward the message reported (of the previous step). */
  reward?: number;
  observed: ValueRow[];
  /** True when the server said there is nothing observed yet (rddlsim's POMDP first turn). */
  noObservation: boolean;
  /** The emulator's true state, from annotations: never on the wire, shown clearly marked. */
  world?: ValueRow[];
}

/** A note to show beside the messages: what a real server would do, a violation, an error. */
export interface SessionNote {
  index: number;
  kind: 'note' | 'violation' | 'error' | 'policy-log';
  text: string;
  /** For policy logs: console level. */
  level?: string;
}

/**
 * Reads a transcript incrementally for the views: feed it messages and annotations as they arrive. A
 * fresh reader fed one turn's message alone (with its annotations) must read that turn's fluents: the page
 * reads a turn that way when it shows it, from the place the session worker reported.
 */
export interface TranscriptReader {
  append(messages: readonly TranscriptMessage[], annotations: readonly Annotation[]): void;
  readonly messages: readonly MessageSummary[];
  readonly rounds: readonly RoundSummary[];
  readonly turns: readonly TurnSnapshot[];
  readonly notes: readonly SessionNote[];
}
