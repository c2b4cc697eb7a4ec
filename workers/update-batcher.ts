/**
 * Sends what a session recorded to the page at most once per animation frame: new messages and
 * annotations since the last batch (the transcript is append-only, so "new" is everything past the last
 * lengths sent) plus the latest status, as one JSON string.
 */
import type { Transcript } from '../src/core/transcript/model';
import type { SessionListener, SessionUpdate } from './session-api';

type Extra = Omit<SessionUpdate, 'messages' | 'annotations' | 'header'>;

/** Dedicated workers have requestAnimationFrame in Chromium and Firefox; elsewhere a frame's worth of time. */
const nextFrame: (callback: () => void) => void =
  typeof requestAnimationFrame === 'function'
    ? (callback) => requestAnimationFrame(() => callback())
    : (callback) => setTimeout(callback, 16);

/** Batches one session's updates. */
export class UpdateBatcher {
  readonly #transcript: Transcript;
  readonly #listener: SessionListener;
  #messagesSent = 0;
  #annotationsSent = 0;
  #headerSent = false;
  #extra: Extra = {};
  #scheduled = false;
  #closed = false;

  constructor(transcript: Transcript, listener: SessionListener) {
    this.#transcript = transcript;
    this.#listener = listener;
  }

  /** Notes news (status, fault, decision...); sent with the next batch. Later values replace earlier. */
  note(extra: Extra): void {
    this.#extra = { ...this.#extra, ...extra };
    this.schedule();
  }

  /** Asks for a batch at the next frame (the transcript grew). */
  schedule(): void {
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    nextFrame(() => this.flush());
  }

  /** Sends everything pending now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#closed) return;
    const { messages, annotations, ...header } = this.#transcript;
    const update: SessionUpdate = {
      ...(this.#headerSent
        ? {}
        : { header: { ...header, meta: { ...header.meta }, connections: [...header.connections] } }),
      messages: messages.slice(this.#messagesSent),
      annotations: annotations.slice(this.#annotationsSent),
      ...this.#extra,
    };
    this.#headerSent = true;
    this.#messagesSent = messages.length;
    this.#annotationsSent = annotations.length;
    this.#extra = {};
    this.#listener.update(JSON.stringify(update));
  }

  /** Sends the last batch and stops: a newer session has taken over the page. */
  close(): void {
    this.flush();
    this.#closed = true;
  }

  /** Stops without sending anything more. */
  abandon(): void {
    this.#closed = true;
  }
}
