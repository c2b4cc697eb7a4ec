/**
 * An append-only transcript held compactly, for sessions too long to keep as one object per message (a
 * MASSim contest match sends hundreds of megabytes of percepts). The plain `Transcript` stays the
 * interchange format: `toTranscript` and `fromTranscript` convert, and every message read back is exactly
 * the one appended.
 *
 * Layout: message metadata in typed-array columns (connection, direction, kind, framing, time); payloads in
 * chunks of consecutive messages, each payload a list of phrase numbers (texts of the store's phrase book,
 * shared by all messages) and literal texts. Writers that build messages from recurring pieces append them
 * as phrases (`appendPhrased`), which keeps each piece once; plain texts are literals, deflated when their
 * chunk is full. An index by connection and by step makes the log of one agent and the messages of one step
 * direct reads. Annotations are kept as given, or by a packer that knows their shape (world snapshots as
 * keyframes and deltas).
 */
import type {
  Annotation,
  ConnectionInfo,
  Direction,
  ProtocolId,
  Transcript,
  TranscriptMessage,
} from '../model';
import { MessageChunk, type LiteralCompression } from './chunk';
import { Column } from './columns';
import { PhraseBook, type PhraseOutput } from './phrases';

/** Keeps annotations of one shape compactly and gives back equal data. */
export interface AnnotationPacker {
  /** Packs the data of an annotation it knows (returning its number in this packer), else undefined. */
  pack(type: Annotation['type'], data: unknown, store: TranscriptStore): number | undefined;
  /** The data packed as number `packed`, equal (as JSON) to what was packed. */
  unpack(packed: number, store: TranscriptStore): unknown;
  /** Bytes the packer holds, about. */
  readonly byteLength: number;
}

/** Options of a new store. */
export interface TranscriptStoreOptions {
  protocol: ProtocolId;
  /** Wall-clock start, ms since the Unix epoch (default 0). */
  startedAt?: number;
  meta?: Transcript['meta'];
  /** Packers tried in order for every annotation; the rest are kept as given. */
  packers?: readonly AnnotationPacker[];
  /** What sealed chunks do with their literal text (default `deflate`; see `LiteralCompression`). */
  compression?: LiteralCompression;
  /**
   * With `compression: 'later'`: at most so many characters of sealed chunks' text wait to be compressed
   * (default 128 Mi, 256 MB as UTF-16); past that, sealing a chunk compresses the oldest at once.
   */
  laterCharacters?: number;
  /** A chunk is sealed after this many messages (default 4096)... */
  chunkMessages?: number;
  /** ...or this many characters of literal text (default 1 Mi). */
  chunkLiteralCharacters?: number;
  /**
   * Told each message's and annotation's JSON (as the transcript file writes it) as it is recorded, for a
   * transcript written as the session runs.
   */
  sink?: TranscriptStoreSink;
  /**
   * Keep the whole session (default true). With false the store holds only its last chunks of messages
   * (what a step in progress still reads) and no annotations nor step marks: a long session costs no more
   * memory than a short one, and the sink, if any, is the only place the rest goes.
   */
  keep?: boolean;
}

/** Receives a store's records as JSON text, in the order they are recorded. */
export interface TranscriptStoreSink {
  messageJson(json: string): void;
  annotationJson(json: string): void;
}

/** Where one step's messages are: `[from, to)` message indices, and annotations hanging off them. */
export interface StepRange {
  group: number;
  step: number;
  from: number;
  to: number;
}

/** What the store holds, in bytes (typed arrays at capacity; strings at two bytes per character). */
export interface TranscriptStoreSize {
  messages: number;
  annotations: number;
  chunks: number;
  phrases: number;
  phraseBytes: number;
  /** Payload codes: phrase numbers and literal lengths. */
  codeBytes: number;
  /** Literal text, compressed in sealed chunks. */
  literalBytes: number;
  /** Per-message and index columns. */
  columnBytes: number;
  /** Packed annotations. */
  packedBytes: number;
}

