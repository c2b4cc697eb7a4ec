/**
 * Sends what a session recorded to the page at most once per animation frame, as one JSON string. Two
 * shapes, chosen by the runner: the transcript travels to the page (new messages and annotations since
 * the last batch, with their reading), or it stays in the worker and only the protocol's news for its
 * views travel (a contest match is tens of megabytes of wire text). The latest status and the like ride
 * along either way.
 */
import type { Annotation, Transcript, TranscriptMessage } from '../transcript/model';
import type { TranscriptReader } from '../protocols/reading';
import type {
  SessionListener,
  SessionStatus,
  SessionUpdate,
  TranscriptOrigin,
} from '../protocols/session-contract';
import { ReaderNewsBuilder } from './reader-news';

/** What a batch carries besides the transcript. */
export type UpdateExtra = Omit<
  SessionUpdate,
  'messages' | 'annotations' | 'header' | 'reset' | 'read' | 'deferred' | 'views'
>;

/** Where the messages and annotations of a batch's text are (see `SessionUpdate.deferred`). */
type DeferredPlaces = NonNullable<NonNullable<SessionUpdate['deferred']>['places']>;

/**
 * A batch as the JSON text `{ messages, annotations }`, with where each message is in it: one message can
 * then be read without parsing the thousands around it.
 */
export function batchText(
  messages: readonly TranscriptMessage[],
  annotations: readonly Annotation[],
): { json: string; places: DeferredPlaces } {
  const parts: string[] = ['{"messages":['];
  let length = parts[0]!.length;
  const at: number[] = [];
  messages.forEach((message, i) => {
    const text = (i ? ',' : '') + JSON.stringify(message);
    at.push(length + (i ? 1 : 0));
    parts.push(text);
    length += text.length;
  });
  // As if a comma followed the last message too: message i is at `[at[i], at[i + 1] - 1)`.
  at.push(length + 1);
  const between = '],"annotations":';
  const annotationsText = JSON.stringify(annotations);
  const start = length + between.length;
  parts.push(between, annotationsText, '}');
  return {
    json: parts.join(''),
    places: { messages: at, annotations: [start, start + annotationsText.length] },
  };
}

/** What goes to the page. */
export type BatchedContent =
  /** The transcript itself, with its reading when there is a reader (the page then parses nothing). */
  | { kind: 'transcript'; transcript: Transcript; reader?: TranscriptReader }
  /** The protocol's news for its views; the transcript stays in the worker. */
  | { kind: 'views'; news: () => unknown };

/** Options of a batcher. */
export interface UpdateBatcherOptions {
  listener: SessionListener;
  nextFrame: (callback: () => void) => void;
  content: BatchedContent;
  /** The first batch tells the page to forget what it showed, and what comes instead. */
  reset: { protocol: string; origin: TranscriptOrigin; name?: string };
  /**
   * Called after every batch with the session's status (the last one sent), so a transcript that grows
   * while the status stays the same (a step taken while paused) is stored again.
   */
  onStatus?: (status: SessionStatus) => void;
}

/** Batches one session's (or one shown transcript's) updates. */
export class UpdateBatcher {
  readonly #options: UpdateBatcherOptions;
  readonly #news: ReaderNewsBuilder | undefined;
  #messagesSent = 0;
  #annotationsSent = 0;
  #first = true;
  #extra: UpdateExtra = {};
  #scheduled = false;
  #closed = false;
  #status: SessionStatus | undefined;

  constructor(options: UpdateBatcherOptions) {
    this.#options = options;
    const { content } = options;
    this.#news =
      content.kind === 'transcript' && content.reader ? new ReaderNewsBuilder(content.reader) : undefined;
  }

  /** Notes news (status, fault, decision...); sent with the next batch. Later values replace earlier. */
  note(extra: UpdateExtra): void {
    this.#extra = { ...this.#extra, ...extra };
    this.schedule();
  }

  /** Asks for a batch at the next frame (the transcript grew). */
  schedule(): void {
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    this.#options.nextFrame(() => this.flush());
  }

  /** Sends everything pending now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#closed) return;
    const { content, listener } = this.#options;
    const reset = this.#first
      ? { reset: { ...this.#options.reset, keepsTranscript: content.kind === 'views' } }
      : {};
    let update: SessionUpdate;
    let deferred: string | undefined;
    let places: DeferredPlaces | undefined;
    if (content.kind === 'views') {
      update = { ...reset, messages: [], annotations: [], views: content.news(), ...this.#extra };
    } else {
      const { messages, annotations, ...header } = content.transcript;
      const newMessages = messages.slice(this.#messagesSent);
      const newAnnotations = annotations.slice(this.#annotationsSent);
      // With a reading, the page needs the messages themselves only now and then: they travel as text.
      if (this.#news && (newMessages.length || newAnnotations.length))
        ({ json: deferred, places } = batchText(newMessages, newAnnotations));
      update = {
        ...reset,
        ...(this.#first
          ? { header: { ...header, meta: { ...header.meta }, connections: [...header.connections] } }
          : {}),
        messages: deferred ? [] : newMessages,
        annotations: deferred ? [] : newAnnotations,
        ...(this.#news ? { read: this.#news.take(newMessages, newAnnotations) } : {}),
        ...(deferred ? { deferred: { messages: newMessages.length, ...(places ? { places } : {}) } } : {}),
        ...this.#extra,
      };
      this.#messagesSent = messages.length;
      this.#annotationsSent = annotations.length;
    }
    this.#first = false;
    this.#extra = {};
    listener.update(JSON.stringify(update), deferred);
    this.#status = update.status ?? this.#status;
    if (this.#status) this.#options.onStatus?.(this.#status);
  }

  /** Sends the last batch and stops: the session is over. */
  close(): void {
    this.flush();
    this.#closed = true;
  }

  /** Stops without sending anything more: a newer session has taken over the page. */
  abandon(): void {
    this.#closed = true;
  }
}
