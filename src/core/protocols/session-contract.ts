/**
 * The playground's side of the protocol contract: how the page's one session worker runs a protocol's
 * emulated sessions and shows its transcripts without naming the protocol. A protocol that plays in the
 * page gives its `Protocol` value a `playground` (see `PlaygroundProtocol`); the runner itself lives in the
 * protocol's folder and is loaded on first use, so neither the page's first paint nor the command line
 * pays for it. Everything a runner needs from its host (policy workers, where updates go, storage, frame
 * timing) is handed in as `PlaygroundServices`: the runner has no I/O of its own.
 */
import type { PolicyEndpoint } from '../policy/supervisor';
import type { CallOutcome, LoadOutcome, PolicyFault, PolicySource } from '../policy/types';
import type { Annotation, ProtocolId, Transcript, TranscriptMessage } from '../transcript/model';
import type { MessageSummary, RoundSummary, SessionNote, TurnSnapshot } from './reading';
import type { EarlyRoundEnd } from './contract';
import type { JournalOutcome, JournalPart } from '../session/transcript-journal';

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
  /**
   * The protocol's own settings (edited RDDL texts, a MASSim match and its other teams), as its page
   * adapter made them; the protocol's runner reads them.
   */
  options?: unknown;
}

/** Where a session stands. */
export type SessionStatus = 'running' | 'paused' | 'awaiting-decision' | 'finished' | 'stopped' | 'failed';

/**
 * A decision the runner holds for the learner (actions the client adapter refused to send as they are):
 * the session waits until the learner sends them anyway (to see what the server does) or stops.
 */
export interface PendingDecision {
  round: number;
  turn: number;
  problems: string[];
  /** The message that would be sent. */
  message: string;
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
  /**
   * The first of `rounds` carries only its step rewards from this position on (the earlier ones were
   * sent before); 0 when it carries them all. See `applyRoundNews`.
   */
  stepsFrom: number;
  rounds: RoundSummary[];
  /** Notes attached by the batch's annotations. */
  notes: SessionNote[];
}

/** Where the transcript on show came from. */
export type TranscriptOrigin = 'live' | 'restored' | 'imported';

/** One batch of news from the session worker, at most one per animation frame. */
export interface SessionUpdate {
  /**
   * Set on the first batch of a session or of a transcript opened for the views: forget what was shown.
   * `keepsTranscript`: the transcript stays in the worker (the page gets its reading only, and asks for
   * the rest); otherwise messages and annotations follow in batches.
   */
  reset?: { protocol: ProtocolId; origin: TranscriptOrigin; name?: string; keepsTranscript: boolean };
  /** The transcript header, with the first batch of a page-kept transcript. */
  header?: Omit<Transcript, 'messages' | 'annotations'>;
  messages: TranscriptMessage[];
  annotations: Annotation[];
  status?: SessionStatus;
  /** Where the session is, for the status line. */
  position?: { round: number; turn: number };
  /** The policy failed (syntax error, throw, budget): shown located in the editor. */
  fault?: PolicyFault;
  /** Who the failed policy belongs to when a session has several (`team B`). */
  faultOwner?: string;
  /** Set when the session waits for a decision; null when it no longer does. */
  decision?: PendingDecision | null;
  /** An error of the session itself (environment failed to load...), in one sentence. */
  error?: string;
  /** The worker's reading of this batch's messages, so the page does not parse them again. */
  read?: ReaderNews;
  /**
   * Set when the batch's messages and annotations travel as a second JSON text (`{ messages,
   * annotations }`) instead of in `messages` and `annotations`: the page parses it only when it shows one
   * of them. Always comes with `read`.
   */
  deferred?: {
    messages: number;
    /**
     * Where each message's JSON starts in the text (it ends one character before the next start; a last
     * start follows the last message as if a comma came next), and where the annotations' array starts
     * and ends: the page can parse the one message it shows, not the whole batch.
     */
    places?: { messages: number[]; annotations: [number, number] };
  };
  /** The protocol's own news for its views (MASSim's timeline, agents and log rows), read by its adapter. */
  views?: unknown;
}

/** Receives updates; the page's end of the session worker. */
export interface SessionListener {
  /** One batch as JSON; with `deferred` set, its messages and annotations come as `deferredJson`. */
  update(batchJson: string, deferredJson?: string): void;
}

/** What the session worker's host gives a runner. */
export interface PlaygroundServices {
  /** A fresh runtime for this protocol's policies (a policy worker in the browser), ready or nearly. */
  spawnPolicy(): PolicyEndpoint;
  /** Where updates go. */
  listener: SessionListener;
  /** Calls back at the next animation frame (or a frame's worth of time later). */
  nextFrame(callback: () => void): void;
  /**
   * Keeps the transcript across reloads, written as Protoplay JSON pieces; the host may refuse big ones.
   * `unfinished`: the session had not ended (a reload then shows it as interrupted).
   */
  keepTranscript(json: readonly string[], how?: { unfinished: boolean }): Promise<void>;
  /**
   * Appends to the stored transcript what a live session recorded since its last store (see
   * `transcript-journal.ts`); hosts without it get the whole transcript through `keepTranscript`.
   */
  keepTranscriptPart?(part: JournalPart): Promise<JournalOutcome>;
}

