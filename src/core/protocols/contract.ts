/**
 * The one contract every protocol fulfils. A protocol is one folder (`src/core/protocols/<id>/`) exporting a
 * `Protocol` value, and one line in the registry (`registry.ts`). The transcript layer, the workers, the
 * page's state and the command line see a protocol only through this value: they name no protocol.
 */
import type { CallOutcome, CallSite, SamplePolicy } from '../policy/types';
import type {
  Annotation,
  Direction,
  HttpMessageMeta,
  Transcript,
  TranscriptMessage,
} from '../transcript/model';
import type { ProtocolMachine } from './machine';
import type { TranscriptReader } from './reading';
import type { ProtocolEvaluation } from './evaluation-contract';
import type { ProtocolPlayground } from './session-contract';
import type { TranscriptReplay } from './replay';

/** A message cut out of a byte stream, without its framing bytes. */
export interface StreamFrame {
  /** May share memory with the chunk it came in: copy it to keep it after the chunk is reused. */
  bytes: Uint8Array;
  /** How the message was delimited (the transcript's `framing`). */
  framing: NonNullable<TranscriptMessage['framing']>;
  /** Set when no terminator came within the size limit and the message was cut there. */
  oversize?: true;
}

/** Cuts one direction of a byte stream into messages, fed in chunks. */
export interface StreamSplitter {
  push(chunk: Uint8Array): StreamFrame[];
  /** End of stream: whatever is left, unterminated. */
  end(): StreamFrame[];
}

/** How a stream protocol delimits its messages (rddlsim and MASSim: one 0 byte after each). */
export interface StreamFraming {
  /** The framing recorded on messages when nothing else is said. */
  framing: NonNullable<TranscriptMessage['framing']>;
  /** A splitter for one direction; `maxFrameBytes` caps a message (longer ones are cut and reported). */
  splitter(dir: Direction, options?: { maxFrameBytes?: number }): StreamSplitter;
  /** A message's bytes as they go on the wire, terminator included. */
  encode(text: string): Uint8Array;
  /**
   * The byte ending every message, when there is one: the command line's TCP transports then refuse a
   * peer that sends too much without it.
   */
  terminator?: number;
  /**
   * The byte ending every message a client sends, when only that direction has one (rddlsim: a server in
   * `<no-header/>` mode sends none): the command line's TCP server then refuses a client that sends too
   * much without it.
   */
  clientTerminator?: number;
}

/** How a protocol's messages travel. */
export type Transport =
  /** A TCP connection per agent (or session), messages delimited in the byte stream. */
  | { kind: 'tcp'; defaultPort: number; framing: StreamFraming }
  /**
   * HTTP requests from the client, each answered by one response. A session is not a connection (a
   * client may open a new one per request): `sessionOf` says which session a request belongs to, from
   * what the protocol puts in it (a path segment, a token). With it, the generic `serve` opens a fresh
   * host connection (`endpoints.host(setup).connect`) on the first request of a session, hands it every
   * request of that session, and each message the host sends answers that session's oldest unanswered
   * request; the host ends the session by closing it. A request it reads no session from is refused (400).
   * The client is a `SansIoClient<HttpMessage, HttpMessage>`: what it sends are requests, what it
   * receives their responses, in order.
   */
  | {
      kind: 'http';
      defaultPort: number;
      sessionOf?(request: HttpMessage): string | undefined;
      /**
       * The agent a request speaks for, recorded as the channel of the request and of its response: one
       * agent is one conversation whatever connections carry its requests.
       */
      channelOf?(request: HttpMessage): string | undefined;
    }
  /** A WebSocket; each text frame is one message. */
  | {
      kind: 'websocket';
      defaultPort: number;
      path?: string;
      /** The agent a frame speaks for or to, recorded as its channel, when one socket carries several. */
      channelOf?(text: string, dir: Direction): string | undefined;
    };

