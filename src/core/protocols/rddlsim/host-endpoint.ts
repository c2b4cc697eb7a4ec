/**
 * The emulated rddlsim server as a sans-IO endpoint: any byte transport (the command line's TCP server, a
 * test) connects, feeds what a client sends and carries out what comes back. Each connection is one
 * `HostConnection` of one `RddlsimHost`, so session ids, seeds and the process-wide no-header flag are the
 * real server's. On top of the host's effects it writes each burst of messages in one `send` (a
 * round-init and turn 1 leave together and never wait on Nagle or a delayed ACK), names what happens in
 * log lines, and, when recording, keeps each session's transcript with the annotations the emulated
 * session records (world after each turn, rewards, notes, violations).
 */
import type { SansIoEndpoint, WirePeer, WireSink } from '../contract';
import type { Transcript } from '../../transcript/model';
import { TranscriptRecorder } from '../../transcript/recorder';
import { concatBytes } from '../../transport/bytes';
import { parseClientMessage } from './codec';
import { encodeFrame } from './framing';
import { RddlsimHost, type HostConnection, type HostEffect } from './host';
import type { RddlsimServerMessage } from './messages';

/** How a session ended, for the server's log and its statistics. */
export interface RddlsimSessionEnd {
  sessionId: number;
  /** The instance the client asked for, when its session-request could be read. */
  instance: string | undefined;
  /** session-end was sent: the session completed. */
  completed: boolean;
  /** Rounds and total reward of session-end, when it was sent. */
  rounds: number;
  totalReward: number | undefined;
  /** A note (the host's, or the shutdown's) already said why the session ended early. */
  explained: boolean;
  /** The session's transcript, when recording. */
  transcript: Transcript | undefined;
}

/** What identifies a session, for its transcript's meta. */
export interface RddlsimSessionIdentity {
  sessionId: number;
  /** The seed it simulates with (the host's seed + id - 1). */
  seed: number;
  rounds: number;
  /** The client's address as the transport gives it. */
  client: string;
}

/** Options of the endpoint. */
export interface RddlsimHostEndpointOptions {
  /** Record one transcript per session, with the meta made from what identifies the session. */
  record?: {
    meta(session: RddlsimSessionIdentity): Transcript['meta'];
    now?: () => number;
    /**
     * One recorder for every session (each its own connection in it, sessions one after another), instead
     * of a transcript per session; `meta` is then not asked.
     */
    recorder?: TranscriptRecorder;
  };
  /** One line per event worth an operator's attention (`session 3: ...`). */
  log(line: string): void;
  /** Called once per session, when its connection has ended. */
  onSessionEnd?(end: RddlsimSessionEnd): void;
}

/** A connection as transports see it: a peer with the name logs use. */
export type RddlsimServedPeer = WirePeer<Uint8Array> & { readonly label: string };

/** `RddlsimHost` behind the one sans-IO shape every transport serves. */
export class RddlsimHostEndpoint implements SansIoEndpoint<Uint8Array, Uint8Array> {
  readonly host: RddlsimHost;
  readonly #options: RddlsimHostEndpointOptions;
  readonly #open = new Set<ServedSession>();
  #ended = 0;

  constructor(host: RddlsimHost, options: RddlsimHostEndpointOptions) {
    this.host = host;
    this.#options = options;
  }

  /** Sessions whose connections are still open. */
  get activeSessions(): number {
    return this.#open.size;
  }

  /** Sessions that have ended (completed or not). */
  get endedSessions(): number {
    return this.#ended;
  }

  connect(sink: WireSink<Uint8Array>, connection: { id: string; remote?: string }): RddlsimServedPeer {
    const { seed, rounds } = this.host.options;
    const session = new ServedSession(this.host.accept(), sink, connection.remote ?? connection.id, {
      ...this.#options,
      seed,
      rounds,
      onSessionEnd: (end) => {
        this.#open.delete(session);
        this.#ended++;
        this.#options.onSessionEnd?.(end);
      },
    });
    this.#open.add(session);
    return session;
  }

