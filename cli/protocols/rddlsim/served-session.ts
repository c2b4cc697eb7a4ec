/**
 * One client's session on `protoplay serve`: the bytes of a TCP socket go into the core's sans-IO
 * `HostConnection`, its effects come back out as writes (all messages of one burst in one write, so a
 * round-init and turn 1 leave together and never wait on Nagle or a delayed ACK), a close, log lines and,
 * when recording, the session's transcript with the same annotations the emulated session records.
 */
import type { Socket } from 'node:net';
import type { HostConnection, HostEffect } from '../../../src/core/protocols/rddlsim/host';
import type { RddlsimServerMessage } from '../../../src/core/protocols/rddlsim/messages';
import { parseClientMessage } from '../../../src/core/protocols/rddlsim/codec';
import type { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { Transcript } from '../../../src/core/transcript/model';
import { formatReward } from '../../report/round-report';

/** Bytes queued for a client that does not read before the server stops reading from it. */
const MAX_UNREAD_BYTES = 16 * 1024 * 1024;
/** How long a closed session waits for the client to close its side before the socket is dropped. */
const LINGER_MS = 5_000;

/** How a session ended, for the server's log and its statistics. */
export interface SessionEnd {
  sessionId: number;
  instance: string | undefined;
  /** session-end was sent: the session completed. */
  completed: boolean;
  rounds: number;
  totalReward: number | undefined;
  transcript: Transcript | undefined;
}

/** Options of a served session. */
export interface ServedSessionOptions {
  socket: Socket;
  connection: HostConnection;
  /** Present when sessions are recorded. */
  recorder: TranscriptRecorder | undefined;
  /** Connection id in the transcript. */
  connectionId: string;
  log(line: string): void;
  /** Called once, when the socket has closed. */
  onEnd(end: SessionEnd): void;
}

/** Serves one socket until it closes. */
export class ServedSession {
  readonly #options: ServedSessionOptions;
  readonly #prefix: string;
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
  #lastNote: string | undefined;
  #clientClosedRecorded = false;
  #serverClosed = false;

  constructor(options: ServedSessionOptions) {
    this.#options = options;
    const { socket, connection } = options;
    this.#prefix = `session ${connection.sessionId}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('end', () => this.#guard(() => this.#clientClosed()));
    socket.on('drain', () => socket.resume());
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!this.#serverClosed)
        options.log(`${this.#prefix}: connection error: ${error.code ?? error.message}`);
    });
    socket.on('close', () => this.#guard(() => this.#finish()));
  }

  /** Ends the session from the server side (shutdown): the client sees the connection close. */
  abort(reason: string): void {
    if (this.#serverClosed) return;
    this.#serverClosed = true;
    this.#note(`closing: ${reason}`);
    this.#options.recorder?.annotate('note', {
      code: 'protoplay.serve.shutdown',
      message: `the server was stopped: ${reason}`,
    });
    this.#options.socket.destroy();
  }

  /** Bytes from the client (the one thing that happens thousands of times a second: no closure made). */
  #onData(chunk: Uint8Array): void {
    try {
      this.#apply(this.#options.connection.receive(chunk));
    } catch (error) {
      this.#internalError(error);
    }
  }

  #guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.#internalError(error);
    }
  }

  /** A bug must cost one session, never the server: log it and drop the connection. */
  #internalError(error: unknown): void {
    const detail = error instanceof Error ? error.message : String(error);
    this.#options.log(`${this.#prefix}: internal error, closing the connection: ${detail}`);
    this.#options.recorder?.annotate('error', { source: 'server', message: `internal error: ${detail}` });
    this.#serverClosed = true;
    this.#options.socket.destroy();
  }

  /**
   * The client closed its side. The host first reports any unterminated rest it still held, then counts
   * the close, then reacts; the transcript records them in that order.
   */
  #clientClosed(): void {
    const { connection } = this.#options;
    if (connection.closed) {
      this.#recordClientClose(false);
      return;
    }
    const effects = connection.clientClosed();
    const firstReaction = effects.findIndex((effect) => effect.kind !== 'received');
    const split = firstReaction < 0 ? effects.length : firstReaction;
    this.#apply(effects.slice(0, split));
    this.#recordClientClose(true);
    this.#apply(effects.slice(split));
  }

  /** Records the client's close once; `countedByHost` when the host counts it among its records. */
  #recordClientClose(countedByHost: boolean): void {
    if (this.#clientClosedRecorded) return;
    this.#clientClosedRecorded = true;
    const record = this.#options.recorder?.event(this.#options.connectionId, 'c2s', 'close');
    if (record && countedByHost) this.#records.push(record.index);
  }

  #apply(effects: HostEffect[]): void {
    const { socket, recorder, connectionId } = this.#options;
    // Serialised messages are ASCII: the text is the bytes (written as latin1, no encoding step).
    let burst = '';
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
          burst += effect.framing === 'none' ? effect.text : effect.text + '\0';
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
          this.#serverClosed = true;
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
          this.#options.log(`${this.#prefix}: the client broke a rule: ${message}`);
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
    if (burst.length > 0 && !socket.write(burst, 'latin1') && socket.writableLength > MAX_UNREAD_BYTES)
      socket.pause();
    if (close) {
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    }
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
    const snapshot = this.#options.connection.snapshot();
    if (!snapshot) return;
    this.#options.recorder!.annotate(
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
    const recorder = this.#options.recorder!;
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
      if (this.#options.recorder) this.#options.recorder.transcript.meta.instance = request.problemName;
      this.#options.log(`${this.#prefix}: '${request.clientName}' asks for ${request.problemName}`);
    } catch {
      // The host notes what is wrong with the request.
    }
  }

  #note(message: string): void {
    this.#lastNote = message;
    this.#options.log(`${this.#prefix}: ${message}`);
  }

  #finish(): void {
    const { connection, recorder } = this.#options;
    if (!connection.closed) {
      // The socket went away without a FIN (reset, or our own shutdown): to the host that is a close too.
      this.#clientClosed();
    }
    this.#recordClientClose(false);
    if (this.#completed) {
      this.#options.log(
        `${this.#prefix}: finished ${this.#rounds} rounds, total reward ${formatReward(this.#totalReward ?? NaN)}`,
      );
    } else if (!this.#lastNote) {
      this.#options.log(`${this.#prefix}: closed before the session ended`);
    }
    this.#options.onEnd({
      sessionId: connection.sessionId,
      instance: this.#instance,
      completed: this.#completed,
      rounds: this.#rounds,
      totalReward: this.#totalReward,
      transcript: recorder?.transcript,
    });
  }
}