/** An HTTP request or response as a sans-IO host or client sees it. */
export interface HttpMessage {
  meta: Omit<HttpMessageMeta, 'exchange'>;
  body: string;
  /**
   * The body's bytes as received, when they are not UTF-8 (`body` then holds them decoded leniently, bad
   * bytes as U+FFFD): a server that reads bytes (Python's `json.loads`) reads these.
   */
  bytes?: Uint8Array;
}

/** What one transport carries in each direction, as seen by a sans-IO endpoint. */
export type WireData = Uint8Array | string | HttpMessage;

/** Where a sans-IO endpoint's output goes: the transport (a socket, a worker, a test) implements it. */
export interface WireSink<Out extends WireData = WireData> {
  send(data: Out): void;
  /** The endpoint closes the connection (after what it sent). */
  close(reason?: string): void;
}

/** One connection of a sans-IO endpoint: the transport feeds it what arrives. */
export interface WirePeer<In extends WireData = WireData> {
  receive(data: In): void;
  /** The other side closed (or the transport failed: `reason` says how). */
  end(reason?: string): void;
}

/**
 * A host (an emulated server) or a client, with no I/O of its own: the transport calls `connect` for each
 * connection, hands it what arrives, and carries out what it sends. The same value runs behind a TCP
 * socket, an HTTP server, a WebSocket, a worker or a test.
 */
export interface SansIoEndpoint<In extends WireData = WireData, Out extends WireData = WireData> {
  connect(sink: WireSink<Out>, connection: { id: string; remote?: string }): WirePeer<In>;
}

/** A decision a sans-IO client asks of its policy: a hook to call and its arguments. */
export interface DecisionRequest {
  /** The policy's hook (`act`, or a protocol's own entry such as a team call). */
  hook: string;
  args: readonly unknown[];
  /** Where the session is, for budget messages and the status line. */
  site: CallSite;
}

/** Where a sans-IO client's output goes: the wire, and the questions for its policy. */
export interface ClientSink<Out extends WireData = WireData> extends WireSink<Out> {
  /**
   * Asks the policy for a decision. The driver calls the policy (asynchronously: in a worker, a thread,
   * or held by the learner's pause) and hands the outcome back through `ClientPeer.decided`.
   */
  decide(request: DecisionRequest): void;
}

/** One connection of a sans-IO client: what arrives, and the outcomes of the decisions it asked for. */
export interface ClientPeer<In extends WireData = WireData> extends WirePeer<In> {
  /** The outcome of the oldest decision asked for and not yet answered. */
  decided(outcome: CallOutcome): void;
  /**
   * True while the client reads nothing more (it waits for a decision before it may read on): the driver
   * then holds what arrives, in order, and feeds it once the flag is down again. Read after every call.
   * A client whose server does not wait for it (a MASSim agent) never sets it, and reads on while its
   * decisions are made.
   */
  readonly paused?: boolean;
}

/**
 * A client with no I/O of its own that asks a policy for its decisions. `driveClient`
 * (`src/core/session/client-driver.ts`) turns it into a `SansIoEndpoint` given how to ask the policy, so
 * the same client plays over TCP on the command line, in the page's session worker, and in a test.
 */
export interface SansIoClient<In extends WireData = WireData, Out extends WireData = WireData> {
  connect(sink: ClientSink<Out>, connection: { id: string; remote?: string }): ClientPeer<In>;
}

/** What a session is played with: the environment, how many rounds, the seed. */
export interface PlaySetup {
  /** An id from the protocol's `environments`. */
  environment: string;
  rounds: number;
  seed: number;
  /** The protocol's own options (`ProtocolEndpoints.options`) that were given, by name. */
  options?: Readonly<Record<string, string | number>>;
}

/**
 * An option a protocol adds to the command line's generic commands (`--name VALUE`); its value reaches the
 * endpoints in `PlaySetup.options`. `side` says which endpoint reads it: `host` options are taken by `run`
 * and `serve`, `client` options by `run` and `connect`.
 */
