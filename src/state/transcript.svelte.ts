import type { Annotation, Transcript, TranscriptMessage } from '../core/transcript/model';
import type { ReaderNews, TranscriptOrigin, TurnPlace } from '../core/protocols/session-contract';
import { DeferredBatches, type BatchPlaces } from './deferred-batches';
import { applyRoundNews } from '../core/session/reader-news';
import type {
  MessageSummary,
  RoundSummary,
  SessionNote,
  TranscriptReader,
  TurnSnapshot,
} from '../core/protocols/reading';

/**
 * The reading of a transcript so far, as plain arrays grown in place. Turns read by the page are whole
 * snapshots; turns from a session worker's news are places, read when shown (`turnAt`).
 */
interface Reading {
  messages: MessageSummary[];
  rounds: RoundSummary[];
  turns: (TurnSnapshot | TurnPlace)[];
  notes: SessionNote[];
}

/** Longest stretch of reading a loaded transcript on the page before letting it paint, in ms. */
const READING_SLICE_MS = 8;

export type { TranscriptOrigin };

/**
 * The transcript on screen and its reading for the views. Messages can number in the tens of thousands,
 * so they are kept in plain arrays (never deeply reactive) and a version counter tells views when to look
 * again.
 */
export class TranscriptState {
  #transcript: Transcript | undefined;
  /** Batches received as text and not needed yet (see `appendDeferred`). */
  #deferred = new DeferredBatches(0);
  #createReader: (() => TranscriptReader) | undefined;
  #reader: TranscriptReader | undefined;
  /** Annotations by the index of their message, for reading a turn when it is shown. */
  #annotationsAt: (Annotation[] | undefined)[] = [];
  /** Turns read when shown, by position. */
  #turnsRead: (TurnSnapshot | undefined)[] = [];
  /** The reading: the page's reader's arrays, or the worker's news gathered (live sessions). */
  #reading: Reading = { messages: [], rounds: [], turns: [], notes: [] };
  #readByWorker = false;
  /** Bumped by every reset, so reading left over from an earlier transcript stops. */
  #generation = 0;
  /** While batching (`batch`): the first row not yet published, or undefined when nothing waits. */
  #batching: { unpublishedFrom: number | undefined } | undefined;
  /** The first row a held batch left unpublished (see `batch`), or undefined when none did. */
  #held: number | undefined;
  #version = $state(0);
  origin = $state<TranscriptOrigin>('live');
  // Fresh arrays after every append: views compare by reference, and the reader grows its arrays in place.
  #messages = $state.raw<readonly MessageSummary[]>([]);
  #rounds = $state.raw<readonly RoundSummary[]>([]);
  #turns = $state.raw<readonly (TurnSnapshot | TurnPlace)[]>([]);
  #notes = $state.raw<readonly SessionNote[]>([]);
  #types = $state.raw<readonly string[]>([]);