  /**
   * The server is stopping: each open session notes why, in its log and its transcript. The transport
   * then drops the connections.
   */
  shutdown(reason: string): void {
    for (const session of this.#open) session.noteShutdown(reason);
  }
}

/** One client's session: the host connection's effects carried out. */
class ServedSession implements RddlsimServedPeer {
  readonly label: string;
  readonly #connection: HostConnection;
  readonly #sink: WireSink<Uint8Array>;
  readonly #options: RddlsimHostEndpointOptions;
  readonly #recorder: TranscriptRecorder | undefined;
  readonly #connectionId: string;
  #instance: string | undefined;
  #completed = false;
  #rounds = 0;
  #totalReward: number | undefined;
  /** round-num of the current round-init, and how many rounds counted so far (monitor mode). */
  #roundInitNum = 0;
  #roundsCounted = 0;
  /** When recording: the transcript index of each of the connection's records, in the host's counting. */
  readonly #records: number[] = [];
  #requestSeen = false;
  #explained = false;
  #clientCloseRecorded = false;
  #finished = false;

  constructor(
    connection: HostConnection,
    sink: WireSink<Uint8Array>,
    remote: string,
    options: RddlsimHostEndpointOptions & { seed: number; rounds: number },
  ) {
    this.#connection = connection;
    this.#sink = sink;
    this.#options = options;
    const id = connection.sessionId;
    this.label = `session ${id}`;
    this.#connectionId = `session-${id}`;
    if (options.record?.recorder) this.#recorder = options.record.recorder;
    else if (options.record) {
      const { seed, rounds } = options;
      this.#recorder = new TranscriptRecorder({
        protocol: 'rddlsim',
        ...(options.record.now ? { now: options.record.now } : {}),
        meta: options.record.meta({ sessionId: id, seed: seed + id - 1, rounds, client: remote }),
      });
    }
    this.#recorder?.addConnection(this.#connectionId, `session ${id} (${remote})`);
    options.log(`${this.label}: connection from ${remote}`);
  }

  /** Bytes from the client (the one thing that happens thousands of times a second: no closure made). */
  receive(chunk: Uint8Array): void {
    try {
      this.#apply(this.#connection.receive(chunk));
    } catch (error) {
      this.#internalError(error);
    }
  }

  /** The client closed, or the transport lost the connection: the session ends. */
  end(): void {
    if (this.#finished) return;
    try {
      this.#clientClosed();
      this.#finish();
    } catch (error) {
      this.#internalError(error);
      this.#finish();
    }
  }

  noteShutdown(reason: string): void {
    if (this.#finished) return;
    this.#note(`closing: ${reason}`);
    this.#recorder?.annotate('note', {
      code: 'protoplay.serve.shutdown',
      message: `the server was stopped: ${reason}`,
    });
  }

  /** A bug must cost one session, never the server: log it and close the connection. */
  #internalError(error: unknown): void {
    const detail = error instanceof Error ? error.message : String(error);
    this.#options.log(`${this.label}: internal error, closing the connection: ${detail}`);
    this.#recorder?.annotate('error', { source: 'server', message: `internal error: ${detail}` });
    this.#explained = true;
    this.#sink.close('internal error');
  }

  /**
   * The client closed its side. The host first reports any unterminated rest it still held, then counts
   * the close, then reacts; the transcript records them in that order.
   */
  #clientClosed(): void {
    if (this.#connection.closed) {
      this.#recordClientClose(false);
      return;
    }
    const effects = this.#connection.clientClosed();
    const firstReaction = effects.findIndex((effect) => effect.kind !== 'received');
    const split = firstReaction < 0 ? effects.length : firstReaction;
    this.#apply(effects.slice(0, split));
    this.#recordClientClose(true);
    this.#apply(effects.slice(split));
  }

  /** Records the client's close once; `countedByHost` when the host counts it among its records. */
  #recordClientClose(countedByHost: boolean): void {
    if (this.#clientCloseRecorded) return;
    this.#clientCloseRecorded = true;
    const record = this.#recorder?.event(this.#connectionId, 'c2s', 'close');
    if (record && countedByHost) this.#records.push(record.index);
  }

  #apply(effects: HostEffect[]): void {
    const recorder = this.#recorder;
    const connectionId = this.#connectionId;
    // Each message framed by the one encoder; the burst leaves in one send.
    const burst: Uint8Array[] = [];
    let close = false;
    for (const effect of effects) {
      switch (effect.kind) {
        case 'received': {
          if (!this.#requestSeen) {
            this.#requestSeen = true;
            if (effect.text !== undefined) this.#logRequest(effect.text);
          }
          if (recorder) {
            const framing = effect.framing === 'none' ? 'none' : undefined;
            const record =
              effect.text !== undefined
                ? recorder.text(connectionId, 'c2s', effect.text, framing)
                : recorder.bytes(connectionId, 'c2s', effect.bytes, framing);
            this.#records.push(record.index);
          }
          break;
        }
        case 'send': {
          burst.push(encodeFrame(effect.text, effect.framing));
          this.#observe(effect.message);
          if (recorder) {
            const record = recorder.text(
              connectionId,
              's2c',
              effect.text,
              effect.framing === 'none' ? 'none' : undefined,
            );
            this.#records.push(record.index);
            if (effect.message.type === 'turn') this.#recordWorld(effect.message.turnNum, record.index);
            this.#annotateRewards(effect.message, record.index);
          }
          break;
        }
        case 'close':
          close = true;
          if (recorder) this.#records.push(recorder.event(connectionId, 's2c', 'close').index);
          break;
        case 'note':
          this.#note(effect.note.message);
          recorder?.annotate('note', effect.note);
          break;
        case 'violation': {
          // The host counts this connection's records from 0; a recorded transcript numbers them alike
          // unless some were left out, so the index is looked up.
          const index = recorder ? (this.#records[effect.violation.index] ?? -1) : effect.violation.index;
          const message = effect.violation.message.replace(/^message \d+/, `message ${index}`);
          this.#options.log(`${this.label}: the client broke a rule: ${message}`);
          if (recorder && index >= 0)
            recorder.annotate('violation', { role: 'server', ...effect.violation, index, message }, index);
          break;
        }
        case 'step': {
          const { step } = effect;
          const index = this.#records.at(-1) ?? -1;
          if (recorder && step.outcome.kind === 'ok' && index >= 0)
            recorder.annotate(
              'reward',
              { kind: 'step', round: step.round, turn: step.step, reward: step.outcome.reward },
              index,
            );
          break;
        }
      }
    }
    if (burst.length > 0) this.#sink.send(burst.length === 1 ? burst[0]! : concatBytes(burst));
    if (close) this.#sink.close();
  }

  /** Tracks what the log and the statistics need from what the server sent. */
  #observe(message: RddlsimServerMessage): void {
    switch (message.type) {
      case 'round-init':
        this.#roundInitNum = message.roundNum;
        return;
      case 'round-end':
        if (this.#roundInitNum === this.#roundsCounted + 1) this.#roundsCounted++;
        return;
      case 'session-end':
        this.#completed = true;
        this.#rounds = message.roundsUsed;
        this.#totalReward = message.totalReward;
        return;
      default:
        return;
    }
  }

  #recordWorld(turn: number, index: number): void {
    const snapshot = this.#connection.snapshot();
    if (!snapshot) return;
    this.#recorder!.annotate(
      'world',
      {
        round: snapshot.round,
        turn,
        state: snapshot.stateFluents,
        observations: snapshot.observations,
        internal: snapshot.internalFluents,
      },
      index,
    );
  }

  #annotateRewards(message: RddlsimServerMessage, index: number): void {
    const recorder = this.#recorder!;
    if (message.type === 'round-end') {
      const counted = this.#roundInitNum === this.#roundsCounted;
      recorder.annotate(
        'reward',
        {
          kind: 'round',
          round: this.#roundInitNum,
          reward: message.roundReward,
          turns: message.turnsUsed,
          counted,
        },
        index,
      );
    } else if (message.type === 'session-end') {
      recorder.annotate(
        'reward',
        { kind: 'total', reward: message.totalReward, rounds: message.roundsUsed },
        index,
      );
    }
  }

  #logRequest(text: string): void {
    try {
      const request = parseClientMessage(text);
      if (request.type !== 'session-request') return;
      this.#instance = request.problemName;
      if (this.#recorder) this.#recorder.transcript.meta.instance = request.problemName;
      this.#options.log(`${this.label}: '${request.clientName}' asks for ${request.problemName}`);
    } catch {
      // The host notes what is wrong with the request.
    }
  }

  #note(message: string): void {
    this.#explained = true;
    this.#options.log(`${this.label}: ${message}`);
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#recordClientClose(false);
    this.#options.onSessionEnd?.({
      sessionId: this.#connection.sessionId,
      instance: this.#instance,
      completed: this.#completed,
      rounds: this.#rounds,
      totalReward: this.#totalReward,
      explained: this.#explained,
      transcript: this.#recorder?.transcript,
    });
  }
}