export interface PlayOption {
  /** Long option name, without the dashes; not one of the generic commands' own. */
  name: string;
  /** `integer` values are checked and handed over as numbers. */
  type: 'string' | 'integer';
  /** How the help names the value (`NAME`, `N`). */
  valueName: string;
  description: string;
  side: 'host' | 'client';
}

/**
 * The endpoints of a protocol that plays with the generic runners: the page's emulated session, and the
 * command line's `run`, `serve` and `connect` (over the protocol's transport).
 */
export interface ProtocolEndpoints<In extends WireData = WireData, Out extends WireData = WireData> {
  /** A fresh emulated server for one session (each connection it accepts plays one). */
  host(setup: PlaySetup): SansIoEndpoint<Out, In>;
  /** A client asking its policy for every decision; `In` is what the server sends. */
  client(setup: Pick<PlaySetup, 'seed' | 'options'>): SansIoClient<In, Out>;
  /** Options of its own for the generic commands. */
  options?: readonly PlayOption[];
}

/** One file (or pasted text) handed to an importer. */
export interface ImportInput {
  /** File name (a path is fine) or `pasted text`. */
  name: string;
  bytes: Uint8Array;
}

/** A problem found while importing, located in its file. */
export interface ImportProblem {
  file: string;
  /** 1-based line, when the file is text. */
  line?: number;
  /** 0-based byte offset, when the file is binary or has no lines. */
  byte?: number;
  message: string;
}

/** What an importer made of its inputs: the sessions it found and what it could not read. */
export interface ImportOutcome {
  transcripts: Transcript[];
  problems: ImportProblem[];
  /**
   * For each transcript, in the same order, the names of the inputs it was read from, when the format
   * tells them apart (one session per file, per pair of streams, per replay folder); without it, each
   * transcript was read from all the inputs.
   */
  sources?: string[][];
}

/** A recording format a protocol can import. */
export interface RecordingFormat {
  /** Stable id (`rddlsim-record-file`). */
  id: string;
  /** For the UI: `a recorded rddlsim session (record file)`. */
  description: string;
  /**
   * How sure the format is that it can read these inputs, from 0 (not at all) to 1 (certain), judged from
   * their names and first bytes only.
   */
  detect(inputs: readonly ImportInput[]): number;
  /** Reads the inputs (all belonging to one recording). Never throws for bad content: it reports it. */
  read(inputs: readonly ImportInput[]): ImportOutcome;
  /**
   * For formats whose one file is one session, or several one after the other: reads a file fed in
   * chunks, handing over each message as soon as it is complete (and each next session, see
   * `RecordingStreamSink.session`), so a file too big to hold is read in bounded memory. Absent when the
   * format needs its inputs whole.
   */
  stream?(name: string, sink: RecordingStreamSink): RecordingStreamReader;
}

/** Where a streaming reader hands what it read. */
export interface RecordingStreamSink {
  /** The next message, `index` counted from 0 within the file. */
  message(message: TranscriptMessage): void;
  /**
   * The next annotation, after the message it hangs off, for formats that carry annotations (Protoplay
   * JSON); they go to the protocol's reader with the messages, as when a file is read whole.
   */
  annotation?(annotation: Annotation): void;
  problem(problem: ImportProblem): void;
  /**
   * The messages from here on are the next session of the same file, for formats that tell where one
   * session ends and the next begins (an rddlsim wire text or pyRDDLGym log of several runs): their
   * `index` counts from 0 again and their `conn` is the new session's. A sink without `session` gets
   * them as more of the first session (indexes going on, its `conn`).
   */
  session?(): void;
}

/** A recording format's reader for one file fed in chunks. */
export interface RecordingStreamReader {
  /** The chunk may be reused by the caller once this returns. */
  push(chunk: Uint8Array): void;
  /** End of the file: what is left is read or reported. */
  end(): void;
}

