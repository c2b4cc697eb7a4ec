/**
 * The one way a session records, for every protocol: a clock and the wire's vocabulary (text and byte
 * frames, connection events, HTTP exchanges, annotations) over a transcript store, which numbers every
 * record, tells the sink, and holds the session compactly however long it runs.
 */
import type {
  Annotation,
  ConnectionInfo,
  Direction,
  HttpMessageMeta,
  Transcript,
  TranscriptMessage,
} from './model';
import { bytesToBase64, decodeWireBytes } from './bytes';
import type { PhraseOutput } from './store/phrases';
import { TranscriptStore, type TranscriptStoreOptions, type TranscriptStoreSink } from './store/store';

/** Options of a recording into a new store (see `TranscriptStoreOptions` for the rest). */
export interface RecorderOptions extends Omit<TranscriptStoreOptions, 'startedAt'> {
  /** Clock in ms; injectable so tests and deterministic runs can fix time. Defaults to `Date.now`. */
  now?: () => number;
  /** Wall-clock start, ms since the Unix epoch (default: the clock's time now). */
  startedAt?: number;
}

/** Receives a transcript's records as JSON text, in the order they are recorded (a file written live). */
export type TranscriptSink = TranscriptStoreSink;

/**
 * Appends messages and annotations to a transcript as a session runs. Append-only: nothing recorded is
 * ever rewritten, so a crash or timeout later in the session cannot lose what came before.
 */
export class TranscriptRecorder {
  /** Where everything recorded goes. */
  readonly store: TranscriptStore;
  readonly #now: () => number;
  /**
   * The records as plain objects, for readers of small sessions that take a `Transcript`: made from the
   * store when first asked for, then grown with every record (a long session nobody asks never has it).
   */
  #plain: Transcript | undefined;

  /** A recording into a new store, or into `store` (which gives protocol, start, meta, sink and keeping). */
  constructor(options: RecorderOptions | { store: TranscriptStore; now?: () => number }) {
    this.#now = options.now ?? Date.now;
    this.store =
      'store' in options
        ? options.store
        : new TranscriptStore({
            // Deflating sealed chunks of plain text costs small sessions more time than it saves memory:
            // only stores that ask for it deflate (MASSim's host, whose bulk is phrases anyway).
            compression: 'none',
            ...options,
            startedAt: options.startedAt ?? this.#now(),
          });
  }

  /**
   * The transcript recorded so far as the plain interchange object, the same object for the whole session
   * (it grows as records come). A recording that keeps nothing (`keep: false`) has none of its messages
   * and annotations here.
   */
  get transcript(): Transcript {
    return (this.#plain ??= this.#plainFromStore());
  }

  #plainFromStore(): Transcript {
    const { store } = this;
    const plain: Transcript = store.keepsRecords
      ? store.toTranscript()
      : {
          format: 'protoplay-transcript',
          version: 2,
          protocol: store.protocol,
          startedAt: store.startedAt,
          meta: store.meta,
          connections: store.connections.map((connection) => ({ ...connection })),
          messages: [],
          annotations: [],
        };
    // The store's own meta, so what a session adds to either is written to the file.
    plain.meta = store.meta;
    return plain;
  }

  /** Milliseconds since the transcript started, by the recorder's clock. */
  elapsed(): number {
    return this.#now() - this.store.startedAt;
  }