/** A session or a shown transcript in the worker: the controls and the views' questions. */
export interface PlaygroundSession {
  pause(): void;
  resume(): void;
  /** Runs until the next decision of the policy, then pauses. */
  step(): void;
  stop(): void;
  setDelay(ms: number): void;
  /** Answers a pending decision: send the refused actions as they are, or stop the session. */
  decide(choice: 'send' | 'stop'): void;
  /** Stops talking to the page: a newer session or transcript replaces this one. */
  abandon(): void;
  /** Answers a question of the protocol's views (`world`, `agentView`...); undefined for unknown ones. */
  ask(question: string, args: readonly unknown[]): unknown;
  /** The transcript as Protoplay JSON pieces. */
  exportJson(): string[];
}

/**
 * A transcript still being read from its file: its messages grow (in place, at the end) until `done`.
 * A big recording is shown from its first messages on, while the rest is read.
 */
export interface TranscriptGrowth {
  /** True once the whole file has been read: the transcript grows no more. */
  readonly done: boolean;
  /** Calls `listener` whenever messages were added, and once more when the reading is done. */
  onGrow(listener: () => void): void;
  /**
   * For a runner that reads every message for its views anyway: the file is then read once for both.
   * From this call on, `reading.read()` is called as soon as each batch of messages has been read and
   * validated (and once more at the end): the runner reads the messages it has not read yet, from the
   * transcript's first message on. Once the whole file is read, the summary's round count is
   * `reading.rounds()` instead of that of a reader of the protocol's own. The rounds must be those the
   * protocol's reader (`Protocol.createReader`) would count.
   */
  share?(reading: SharedReading): void;
}

/** A runner's reading of a growing transcript, shared with the summary (see `TranscriptGrowth.share`). */
export interface SharedReading {
  /** Reads the messages added since the last call. */
  read(): void;
  /** How many rounds were read (the summary's count). */
  rounds(): number;
}

/** What the session worker's host says about a transcript it hands to `show`. */
export interface ShownTranscript {
  transcript: Transcript;
  origin: Exclude<TranscriptOrigin, 'live'>;
  /** The file name, for the status line. */
  name?: string;
  /** Present while the transcript is still being read: the runner shows what is there and follows. */
  growing?: TranscriptGrowth;
}

/** A protocol's emulated sessions and transcript views in the session worker. */
export interface PlaygroundRunner {
  /** Starts a session; resolves once it is under way (or has failed to load its policy). */
  start(config: SessionConfig, services: PlaygroundServices): Promise<PlaygroundSession>;
  /** Shows a recorded or stored transcript in the views (read and reported like a session). */
  show(shown: ShownTranscript, services: PlaygroundServices): PlaygroundSession;
}

/** The policy runtime a protocol's policy worker exposes. */
export interface PolicyRuntimeApi {
  load(source: PolicySource): LoadOutcome | Promise<LoadOutcome>;
  call(hook: string, args: readonly unknown[], context: Record<string, unknown>): Promise<CallOutcome>;
}

/** How the page plays a protocol: its runner and its policy runtime, both loaded on first use. */
export interface ProtocolPlayground {
  loadRunner(): Promise<PlaygroundRunner>;
  /** The runtime a policy worker of this protocol runs (the policy runtime, or a team runtime on it). */
  loadPolicyRuntime(): Promise<PolicyRuntimeApi>;
  /** Buffers a policy call hands over to the policy worker instead of copying them. */
  policyTransfer?(hook: string, args: readonly unknown[]): ArrayBuffer[];
}

/** A summary of an opened recording, for the line the page shows after an import. */
export interface ImportSummary {
  protocol: ProtocolId;
  /** The recording format that read the files. */
  format: string;
  /** How many sessions the files held (`shown` is the one on show). */
  sessions: number;
  /** Which session is shown, from 1; the figures below are its own. */
  shown: number;
  /** Every session the files held, in order: what the page offers to show instead. */
  sessionList: ImportedSession[];
  messages: number;
  connections: number;
  rounds: number;
  /** Protocol rules broken, as the protocol's machines judge the shown session. */
  violations: ImportViolation[];
  /** Rounds that ended before their planned length, with why, when the protocol can tell (`Protocol.roundEnds`). */
  earlyRoundEnds: EarlyRoundEnd[];
  /** Parts of the files that could not be read, located. */
  problems: { file: string; line?: number; byte?: number; message: string }[];
}

/** One session of an opened recording, for choosing which is shown. */
export interface ImportedSession {
  /** Its number, from 1. */
  session: number;
  /** The names of the files it was read from (all of them when the format cannot tell). */
  files: string[];
  messages: number;
}

/** A broken rule of an opened recording, for the console. */
export interface ImportViolation {
  index: number;
  rule: string;
  message: string;
  conn: string;
  channel?: string;
}