const DIRECTIONS: readonly Direction[] = ['c2s', 's2c'];
const KINDS: readonly TranscriptMessage['kind'][] = ['data', 'open', 'close', 'error'];
const FRAMINGS: readonly (TranscriptMessage['framing'] | undefined)[] = [undefined, 'nul', 'none', 'frame'];
const ANNOTATION_TYPES: readonly Annotation['type'][] = [
  'world',
  'policy-log',
  'error',
  'violation',
  'note',
  'reward',
];
const NO_PAYLOAD = 0;
const TEXT_PAYLOAD = 1;
const BASE64_PAYLOAD = 2;
/** Flag of a payload written as phrases only (no literal), so it can be read as phrases in one pass. */
const PHRASED = 1 << 7;

/** A packed annotation's place: which packer, and its number there. */
class PackedAnnotation {
  constructor(
    readonly packer: number,
    readonly packed: number,
  ) {}
}

/** An annotation whose data is not packed yet (`annotate` with `packLater`). */
class UnpackedAnnotation {
  constructor(
    readonly type: Annotation['type'],
    readonly data: unknown,
  ) {}
}

export class TranscriptStore {
  readonly protocol: ProtocolId;
  readonly startedAt: number;
  readonly meta: Transcript['meta'];
  /** Texts shared by phrased messages (a store that does not keep its messages starts new ones). */
  #phrases = new PhraseBook();

  readonly #packers: readonly AnnotationPacker[];
  readonly #compression: LiteralCompression;
  readonly #chunkMessages: number;
  readonly #chunkLiteralCharacters: number;
  readonly #sink: TranscriptStoreSink | undefined;
  readonly #keep: boolean;
  /** Annotations made and not kept (`keep: false`). */
  #annotationsNotKept = 0;

  readonly #connections: ConnectionInfo[] = [];
  readonly #connectionNumbers = new Map<string, number>();
  readonly #byConnection: Column<Int32Array>[] = [];

  readonly #connection = new Column(Uint32Array);
  /** Direction, kind, framing and payload kind, packed in bits. */
  readonly #flags = new Column(Uint8Array);
  readonly #time = new Column(Float64Array);
  readonly #codeStart = new Column(Uint32Array);
  readonly #literalStart = new Column(Uint32Array);
  readonly #chunks: MessageChunk[] = [];
  /** With `compression: 'later'`: the chunks (from the first) whose text `compressSealed` compressed. */
  #compressedChunks = 0;
  /** With `compression: 'later'`: characters of text in sealed chunks not compressed yet. */
  #uncompressedCharacters = 0;
  readonly #laterCharacters: number;
  #chunk: MessageChunk;

  readonly #annotationIndex = new Column(Int32Array);
  readonly #annotationType = new Column(Uint8Array);
  readonly #annotationData: unknown[] = [];
  /** The first annotation not packed yet, if any. */
  #unpackedFrom: number | undefined;
  #annotationsInOrder = true;

  readonly #stepGroup = new Column(Int32Array);
  readonly #stepNumber = new Column(Int32Array);
  readonly #stepMessage = new Column(Int32Array);
  readonly #stepByKey = new Map<string, number>();

  /** The last chunk whose literal text was inflated, so reading a step inflates it once. */
  #inflated: { chunk: MessageChunk; text: string } | undefined;
  /** Phrases as JSON string content, made when first exported. */
  readonly #escaped: ({ json: string; startsLow: boolean; endsHigh: boolean } | undefined)[] = [];
  readonly #connectionJsonCache: string[] = [];
  /**
   * The few fields most messages lack, by index: the agent of a shared connection (`channel`) and HTTP
   * request lines and statuses (`http`). Kept aside so stream protocols' messages cost nothing more.
   */
  readonly #extras = new Map<number, Pick<TranscriptMessage, 'channel' | 'http'>>();
  /** The phrase output of `appendPhrased`, reused. */
  #phraseOutput: PhraseOutput;

