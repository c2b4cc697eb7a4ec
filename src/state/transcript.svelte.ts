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
    void this.#version;
    return this.#reader?.messages ?? [];
  }

  get rounds(): readonly RoundSummary[] {
    void this.#version;
    return this.#reader?.rounds ?? [];
  }

  get turns(): readonly TurnSnapshot[] {
    void this.#version;
    return this.#reader?.turns ?? [];
  }

  get notes(): readonly SessionNote[] {
    void this.#version;
    return this.#reader?.notes ?? [];
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
    this.#reader.append(messages, annotations);
    this.#version++;
  }

  /** Forgets the transcript. */
  clear(): void {
    this.#transcript = undefined;
    this.#reader = undefined;
    this.#version++;
  }
}
