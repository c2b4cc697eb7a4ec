/**
 * Sends what a session recorded to the page at most once per animation frame: new messages and
 * annotations since the last batch (the transcript is append-only, so "new" is everything past the last
 * lengths sent), their reading when the session has a reader, plus the latest status, as one JSON string.
 */
import type { Transcript } from '../src/core/transcript/model';
import type { TranscriptReader } from '../src/core/protocols/reading';
import { ReaderNewsBuilder } from './reader-news';
import type { SessionListener, SessionStatus, SessionUpdate } from './session-api';

type Extra = Omit<SessionUpdate, 'messages' | 'annotations' | 'header'>;

/** Options of a batcher. */
export interface UpdateBatcherOptions {
  /** Reads the messages: each batch then carries their reading (the page parses none). */
  reader?: TranscriptReader;
  /** Called with every status as it is sent. */
  onStatus?: (status: SessionStatus) => void;
}

/** Dedicated workers have requestAnimationFrame in Chromium and Firefox; elsewhere a frame's worth of time. */
const nextFrame: (callback: () => void) => void =
  typeof requestAnimationFrame === 'function'
    ? (callback) => requestAnimationFrame(() => callback())
    : (callback) => setTimeout(callback, 16);

/** Batches one session's updates. */
export class UpdateBatcher {
  readonly #transcript: Transcript;
  readonly #listener: SessionListener;
  readonly #news: ReaderNewsBuilder | undefined;
  readonly #onStatus: ((status: SessionStatus) => void) | undefined;
  #messagesSent = 0;
  #annotationsSent = 0;
  #headerSent = false;
  #extra: Extra = {};
  #scheduled = false;
  #closed = false;

  constructor(transcript: Transcript, listener: SessionListener, options: UpdateBatcherOptions = {}) {
    this.#transcript = transcript;
    this.#listener = listener;
    this.#news = options.reader && new ReaderNewsBuilder(options.reader);
    this.#onStatus = options.onStatus;
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
    const newMessages = messages.slice(this.#messagesSent);
    const newAnnotations = annotations.slice(this.#annotationsSent);
    // With a reading, the page needs the messages themselves only now and then: they travel as text.
    const deferred =
      this.#news && (newMessages.length || newAnnotations.length)
        ? JSON.stringify({ messages: newMessages, annotations: newAnnotations })
        : undefined;
    const update: SessionUpdate = {
      ...(this.#headerSent
        ? {}
        : { header: { ...header, meta: { ...header.meta }, connections: [...header.connections] } }),
      messages: deferred ? [] : newMessages,
      annotations: deferred ? [] : newAnnotations,
      ...(this.#news ? { read: this.#news.take(newMessages, newAnnotations) } : {}),
      ...(deferred ? { deferred: { messages: newMessages.length } } : {}),
      ...this.#extra,
    };
    this.#headerSent = true;
    this.#messagesSent = messages.length;
    this.#annotationsSent = annotations.length;
    this.#extra = {};
    this.#listener.update(JSON.stringify(update), deferred);
    if (update.status) this.#onStatus?.(update.status);
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