/** A built-in environment a learner can pick (an RDDL domain and instance, a MASSim scenario...). */
export interface EnvironmentChoice {
  id: string;
  label: string;
  /** One sentence: what the agent controls and what it is rewarded for. */
  description: string;
}

/** A part of a message that can be shown decoded (rddlsim's base64 task). */
export interface EmbeddedContent {
  label: string;
  content: string;
}

/** How the validator groups a transcript's messages before it runs the machines on each group. */
export type ValidationScope = 'connection' | 'channel';

/** Everything Protoplay knows about one protocol. */
export interface Protocol {
  /** Id used in transcripts, links and the command line (`rddlsim`). */
  id: string;
  /** Name for people (`RDDLSim`). */
  label: string;
  /** One line for help and the picker. */
  description: string;
  transport: Transport;
  /** The machines of both roles, used to validate every transcript, imported or live. */
  machines: readonly ProtocolMachine<unknown>[];
  /** `connection` (the default): each connection is one conversation; `channel`: each agent on it is. */
  validationScope?: ValidationScope;
  /** Recording formats this protocol reads, most specific first. */
  recordingFormats: readonly RecordingFormat[];
  /** Message types in protocol order, for the log's filter. */
  messageTypes: readonly string[];
  /**
   * A fresh pure reader of this protocol's transcripts, for every view. `forgetMessages`: the caller reads
   * each batch's rows and rounds and then forgets them (a streamed inspection), so the reader need not keep
   * the messages themselves either.
   */
  createReader(options?: { forgetMessages?: boolean }): TranscriptReader;
  /** The message text indented for reading; the raw text when it cannot be parsed. */
  prettyPrint(text: string): string;
  /** Parts of a message worth decoding on demand (empty when none). */
  embeddedContent(text: string): EmbeddedContent[];
  environments: readonly EnvironmentChoice[];
  defaultEnvironment: string;
  samples: readonly SamplePolicy[];
  defaultSample: string;
  /** TypeScript declarations of an environment's observations, actions and context, for the editor. */
  policyTypes(environment: string): Promise<string>;
  /** How the page's session worker plays it (loaded on first use); absent: the page can only show it. */
  playground?: ProtocolPlayground;
  /**
   * Its emulated server and its policy-driven client, for the generic runners: a protocol that gives them
   * gets the page's emulated sessions (`emulatedPlaygroundRunner`) and the command line's `run`, `serve`
   * and `connect` without code of its own there.
   */
  endpoints?: ProtocolEndpoints;
  /** How episodes are played for `protoplay evaluate` and the page's Evaluate; absent: not evaluable. */
  evaluation?: ProtocolEvaluation;
  /**
   * "Continue in the playground": a recording's agent side played again against the emulated host, and
   * where the host's answers differ from the recorded ones (`replay.ts`); loaded on first use. Absent: the
   * protocol has no emulated host to compare with.
   */
  replay?: { load(): Promise<TranscriptReplay> };
  /**
   * Why rounds ended before their planned length, read from a session's messages where they allow it
   * (rddlsim: the task's model and the actions sent in the state observed, see `EarlyRoundEnds`); loaded
   * on first use, since it may need the environment's interpreter. Absent: the protocol has nothing to say.
   * `prepare` loads it and does ahead the work its first session would start with (rddlsim: building the
   * RDDL parser), for a file that is coming (the page's `prepareOpen`).
   */
  roundEnds?: { load(): Promise<() => RoundEndReading>; prepare?(): Promise<void> };
}

/**
 * Follows one session's messages, in order, and says why rounds ended early. Rounds are numbered as the
 * protocol's `TranscriptReader` numbers them.
 */
export interface RoundEndReading {
  accept(message: TranscriptMessage): void;
  /** The rounds that ended before their planned length, in order, with why; only those there is something to say of. */
  readonly ended: readonly EarlyRoundEnd[];
}

/** A round that ended before its planned length: its number, the message that ended it, and why. */
export interface EarlyRoundEnd {
  round: number;
  index: number;
  why: string;
}
