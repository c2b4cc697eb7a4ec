import type { Annotation, Transcript, TranscriptMessage } from '../core/transcript/model';
import type {
  MessageSummary,
  RoundSummary,
  SessionNote,
  TranscriptReader,
  TurnSnapshot,
} from './protocols/adapter';

/** Where the transcript on screen came from. */
export type TranscriptOrigin = 'live' | 'restored' | 'imported';

/**
 * The transcript on screen and its reading for the views. Messages can number in the tens of thousands,
 * so they are kept in plain arrays (never deeply reactive) and a version counter tells views when to look
 * again.
 */
export class TranscriptState {
  #transcript: Transcript | undefined;
  #reader: TranscriptReader | undefined;
  #version = $state(0);
  origin = $state<TranscriptOrigin>('live');
  // Fresh arrays after every append: views compare by reference, and the reader grows its arrays in place.
  #messages = $state.raw<readonly MessageSummary[]>([]);
  #rounds = $state.raw<readonly RoundSummary[]>([]);
  #turns = $state.raw<readonly TurnSnapshot[]>([]);
  #notes = $state.raw<readonly SessionNote[]>([]);
  #types = $state.raw<readonly string[]>([]);

  /** The full transcript (plain data), or undefined before any session. */
  get transcript(): Transcript | undefined {
    void this.#version;
    return this.#transcript;
  }

  /** A counter that changes whenever messages or annotations are added. */
  get version(): number {
    return this.#version;
  }

  get messages(): readonly MessageSummary[] {
    return this.#messages;
  }

  /** Rounds as far as seen; a round object is replaced (not changed) when it changes. */
  get rounds(): readonly RoundSummary[] {
    return this.#rounds;
  }

  get turns(): readonly TurnSnapshot[] {
    return this.#turns;
  }

  get notes(): readonly SessionNote[] {
    return this.#notes;
  }

  /** The message types present, in order of first appearance (kept as messages arrive, not recounted). */
  get types(): readonly string[] {
    return this.#types;
  }

  /** The message at an index, with its exact text. */
  message(index: number): TranscriptMessage | undefined {
    return this.#transcript?.messages[index];
  }

  /** Starts showing a transcript (empty for a new session, complete for an import). */
  reset(transcript: Transcript, reader: TranscriptReader, origin: TranscriptOrigin): void {
    this.#transcript = {
      ...transcript,
      connections: [...transcript.connections],
      messages: [],
      annotations: [],
    };
    this.#reader = reader;
    this.origin = origin;
    this.append(transcript.messages, transcript.annotations);
  }

  /** Adds messages and annotations at the end (the transcript is append-only). */
  append(messages: readonly TranscriptMessage[], annotations: readonly Annotation[]): void {
    const transcript = this.#transcript;
    if (!transcript || !this.#reader) return;
    for (const message of messages) transcript.messages.push(message);
    for (const annotation of annotations) transcript.annotations.push(annotation);
    for (const message of messages) {
      if (!transcript.connections.some((c) => c.id === message.conn))
        transcript.connections.push({ id: message.conn });
    }
    const reader = this.#reader;
    const known = reader.messages.length;
    reader.append(messages, annotations);
    const types = [...this.#types];
    for (const { type } of reader.messages.slice(known)) if (!types.includes(type)) types.push(type);
    if (types.length > this.#types.length) this.#types = types;
    this.#messages = reader.messages.slice();
    // Only the last round can still change: it is copied, so a view holding it sees a new object.
    const rounds = reader.rounds;
    this.#rounds = rounds.map((round, i) =>
      i < rounds.length - 1 && this.#rounds[i]?.endIndex !== undefined
        ? this.#rounds[i]!
        : { ...round, stepRewards: round.stepRewards.slice() },
    );
    this.#turns = reader.turns.slice();
    this.#notes = reader.notes.slice();
    this.#version++;
  }
}