  constructor(options: TranscriptStoreOptions) {
    this.protocol = options.protocol;
    this.startedAt = options.startedAt ?? 0;
    this.meta = { ...(options.meta ?? {}) };
    this.#packers = options.packers ?? [];
    this.#keep = options.keep ?? true;
    this.#sink = options.sink;
    // Chunks not kept are dropped soon after they are sealed: compressing them is wasted work.
    this.#compression = this.#keep ? (options.compression ?? 'deflate') : 'none';
    this.#laterCharacters = options.laterCharacters ?? 128 << 20;
    this.#chunkMessages = options.chunkMessages ?? 4096;
    this.#chunkLiteralCharacters = options.chunkLiteralCharacters ?? 1 << 20;
    this.#chunk = new MessageChunk(0);
    this.#chunks.push(this.#chunk);
    this.#phraseOutput = this.#newPhraseOutput();
  }

  /** Whether the store keeps the whole session (`keep`), rather than only what a step in progress reads. */
  get keepsRecords(): boolean {
    return this.#keep;
  }

  /** Texts shared by phrased messages. Not kept (`keep: false`), a store starts a new book now and then. */
  get phrases(): PhraseBook {
    return this.#phrases;
  }

  #newPhraseOutput(): PhraseOutput {
    return { book: this.#phrases, push: (phrase) => this.#chunk.writePhrase(phrase) };
  }

  /** A store holding the transcript (imports, pasted sessions); step marks are left to the protocol. */
  static fromTranscript(
    transcript: Transcript,
    options: Omit<TranscriptStoreOptions, 'protocol' | 'startedAt' | 'meta'> = {},
  ): TranscriptStore {
    const store = new TranscriptStore({
      ...options,
      protocol: transcript.protocol,
      startedAt: transcript.startedAt,
      meta: transcript.meta,
    });
    for (const connection of transcript.connections) store.addConnection(connection.id, connection.label);
    for (const message of transcript.messages) store.appendMessage(message);
    for (const annotation of transcript.annotations)
      store.annotate(annotation.type, annotation.data, annotation.index);
    return store;
  }

  // ---- writing --------------------------------------------------------------------------------------------

