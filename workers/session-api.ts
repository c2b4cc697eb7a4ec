/**
 * The contract between the page and the session worker. The worker runs the whole session (host,
 * environment, and the policy in a nested policy worker); the page only sends commands and receives
 * batched updates, at most one per animation frame, as a JSON string (one string crosses the boundary
 * far faster than thousands of small cloned objects).
 */
import type { PolicyFault, PolicySource } from '../src/core/policy/types';
import type { Annotation, ProtocolId, Transcript, TranscriptMessage } from '../src/core/transcript/model';
import type { MassimSessionNews, MassimSessionOptions, MassimWorkerApi } from './massim-session-api';
import type { RddlSessionSource } from './rddlsim-environments';
import type { MessageSummary, RoundSummary, SessionNote, TurnSnapshot } from '../src/core/protocols/reading';

/** Everything needed to start a session. */
export interface SessionConfig {
  protocol: ProtocolId;
  /** Environment id from the protocol's catalogue (e.g. an RDDL example domain). */
  environment: string;
  rounds: number;
  seed: number;
  /** Pause between turns in ms; 0 runs as fast as possible. */
  delayMs: number;
  /** Time the policy may take per call, in ms. */
  budgetMs: number;
  policy: PolicySource;
  /** Start paused before the first decision (the Step button from idle). */
  startPaused: boolean;
  /** MASSim: the match and the other teams' policy (`policy` is the first team's). */
  massim?: MassimSessionOptions;
  /** rddlsim: the RDDL texts to play (as edited); without it, the built-in `environment` as shipped. */
  rddl?: RddlSessionSource;
}

/** Where a session stands. */
export type SessionStatus = 'running' | 'paused' | 'awaiting-decision' | 'finished' | 'stopped' | 'failed';

/**
 * Actions the client adapter refused to send as they are (unknown action name, wrongly typed value): the
 * session waits until the learner sends them anyway (to see what the server does) or stops.
 */
export interface PendingDecision {
  round: number;
  turn: number;
  problems: string[];
  /** The message that would be sent. */
  message: string;
}

/** One batch of news from the worker. */
export interface SessionUpdate {
  /** The transcript header, first batch only (messages and annotations arrive in batches). */
  header?: Omit<Transcript, 'messages' | 'annotations'>;
  messages: TranscriptMessage[];
  annotations: Annotation[];
  status?: SessionStatus;
  /** Where the session is, for the status line. */
  position?: { round: number; turn: number };
  /** The policy failed (syntax error, throw, budget): shown located in the editor. */
  fault?: PolicyFault;
  /** Set when the session waits for a decision; null when it no longer does. */
  decision?: PendingDecision | null;
  /** An error of the session itself (environment failed to load...), in one sentence. */
  error?: string;
  /** MASSim: the reading of the transcript, which stays in the worker (see `massim-session-api.ts`). */
  massim?: MassimSessionNews;
  /**
   * The worker's reading of this batch's messages (see `reader-news.ts`), so the page does not parse
   * them again; absent when the protocol's runner does not read, and the page reads itself.
   */
  read?: ReaderNews;
  /** True when the worker stores the session's transcript itself whenever it pauses or ends. */
  keepsTranscript?: boolean;
  /**
   * Set when the batch's messages and annotations travel as a second JSON text (`{ messages,
   * annotations }`, see `SessionListener.update`) instead of in `messages` and `annotations`: the page
   * keeps that text and parses it only when it shows one of them. Always comes with `read`.
   */
  deferred?: { messages: number };
}

/** Where a turn is, without its fluents: the page reads those from the message when it shows the turn. */
export type TurnPlace = Pick<TurnSnapshot, 'index' | 'round' | 'turn' | 'reward'>;

/** What a batch changed in the reading of a transcript: rows, turns and notes grow, rounds are patched. */
export interface ReaderNews {
  /** Log rows of the batch's messages. */
  messages: MessageSummary[];
  /** The batch's turns. */
  turns: TurnPlace[];
  /** Round summaries from position `roundsFrom` on (replacing what was there: the last round grows). */
  roundsFrom: number;
  rounds: RoundSummary[];
  /** Notes attached by the batch's annotations. */
  notes: SessionNote[];
}

/** Receives updates; passed to the worker wrapped in `Comlink.proxy`. */
export interface SessionListener {
  /** One batch as JSON; with `deferred` set, its messages and annotations come as `deferredJson`. */
  update(batchJson: string, deferredJson?: string): void;
}

/** What the session worker exposes. */
export interface SessionWorkerApi {
  /** Starts a session (stopping any running one). Resolves when it has started, not when it ends. */
  start(config: SessionConfig, listener: SessionListener): Promise<void>;
  pause(): void;
  resume(): void;
  /** Runs until the next decision of the policy, then pauses. */
  step(): void;
  stop(): void;
  setDelay(ms: number): void;
  /** Answers a pending decision: send the refused actions as they are, or stop the session. */
  decide(choice: 'send' | 'stop'): void;
  /** MASSim: what the views ask about the session or transcript on show. */
  massim: MassimWorkerApi;
}