  /** The full transcript (plain data), or undefined before any session. */
  get transcript(): Transcript | undefined {
    void this.#version;
    this.#drainDeferred();
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

  /** Where each turn is; `turnAt` gives a turn with its fluents. */
  get turns(): readonly TurnPlace[] {
    return this.#turns;
  }

  /**
   * The turn at a position with what was observed (and the true state, when recorded). A turn the session
   * worker reported by its place only is read here, from its message, the first time it is shown.
   */
  turnAt(position: number): TurnSnapshot | undefined {
    const turn = this.#turns[position];
    if (!turn || 'observed' in turn) return turn;
    const known = this.#turnsRead[position];
    if (known) return known;
    const message = this.message(turn.index);
    if (!message || !this.#createReader) return undefined;
    const reader = this.#createReader();
    // A turn's true state is annotated with the turn's own message, so it travels in the same batch.
    const annotations =
      this.#annotationsAt[turn.index] ??
      this.#deferred.annotationsOf(turn.index)?.filter((a) => a.index === turn.index) ??
      [];
    reader.append([message], annotations);
    const read = reader.turns[0];
    const snapshot: TurnSnapshot = {
      ...turn,
      observed: read?.observed ?? [],
      noObservation: read?.noObservation ?? false,
      ...(read?.world ? { world: read.world } : {}),
    };
    this.#turnsRead[position] = snapshot;
    return snapshot;
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
    const known = this.#transcript?.messages[index];
    if (known) return known;
    return this.#deferred.message(index);
  }

  /**
   * Starts showing a transcript (empty for a new session, complete for an import). A long transcript is
   * read a slice at a time between paints, so loading one never freezes the page; the views fill in as
   * it is read.
   */
  reset(transcript: Transcript, createReader: () => TranscriptReader, origin: TranscriptOrigin): void {
    const generation = ++this.#generation;
    const reader = createReader();
    this.#createReader = createReader;
    this.#annotationsAt = [];
    this.#turnsRead = [];
    this.#transcript = {
      ...transcript,
      connections: [...transcript.connections],
      messages: [...transcript.messages],
      annotations: [...transcript.annotations],
    };
    this.#deferred = new DeferredBatches(transcript.messages.length);
    this.#reader = reader;
    // The reader's arrays are this reading until a session worker sends its own (see `append`).
    this.#reading = reader as unknown as Reading;
    this.#readByWorker = false;
    this.origin = origin;
    this.#types = [];
    this.#rounds = [];
    // Annotations go to the reader once the message they hang off has been read.
    const annotations = [...transcript.annotations].sort((a, b) => a.index - b.index);
    const { messages } = transcript;
    let read = 0;
    let attached = 0;
    const readSlice = () => {
      if (generation !== this.#generation) return;
      const started = performance.now();
      const known = this.#reading.messages.length;
      do {
        const from = read;
        read = Math.min(messages.length, read + 200);
        let until = attached;
        while (until < annotations.length && (read === messages.length || annotations[until]!.index < read))
          until++;
        reader.append(messages.slice(from, read), annotations.slice(attached, until));
        attached = until;
      } while (read < messages.length && performance.now() - started < READING_SLICE_MS);
      this.#publish(known);
      if (read < messages.length) setTimeout(readSlice, 0);
    };
    readSlice();
  }

  /** Shows nothing: the views go blank (another protocol's transcript, or one kept elsewhere). */
  clear(origin: TranscriptOrigin = 'live'): void {
    this.#generation++;
    this.#transcript = undefined;
    this.#reader = undefined;
    this.#createReader = undefined;
    this.#annotationsAt = [];
    this.#turnsRead = [];
    this.#deferred = new DeferredBatches(0);
    this.#reading = { messages: [], rounds: [], turns: [], notes: [] };
    this.#readByWorker = false;
    this.origin = origin;
    this.#types = [];
    this.#rounds = [];
    this.#held = undefined;
    this.#publish(0);
  }

  /**
   * Adds messages and annotations at the end (the transcript is append-only). With `news` (the session
   * worker's reading of them) nothing is parsed here; without, the page's reader reads them.
   */
  append(
    messages: readonly TranscriptMessage[],
    annotations: readonly Annotation[],
    news?: ReaderNews,
  ): void {
    const transcript = this.#transcript;
    if (!transcript || !this.#reader) return;
    // Deferred batches come first in the transcript.
    if (messages.length || annotations.length) this.#drainDeferred();
    for (const message of messages) transcript.messages.push(message);
    for (const annotation of annotations) {
      transcript.annotations.push(annotation);
      if (news) (this.#annotationsAt[annotation.index] ??= []).push(annotation);
    }
    for (const message of messages) {
      if (!transcript.connections.some((c) => c.id === message.conn))
        transcript.connections.push({ id: message.conn });
    }
    const known = this.#reading.messages.length;
    if (news) {
      if (!this.#readByWorker) {
        this.#readByWorker = true;
        this.#reading = { messages: [], rounds: [], turns: [], notes: [] };
      }
      const reading = this.#reading;
      for (const row of news.messages) reading.messages.push(row);
      for (const turn of news.turns) reading.turns.push(turn);
      applyRoundNews(reading.rounds, news);
      for (const note of news.notes) reading.notes.push(note);
    } else {
      this.#reader.append(messages, annotations);
    }
    this.#publish(known);
  }

  /**
   * Adds a batch a session worker sent as JSON text (`{ messages, annotations }`, `messageCount`
   * messages, each at its place in `places` when given) with its reading: the views get the reading at once, the text is parsed only when one of
   * its messages is shown, or the whole transcript is asked for.
   */
  appendDeferred(json: string, messageCount: number, news: ReaderNews, places?: BatchPlaces): void {
    if (!this.#transcript) return;
    this.#deferred.add(json, messageCount, places);
    this.append([], [], news);
  }

  /** Moves the deferred batches into the transcript, parsing those not parsed yet. */
  #drainDeferred(): void {
    const transcript = this.#transcript;
    if (!transcript || !this.#deferred.pending) return;
    this.#deferred.drain(({ messages, annotations }) => {
      for (const message of messages) {
        transcript.messages.push(message);
        if (!transcript.connections.some((c) => c.id === message.conn))
          transcript.connections.push({ id: message.conn });
      }
      for (const annotation of annotations) {
        transcript.annotations.push(annotation);
        (this.#annotationsAt[annotation.index] ??= []).push(annotation);
      }
    });
  }

  /**
   * Runs `changes` (resets, appends) and hands the views their result once, at the end; with `hold`,
   * not even then: the views see them (and those of earlier held batches) at the next `publishHeld` or
   * batch that does not hold.
   */
  batch(changes: () => void, hold = false): void {
    if (this.#batching) return changes();
    const batching = (this.#batching = { unpublishedFrom: this.#held });
    this.#held = undefined;
    try {
      changes();
    } finally {
      this.#batching = undefined;
      if (batching.unpublishedFrom !== undefined) {
        if (hold) this.#held = batching.unpublishedFrom;
        else this.#publish(batching.unpublishedFrom);
      }
    }
  }

  /** Hands the views what held batches changed (see `batch`). */
  publishHeld(): void {
    const held = this.#held;
    this.#held = undefined;
    if (held !== undefined) this.#publish(held);
  }

  /** Hands the views fresh arrays (they compare by reference); `known` rows were published before. */
  #publish(known: number): void {
    if (this.#batching) {
      const waiting = this.#batching.unpublishedFrom;
      this.#batching.unpublishedFrom = waiting === undefined ? known : Math.min(waiting, known);
      return;
    }
    const reading = this.#reading;
    const types = [...this.#types];
    for (let i = known; i < reading.messages.length; i++) {
      const type = reading.messages[i]!.type;
      if (!types.includes(type)) types.push(type);
    }
    if (types.length > this.#types.length) this.#types = types;
    this.#messages = reading.messages.slice();
    // Only the last round can still change: it is copied, so a view holding it sees a new object.
    const rounds = reading.rounds;
    this.#rounds = rounds.map((round, i) =>
      i < rounds.length - 1 && this.#rounds[i]?.endIndex === round.endIndex && round.endIndex !== undefined
        ? this.#rounds[i]!
        : { ...round, stepRewards: round.stepRewards.slice() },
    );
    this.#turns = reading.turns.slice();
    this.#notes = reading.notes.slice();
    this.#version++;
  }
}