  /**
   * Lists a connection (with an optional label), before or after its first message; keeps the first label
   * given (a connection listed by its first message gets the label given later).
   */
  addConnection(id: string, label?: string): number {
    let number = this.#connectionNumbers.get(id);
    if (number !== undefined && label !== undefined && this.#connections[number]!.label === undefined)
      this.#connections[number] = { id, label };
    if (number === undefined) {
      number = this.#connections.length;
      this.#connections.push(label === undefined ? { id } : { id, label });
      this.#connectionNumbers.set(id, number);
      this.#byConnection.push(new Column(Int32Array, 64));
    }
    return number;
  }

  /** Appends a message given as a transcript message (its `index` is ignored); returns its index. */
  appendMessage(message: Omit<TranscriptMessage, 'index'>): number {
    const payload =
      message.base64 !== undefined ? BASE64_PAYLOAD : message.text !== undefined ? TEXT_PAYLOAD : NO_PAYLOAD;
    const index = this.#begin(message.conn, message.dir, message.t, message.kind, message.framing, payload);
    if (payload !== NO_PAYLOAD) this.#chunk.writeLiteral(message.base64 ?? message.text!);
    if (message.channel !== undefined || message.http !== undefined)
      this.#extras.set(index, {
        ...(message.channel !== undefined ? { channel: message.channel } : {}),
        ...(message.http !== undefined ? { http: message.http } : {}),
      });
    // The payload's JSON from the text at hand: read back from the chunk, every message would join the
    // chunk's growing literal text again (quadratic in the chunk's size).
    if (this.#sink)
      this.#sink.messageJson(
        this.#messageJson(
          index,
          payload === NO_PAYLOAD ? undefined : JSON.stringify(message.base64 ?? message.text),
        ),
      );
    return index;
  }

  /** Appends a wire message given as text (without its framing bytes). */
  appendText(
    conn: string,
    dir: Direction,
    t: number,
    text: string,
    framing?: TranscriptMessage['framing'],
  ): number {
    const index = this.#begin(conn, dir, t, 'data', framing, TEXT_PAYLOAD);
    this.#chunk.writeLiteral(text);
    if (this.#sink) this.#sink.messageJson(this.#messageJson(index, JSON.stringify(text)));
    return index;
  }

  /**
   * Appends a wire message whose text `write` produces as phrases of `phrases` (the message's text is their
   * texts joined). The output is only valid during the call.
   */
  appendPhrased(
    conn: string,
    dir: Direction,
    t: number,
    write: (out: PhraseOutput) => void,
    framing?: TranscriptMessage['framing'],
  ): number {
    const index = this.#begin(conn, dir, t, 'data', framing, TEXT_PAYLOAD, PHRASED);
    write(this.#phraseOutput);
    if (this.#sink) this.#sink.messageJson(this.messageJson(index));
    return index;
  }

  /** Appends a connection event (open, close, error) with optional detail text. */
  appendEvent(
    conn: string,
    dir: Direction,
    t: number,
    kind: 'open' | 'close' | 'error',
    detail?: string,
  ): number {
    const index = this.#begin(
      conn,
      dir,
      t,
      kind,
      undefined,
      detail === undefined ? NO_PAYLOAD : TEXT_PAYLOAD,
    );
    if (detail !== undefined) this.#chunk.writeLiteral(detail);
    if (this.#sink)
      this.#sink.messageJson(
        this.#messageJson(index, detail === undefined ? undefined : JSON.stringify(detail)),
      );
    return index;
  }

  /**
   * Hangs an annotation off a message index (defaults to the last message, or 0 when there is none). With
   * `packLater`, its data is packed by `packPending` (or on first read): the caller must not change it
   * meanwhile.
   */
  annotate(
    type: Annotation['type'],
    data: unknown,
    index = this.length - 1,
    options?: { packLater?: boolean },
  ): void {
    index = Math.max(0, index);
    // The annotation's JSON as the transcript file has it (a packer gives back data equal as JSON).
    if (this.#sink) this.#sink.annotationJson(JSON.stringify({ index, type, data }));
    if (!this.#keep) {
      this.#annotationsNotKept++;
      return;
    }
    const count = this.#annotationIndex.length;
    if (count > 0 && index < this.#annotationIndex.at(count - 1)) this.#annotationsInOrder = false;
    this.#annotationIndex.push(index);
    this.#annotationType.push(ANNOTATION_TYPES.indexOf(type));
    if (options?.packLater && this.#packers.length > 0) {
      this.#annotationData.push(new UnpackedAnnotation(type, data));
      this.#unpackedFrom ??= count;
      return;
    }
    this.packPending();
    this.#annotationData.push(this.#pack(type, data));
  }

  /**
   * Packs the annotations given with `packLater` (in order, as packers expect). Anything that reads
   * annotations, or annotates without `packLater`, does it first; a caller may do it when it has time (the
   * MASSim host packs a step's world while the policies think), and must before `data` changes.
   */
  packPending(): void {
    const from = this.#unpackedFrom;
    if (from === undefined) return;
    this.#unpackedFrom = undefined;
    const list = this.#annotationData;
    for (let i = from; i < list.length; i++) {
      const item = list[i];
      if (item instanceof UnpackedAnnotation) list[i] = this.#pack(item.type, item.data);
    }
  }

  /**
   * Marks where step `step` of group `group` (a simulation, a round) begins: at the next message appended.
   * A step's messages run up to the next mark.
   */
  markStep(group: number, step: number): void {
    if (!this.#keep) {
      // A step's start is where nothing earlier is read any more: once more than a chunk was written, the
      // store forgets every message and starts a new phrase book (the old one grows with every step).
      if (this.#chunks.length > 1 || this.#chunk.literalLength >= this.#chunkLiteralCharacters)
        this.#forget();
      return;
    }
    this.#stepByKey.set(`${group}/${step}`, this.#stepGroup.length);
    this.#stepGroup.push(group);
    this.#stepNumber.push(step);
    this.#stepMessage.push(this.length);
  }

  #begin(
    conn: string,
    dir: Direction,
    t: number,
    kind: TranscriptMessage['kind'],
    framing: TranscriptMessage['framing'],
    payload: number,
    phrased = 0,
  ): number {
    const index = this.#connection.length;
    let chunk = this.#chunk;
    if (index - chunk.first >= this.#chunkMessages || chunk.literalLength >= this.#chunkLiteralCharacters) {
      chunk.seal(this.#compression);
      const sealed = chunk.literalLength;
      chunk = this.#chunk = new MessageChunk(index);
      this.#chunks.push(chunk);
      if (this.#compression === 'later') this.#boundUncompressed(sealed);
      // Not kept: the chunk just sealed stays readable (a step in progress may still read it), older go.
      if (!this.#keep && this.#chunks.length > 2) this.#dropChunks(this.#chunks.length - 2);
    }
    const connection = this.addConnection(conn);
    this.#connection.push(connection);
    this.#byConnection[connection]!.push(index);
    this.#flags.push(
      DIRECTIONS.indexOf(dir) |
        (KINDS.indexOf(kind) << 1) |
        (FRAMINGS.indexOf(framing) << 3) |
        (payload << 5) |
        phrased,
    );
    this.#time.push(t);
    this.#codeStart.push(chunk.codeLength);
    this.#literalStart.push(chunk.literalLength);
    return index;
  }

  /**
   * With `compression: 'later'`, the text of sealed chunks left as it came stays under
   * `laterCharacters`: past it, the oldest are compressed now (a huge file read in a hurry does not hold
   * all of its text twice).
   */
  #boundUncompressed(sealed: number): void {
    this.#uncompressedCharacters += sealed;
    while (
      this.#uncompressedCharacters > this.#laterCharacters &&
      this.#compressedChunks < this.#chunks.length - 1
    )
      this.compressSealed();
  }

  /** Forgets every message so far and the phrase book (`keep: false`). */
  #forget(): void {
    this.#chunk.seal(this.#compression);
    this.#chunk = new MessageChunk(this.length);
    this.#chunks.push(this.#chunk);
    this.#dropChunks(this.#chunks.length - 1);
    this.#phrases = new PhraseBook();
    this.#escaped.length = 0;
    this.#phraseOutput = this.#newPhraseOutput();
  }

  /** Forgets the first `count` chunks and every message in them. */
  #dropChunks(count: number): void {
    const base = this.#chunks[count]!.first;
    this.#chunks.splice(0, count);
    this.#compressedChunks = Math.max(0, this.#compressedChunks - count);
    if (this.#inflated && this.#inflated.chunk.first < base) this.#inflated = undefined;
    for (const column of [this.#connection, this.#flags, this.#time, this.#codeStart, this.#literalStart])
      column.dropBefore(base);
    for (const column of this.#byConnection) {
      const held = column.view();
      let kept = 0;
      while (kept < held.length && held[kept]! < base) kept++;
      column.dropBefore(column.base + kept);
    }
    for (const index of this.#extras.keys()) if (index < base) this.#extras.delete(index);
  }

  #pack(type: Annotation['type'], data: unknown): unknown {
    for (let i = 0; i < this.#packers.length; i++) {
      const packed = this.#packers[i]!.pack(type, data, this);
      if (packed !== undefined) return new PackedAnnotation(i, packed);
    }
    return data;
  }

  // ---- reading --------------------------------------------------------------------------------------------

  /** How many messages the store holds. */
  get length(): number {
    return this.#connection.length;
  }

  /** Connections in order of first appearance. */
  get connections(): readonly ConnectionInfo[] {
    return this.#connections;
  }

  /** The message at `index`, exactly as appended. */
  message(index: number): TranscriptMessage {
    this.#check(index);
    const flags = this.#flags.at(index);
    const payload = (flags >> 5) & 3;
    const framing = FRAMINGS[(flags >> 3) & 3];
    // Keys in the order the recorder writes them, so exports read the same.
    const message: TranscriptMessage = {
      index,
      t: this.#time.at(index),
      conn: this.#connections[this.#connection.at(index)]!.id,
      dir: DIRECTIONS[flags & 1]!,
      kind: KINDS[(flags >> 1) & 3]!,
    };
    if (payload === TEXT_PAYLOAD) message.text = this.#payload(index);
    else if (payload === BASE64_PAYLOAD) message.base64 = this.#payload(index);
    if (framing !== undefined) message.framing = framing;
    const extra = this.#extras.get(index);
    if (extra) Object.assign(message, extra);
    return message;
  }

  /**
   * `JSON.stringify(message(index))`, written without building the message: a phrased payload is the
   * concatenation of its phrases' escaped texts, each escaped once (exports write hundreds of megabytes).
   */
  messageJson(index: number): string {
    this.#check(index);
    return this.#messageJson(index);
  }

  /** `messageJson`, with the payload's JSON when the caller has it at hand. */
  #messageJson(index: number, payloadJson?: string): string {
    const flags = this.#flags.at(index);
    const payload = (flags >> 5) & 3;
    const framing = FRAMINGS[(flags >> 3) & 3];
    let json = `{"index":${index},"t":${JSON.stringify(this.#time.at(index))},"conn":${this.#connectionJson(this.#connection.at(index))},"dir":"${DIRECTIONS[flags & 1]}","kind":"${KINDS[(flags >> 1) & 3]}"`;
    if (payload !== NO_PAYLOAD) {
      json += payload === BASE64_PAYLOAD ? ',"base64":' : ',"text":';
      json +=
        payloadJson ??
        (((flags & PHRASED) !== 0 && this.#escapedPhrases(index)) || JSON.stringify(this.#payload(index)));
    }
    if (framing !== undefined) json += `,"framing":"${framing}"`;
    const extra = this.#extras.get(index);
    if (extra?.channel !== undefined) json += `,"channel":${JSON.stringify(extra.channel)}`;
    if (extra?.http !== undefined) json += `,"http":${JSON.stringify(extra.http)}`;
    return json + '}';
  }

  /** Messages `[from, to)`. */
  messages(from = 0, to = this.length): TranscriptMessage[] {
    const list: TranscriptMessage[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) list.push(this.message(i));
    return list;
  }

  /** The payload text of a message (its `text`, or its `base64` for binary data), undefined for none. */
  payload(index: number): string | undefined {
    this.#check(index);
    return ((this.#flags.at(index) >> 5) & 3) === NO_PAYLOAD ? undefined : this.#payload(index);
  }

  /**
   * Pushes the phrase numbers of a message's payload to `out` when it was appended as phrases only (so a
   * reader with a copy of the phrase book can rebuild the text without it being joined here); false,
   * pushing nothing, otherwise.
   */
  readPhrases(index: number, out: { push(phrase: number): void }): boolean {
    this.#check(index);
    if ((this.#flags.at(index) & PHRASED) === 0) return false;
    const { chunk, codeEnd } = this.#locate(index);
    chunk.readPhrases(this.#codeStart.at(index), codeEnd, out);
    return true;
  }

  /**
   * Copies the phrase numbers of message `index` into `target` from `offset` and returns how many: -1 when
   * it is not a message written as phrases only, -2 when `target` might be too short from `offset` (then
   * nothing is copied: grow it and try again).
   */
  copyPhrases(index: number, target: Int32Array, offset: number): number {
    this.#check(index);
    if ((this.#flags.at(index) & PHRASED) === 0) return -1;
    const { chunk, codeEnd } = this.#locate(index);
    const copied = chunk.copyPhrases(this.#codeStart.at(index), codeEnd, target, offset);
    return copied < 0 ? -2 : copied;
  }

  /** Indices of the messages of a connection, in order (a view: copy it to keep it across appends). */
  messagesOf(conn: string): Int32Array {
    const number = this.#connectionNumbers.get(conn);
    return number === undefined ? new Int32Array(0) : this.#byConnection[number]!.view();
  }

  /** Where a step's messages are, or undefined when it was not marked. */
  stepRange(group: number, step: number): StepRange | undefined {
    const mark = this.#stepByKey.get(`${group}/${step}`);
    if (mark === undefined) return undefined;
    const to = mark + 1 < this.#stepMessage.length ? this.#stepMessage.at(mark + 1) : this.length;
    return { group, step, from: this.#stepMessage.at(mark), to };
  }

  /** Every step mark, in order. */
  steps(): StepRange[] {
    const list: StepRange[] = [];
    for (let mark = 0; mark < this.#stepMessage.length; mark++) {
      const to = mark + 1 < this.#stepMessage.length ? this.#stepMessage.at(mark + 1) : this.length;
      list.push({
        group: this.#stepGroup.at(mark),
        step: this.#stepNumber.at(mark),
        from: this.#stepMessage.at(mark),
        to,
      });
    }
    return list;
  }

  /** How many annotations the store holds. */
  get annotationCount(): number {
    return this.#annotationIndex.length + this.#annotationsNotKept;
  }

  /** Annotation `i` (in the order annotated), with its data unpacked. */
  annotation(i: number): Annotation {
    if (!(i >= 0 && i < this.#annotationIndex.length)) throw new RangeError(`no annotation ${i}`);
    if (this.#unpackedFrom !== undefined && i >= this.#unpackedFrom) this.packPending();
    return {
      index: this.#annotationIndex.at(i),
      type: ANNOTATION_TYPES[this.#annotationType.at(i)]!,
      data: this.#unpack(this.#annotationData[i]),
    };
  }

  /** Annotations hanging off messages `[from, to)`, in the order annotated. */
  annotationsBetween(from: number, to: number): Annotation[] {
    const list: Annotation[] = [];
    const count = this.#annotationIndex.length;
    let i = 0;
    if (this.#annotationsInOrder) {
      // First annotation at or after `from`.
      let high = count;
      while (i < high) {
        const middle = (i + high) >>> 1;
        if (this.#annotationIndex.at(middle) < from) i = middle + 1;
        else high = middle;
      }
    }
    for (; i < count; i++) {
      const index = this.#annotationIndex.at(i);
      if (index >= to) {
        if (this.#annotationsInOrder) break;
        continue;
      }
      if (index >= from) list.push(this.annotation(i));
    }
    return list;
  }

  /** Annotation numbers of one type (cheap: no data is unpacked). */
  annotationsOfType(type: Annotation['type']): number[] {
    const code = ANNOTATION_TYPES.indexOf(type);
    const list: number[] = [];
    for (let i = 0; i < this.#annotationIndex.length; i++)
      if (this.#annotationType.at(i) === code) list.push(i);
    return list;
  }

  /** The whole transcript as the plain interchange object. */
  toTranscript(): Transcript {
    const annotations: Annotation[] = [];
    for (let i = 0; i < this.#annotationIndex.length; i++) annotations.push(this.annotation(i));
    return {
      format: 'protoplay-transcript',
      version: 2,
      protocol: this.protocol,
      startedAt: this.startedAt,
      meta: { ...this.meta },
      connections: this.#connections.map((connection) => ({ ...connection })),
      messages: this.messages(),
      annotations,
    };
  }

  /**
   * With `compression: 'later'`: compresses the literal text of up to `chunks` sealed chunks not compressed
   * yet (the oldest first), so a store filled in a hurry is made compact afterwards, a little at a time.
   * True while sealed chunks remain to compress. Reading the store gives the same either way.
   */
  compressSealed(chunks = 1): boolean {
    if (this.#compression !== 'later') return false;
    let done = 0;
    while (this.#compressedChunks < this.#chunks.length - 1 && done < chunks) {
      const chunk = this.#chunks[this.#compressedChunks++]!;
      this.#uncompressedCharacters -= chunk.literalLength;
      chunk.compress();
      done++;
    }
    return this.#compressedChunks < this.#chunks.length - 1;
  }

  /** What the store holds, in bytes. */
  size(): TranscriptStoreSize {
    this.packPending();
    let codeBytes = 0;
    let literalBytes = 0;
    for (const chunk of this.#chunks) {
      const bytes = chunk.byteLength;
      codeBytes += bytes.codes;
      literalBytes += bytes.literals;
    }
    const columns = [
      this.#connection,
      this.#flags,
      this.#time,
      this.#codeStart,
      this.#literalStart,
      this.#annotationIndex,
      this.#annotationType,
      this.#stepGroup,
      this.#stepNumber,
      this.#stepMessage,
      ...this.#byConnection,
    ];
    return {
      messages: this.length,
      annotations: this.annotationCount,
      chunks: this.#chunks.length,
      phrases: this.phrases.size,
      phraseBytes: this.phrases.characters * 2,
      codeBytes,
      literalBytes,
      columnBytes: columns.reduce((total, column) => total + column.byteLength, 0),
      packedBytes: this.#packers.reduce((total, packer) => total + packer.byteLength, 0),
    };
  }

  #check(index: number): void {
    if (!(index >= this.#connection.base && index < this.length))
      throw new RangeError(
        index >= 0 && index < this.#connection.base ? `message ${index} was not kept` : `no message ${index}`,
      );
  }

  /**
   * The payload of a phrased message as a JSON string literal, from each phrase's escaped text; undefined
   * where a surrogate pair is split between two phrases (escaped apart, its halves would read as lone).
   */
  #escapedPhrases(index: number): string | undefined {
    const { chunk, codeEnd } = this.#locate(index);
    const escaped = this.#escaped;
    let json = '"';
    let previousEndsHigh = false;
    let whole = true;
    chunk.readPhrases(this.#codeStart.at(index), codeEnd, {
      push: (phrase) => {
        let entry = escaped[phrase];
        if (entry === undefined) {
          const text = this.phrases.text(phrase);
          entry = escaped[phrase] = {
            json: JSON.stringify(text).slice(1, -1),
            startsLow: isLowSurrogate(text.charCodeAt(0)),
            endsHigh: isHighSurrogate(text.charCodeAt(text.length - 1)),
          };
        }
        if (previousEndsHigh && entry.startsLow) whole = false;
        previousEndsHigh = entry.endsHigh;
        json += entry.json;
      },
    });
    return whole ? json + '"' : undefined;
  }

  #connectionJson(connection: number): string {
    return (this.#connectionJsonCache[connection] ??= JSON.stringify(this.#connections[connection]!.id));
  }

  #payload(index: number): string {
    const { chunk, codeEnd } = this.#locate(index);
    return chunk.decode(
      this.phrases,
      this.#codeStart.at(index),
      codeEnd,
      this.#literalStart.at(index),
      this.#literalsOf(chunk),
    );
  }

  /** A message's chunk and where its codes end: where the next message of the chunk starts, or with it. */
  #locate(index: number): { chunk: MessageChunk; codeEnd: number } {
    const position = this.#chunkPosition(index);
    const chunk = this.#chunks[position]!;
    const next = this.#chunks[position + 1];
    const lastOfChunk = next ? index + 1 === next.first : index + 1 === this.length;
    return { chunk, codeEnd: lastOfChunk ? chunk.codeLength : this.#codeStart.at(index + 1) };
  }

  #literalsOf(chunk: MessageChunk): string {
    if (!chunk.sealed) return chunk.literalText();
    if (this.#inflated?.chunk !== chunk) this.#inflated = { chunk, text: chunk.literalText() };
    return this.#inflated.text;
  }

  #chunkPosition(index: number): number {
    const chunks = this.#chunks;
    let low = 0;
    let high = chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (chunks[middle]!.first <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  #unpack(data: unknown): unknown {
    if (data instanceof PackedAnnotation) return this.#packers[data.packer]!.unpack(data.packed, this);
    return data;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