  /** Lists a connection (with a label) before or after its first message. */
  addConnection(id: string, label?: string): void {
    const before = this.store.connections.length;
    const number = this.store.addConnection(id, label);
    this.#syncConnection(number, before);
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
    if (channel !== undefined)
      return this.#append({ conn, dir, kind: 'data', text, ...(framing ? { framing } : {}), channel });
    const before = this.store.connections.length;
    const t = this.elapsed();
    const index = this.store.appendText(conn, dir, t, text, framing);
    return this.#recorded(
      { index, t, conn, dir, kind: 'data', text, ...(framing ? { framing } : {}) },
      before,
    );
  }

  /**
   * Records a wire message whose text `write` produces as phrases of the store's phrase book (a writer
   * that builds messages from recurring pieces keeps each piece once); returns its index.
   */
  phrased(
    conn: string,
    dir: Direction,
    write: (out: PhraseOutput) => void,
    framing?: TranscriptMessage['framing'],
  ): number {
    const before = this.store.connections.length;
    const index = this.store.appendPhrased(conn, dir, this.elapsed(), write, framing);
    if (this.#plain) this.#recorded(this.store.message(index), before);
    return index;
  }

  /** Records a wire message given as raw bytes; stored as text when valid UTF-8, else base64. */
  bytes(
    conn: string,
    dir: Direction,
    bytes: Uint8Array,
    framing?: TranscriptMessage['framing'],
  ): TranscriptMessage {
    return this.data(conn, dir, decodeWireBytes(bytes), framing);
  }

  /** Records a wire message whose bytes are already decoded: their text, or base64 when not UTF-8. */
  data(
    conn: string,
    dir: Direction,
    payload: { text: string } | { base64: string },
    framing?: TranscriptMessage['framing'],
  ): TranscriptMessage {
    if ('text' in payload) return this.text(conn, dir, payload.text, framing);
    return this.#append({ conn, dir, kind: 'data', ...payload, ...(framing ? { framing } : {}) });
  }

  /**
   * Records an HTTP request: its body as the message's text (its bytes as base64 when they are not UTF-8),
   * its method, path and headers in `http`. The request's own index is its exchange number, which its
   * response names.
   */
  httpRequest(
    conn: string,
    request: { meta: Omit<HttpMessageMeta, 'exchange'>; body: string; bytes?: Uint8Array },
    channel?: string,
  ): TranscriptMessage {
    const exchange = this.store.length;
    return this.#append({
      conn,
      dir: 'c2s',
      kind: 'data',
      ...(request.bytes ? { base64: bytesToBase64(request.bytes) } : { text: request.body }),
      framing: 'frame',
      ...(channel !== undefined ? { channel } : {}),
      http: { exchange, ...request.meta },
    });
  }

  /** Records the HTTP response to the request recorded at index `exchange`. */
  httpResponse(
    conn: string,
    exchange: number,
    response: { meta: Omit<HttpMessageMeta, 'exchange'>; body: string; bytes?: Uint8Array },
    channel?: string,
  ): TranscriptMessage {
    return this.#append({
      conn,
      dir: 's2c',
      kind: 'data',
      ...(response.bytes ? { base64: bytesToBase64(response.bytes) } : { text: response.body }),
      framing: 'frame',
      ...(channel !== undefined ? { channel } : {}),
      http: { exchange, ...response.meta },
    });
  }

  /** Records a connection event (open, close, error) with optional detail text. */
  event(conn: string, dir: Direction, kind: 'open' | 'close' | 'error', detail?: string): TranscriptMessage {
    const before = this.store.connections.length;
    const t = this.elapsed();
    const index = this.store.appendEvent(conn, dir, t, kind, detail);
    return this.#recorded(
      { index, t, conn, dir, kind, ...(detail !== undefined ? { text: detail } : {}) },
      before,
    );
  }

  /** Messages recorded so far, kept or not. */
  get messageCount(): number {
    return this.store.length;
  }

  /** Annotations recorded so far, kept or not. */
  get annotationCount(): number {
    return this.store.annotationCount;
  }

  /**
   * Hangs an annotation off a message index (defaults to the last message). With `packLater`, a store with
   * packers packs its data later (see `TranscriptStore.annotate`): the caller must not change it meanwhile.
   */
  annotate(
    type: Annotation['type'],
    data: unknown,
    index = this.store.length - 1,
    options?: { packLater?: boolean },
  ): void {
    this.store.annotate(type, data, index, options);
    if (this.#plain && this.store.keepsRecords)
      this.#plain.annotations.push({ index: Math.max(0, index), type, data });
  }

  /**
   * Takes messages and annotations recorded elsewhere (another thread playing the same session), numbered
   * right after what this recorder holds; `shift` moves their times onto this recorder's clock. They go to
   * the sink like anything recorded here.
   */
  adopt(
    recorded: {
      connections: readonly ConnectionInfo[];
      messages: readonly TranscriptMessage[];
      annotations: readonly Annotation[];
    },
    shift = 0,
  ): void {
    for (const connection of recorded.connections) this.addConnection(connection.id, connection.label);
    for (const message of recorded.messages) {
      if (message.index !== this.store.length)
        throw new Error(
          `message ${message.index} arrives where message ${this.store.length} is next to be recorded`,
        );
      const before = this.store.connections.length;
      const adopted: TranscriptMessage = { ...message, t: message.t + shift };
      this.store.appendMessage(adopted);
      this.#recorded(adopted, before);
    }
    for (const annotation of recorded.annotations)
      this.annotate(annotation.type, annotation.data, annotation.index);
  }

  /** Records a message built here (its index and time are added). */
  #append(partial: Omit<TranscriptMessage, 'index' | 't'>): TranscriptMessage {
    const before = this.store.connections.length;
    const message: TranscriptMessage = { index: this.store.length, t: this.elapsed(), ...partial };
    this.store.appendMessage(message);
    return this.#recorded(message, before);
  }

  /** Grows the plain transcript, if there is one, by a message just appended to the store. */
  #recorded(message: TranscriptMessage, connectionsBefore: number): TranscriptMessage {
    const plain = this.#plain;
    if (plain) {
      if (this.store.connections.length > connectionsBefore)
        plain.connections.push({ ...this.store.connections[connectionsBefore]! });
      if (this.store.keepsRecords) plain.messages.push(message);
    }
    return message;
  }

  /** Brings the plain transcript's list of connections to the store's after `addConnection`. */
  #syncConnection(number: number, before: number): void {
    const plain = this.#plain;
    if (!plain) return;
    const connection = this.store.connections[number]!;
    if (number >= before) plain.connections.push({ ...connection });
    else {
      const listed = plain.connections.find((c) => c.id === connection.id);
      if (listed && connection.label !== undefined) listed.label = connection.label;
    }
  }
}
