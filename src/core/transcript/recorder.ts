import type {
  Annotation,
  Direction,
  HttpMessageMeta,
  ProtocolId,
  Transcript,
  TranscriptMessage,
} from './model';
import { decodeWireBytes } from './bytes';

/** Options for a new recording. */
export interface RecorderOptions {
  protocol: ProtocolId;
  meta?: Transcript['meta'];
  /** Clock in ms; injectable so tests and deterministic runs can fix time. Defaults to `Date.now`. */
  now?: () => number;
  /**
   * Where each message and annotation goes as it is recorded, e.g. a file written as the session runs.
   * With `keep: false` the sink is the only place they go.
   */
  sink?: TranscriptSink;
  /**
   * Keep messages and annotations in `transcript` (default true). A long session that nobody reads, or
   * one streamed to a sink, keeps none: its memory does not grow with its length.
   */
  keep?: boolean;
}

/** Receives a transcript's records in the order they are recorded. */
export interface TranscriptSink {
  message(message: TranscriptMessage): void;
  annotation(annotation: Annotation): void;
}

/**
 * Appends messages and annotations to a transcript as a session runs. Append-only: nothing recorded is
 * ever rewritten, so a crash or timeout later in the session cannot lose what came before.
 */
export class TranscriptRecorder {
  readonly transcript: Transcript;
  readonly #now: () => number;
  readonly #sink: TranscriptSink | undefined;
  readonly #keep: boolean;
  #messageCount = 0;
  #annotationCount = 0;

  constructor(options: RecorderOptions) {
    this.#now = options.now ?? Date.now;
    this.#sink = options.sink;
    this.#keep = options.keep ?? true;
    this.transcript = {
      format: 'protoplay-transcript',
      version: 2,
      protocol: options.protocol,
      startedAt: this.#now(),
      meta: { ...(options.meta ?? {}) },
      connections: [],
      messages: [],
      annotations: [],
    };
  }

  /**
   * Records a wire message given as text (already without its framing bytes), on `channel` when several
   * agents share the connection. A sink has the message at once: give everything here, change nothing later.
   */
  text(
    conn: string,
    dir: Direction,
    text: string,
    framing?: TranscriptMessage['framing'],
    channel?: string,
  ): TranscriptMessage {
    return this.#push({
      conn,
      dir,
      kind: 'data',
      text,
      ...(framing ? { framing } : {}),
      ...(channel !== undefined ? { channel } : {}),
    });
  }

  /** Records a wire message given as raw bytes; stored as text when valid UTF-8, else base64. */
  bytes(
    conn: string,
    dir: Direction,
    bytes: Uint8Array,
    framing?: TranscriptMessage['framing'],
  ): TranscriptMessage {
    return this.#push({
      conn,
      dir,
      kind: 'data',
      ...decodeWireBytes(bytes),
      ...(framing ? { framing } : {}),
    });
  }

  /**
   * Records an HTTP request: its body as the message's text, its method, path and headers in `http`. The
   * request's own index is its exchange number, which its response names.
   */
  httpRequest(
    conn: string,
    request: { meta: Omit<HttpMessageMeta, 'exchange'>; body: string },
    channel?: string,
  ): TranscriptMessage {
    const exchange = this.#messageCount;
    return this.#push({
      conn,
      dir: 'c2s',
      kind: 'data',
      text: request.body,
      framing: 'frame',
      ...(channel !== undefined ? { channel } : {}),
      http: { exchange, ...request.meta },
    });
  }

  /** Records the HTTP response to the request recorded at index `exchange`. */
  httpResponse(
    conn: string,
    exchange: number,
    response: { meta: Omit<HttpMessageMeta, 'exchange'>; body: string },
    channel?: string,
  ): TranscriptMessage {
    return this.#push({
      conn,
      dir: 's2c',
      kind: 'data',
      text: response.body,
      framing: 'frame',
      ...(channel !== undefined ? { channel } : {}),
      http: { exchange, ...response.meta },
    });
  }

  /** Records a connection event (open, close, error) with optional detail text. */
  event(conn: string, dir: Direction, kind: 'open' | 'close' | 'error', detail?: string): TranscriptMessage {
    return this.#push({ conn, dir, kind, ...(detail !== undefined ? { text: detail } : {}) });
  }

  /** Messages recorded so far, kept or not. */
  get messageCount(): number {
    return this.#messageCount;
  }

  /** Annotations recorded so far, kept or not. */
  get annotationCount(): number {
    return this.#annotationCount;
  }

  /** Hangs an annotation off a message index (defaults to the last message). */
  annotate(type: Annotation['type'], data: unknown, index = this.#messageCount - 1): void {
    const annotation: Annotation = { index: Math.max(0, index), type, data };
    this.#annotationCount++;
    this.#sink?.annotation(annotation);
    if (this.#keep) this.transcript.annotations.push(annotation);
  }

  /**
   * Takes messages and annotations recorded elsewhere (another thread playing the same session), numbered
   * after what this recorder holds; `shift` moves their times onto this recorder's clock. They go to the
   * sink like anything recorded here, and are kept only if this recorder keeps.
   */
  adopt(
    recorded: {
      connections: readonly Transcript['connections'][number][];
      messages: readonly TranscriptMessage[];
      annotations: readonly Annotation[];
    },
    shift = 0,
  ): void {
    const { transcript } = this;
    for (const connection of recorded.connections)
      if (!transcript.connections.some((c) => c.id === connection.id))
        transcript.connections.push(connection);
    for (const recordedMessage of recorded.messages) {
      if (recordedMessage.index < this.#messageCount)
        throw new Error(
          `message ${recordedMessage.index} arrives after message ${this.#messageCount - 1} was recorded`,
        );
      const message: TranscriptMessage = { ...recordedMessage, t: recordedMessage.t + shift };
      this.#messageCount = message.index + 1;
      this.#sink?.message(message);
      if (this.#keep) transcript.messages.push(message);
    }
    for (const annotation of recorded.annotations) {
      this.#annotationCount++;
      this.#sink?.annotation(annotation);
      if (this.#keep) transcript.annotations.push(annotation);
    }
  }

  #push(partial: Omit<TranscriptMessage, 'index' | 't'>): TranscriptMessage {
    const { transcript } = this;
    if (!transcript.connections.some((c) => c.id === partial.conn))
      transcript.connections.push({ id: partial.conn });
    const message: TranscriptMessage = {
      index: this.#messageCount++,
      t: this.#now() - transcript.startedAt,
      ...partial,
    };
    this.#sink?.message(message);
    if (this.#keep) transcript.messages.push(message);
    return message;
  }
}
