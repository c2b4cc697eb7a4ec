/**
 * Messages and annotations that arrived from a session worker as JSON text, kept as text and parsed only
 * when something needs them: the message on display, the turn on display, or the whole transcript (for
 * an export). A fast session sends thousands of messages a second that nobody looks at one by one;
 * parsing them all as they arrive was most of what the page did during such a session.
 */
import type { Annotation, TranscriptMessage } from '../core/transcript/model';

/** One batch as the worker sent it. */
interface Batch {
  /** Transcript index of its first message. */
  first: number;
  count: number;
  /** The batch's JSON text, until it is parsed. */
  json: string | undefined;
  parsed: ParsedBatch | undefined;
  /** Where each message and the annotations are in `json`, when the worker said. */
  places: BatchPlaces | undefined;
  /** Messages parsed one by one (with `places`), by their place in the batch. */
  single: Map<number, TranscriptMessage> | undefined;
  /** The annotations, parsed on their own (with `places`). */
  annotations: Annotation[] | undefined;
}

/**
 * Where, in a batch's JSON text, each message starts (it ends one character before the next start; the last
 * start is one past the end of the last message) and where the annotations' array is.
 */
export interface BatchPlaces {
  messages: number[];
  annotations: [number, number];
}

/** A batch's content. */
export interface ParsedBatch {
  messages: TranscriptMessage[];
  annotations: Annotation[];
}

/** Batches of a transcript in arrival order; message indices follow on from batch to batch. */
export class DeferredBatches {
  readonly #batches: Batch[] = [];
  /** Batches handed over by `drain`, from the first. */
  #drained = 0;
  #end: number;

  /** `first` is the transcript index the first batch's first message will have. */
  constructor(first: number) {
    this.#end = first;
  }

  /** True when some batch has not been drained yet. */
  get pending(): boolean {
    return this.#drained < this.#batches.length;
  }

  /**
   * Keeps a batch: `json` holds `{ messages, annotations }` with `messageCount` messages; with `places`,
   * its messages can be read one at a time.
   */
  add(json: string, messageCount: number, places?: BatchPlaces): void {
    const known = places && places.messages.length === messageCount + 1 ? places : undefined;
    this.#batches.push({
      first: this.#end,
      count: messageCount,
      json,
      parsed: undefined,
      places: known,
      single: undefined,
      annotations: undefined,
    });
    this.#end += messageCount;
  }

  /** The not yet drained message at `index` (only it is parsed when its batch says where it is). */
  message(index: number): TranscriptMessage | undefined {
    const batch = this.#find(index);
    if (!batch) return undefined;
    const { json, places } = batch;
    if (batch.parsed || json === undefined || !places) {
      const { messages } = this.#parse(batch);
      return messages[index - (messages[0]?.index ?? batch.first)];
    }
    const at = index - batch.first;
    batch.single ??= new Map();
    let message = batch.single.get(at);
    if (!message) {
      message = JSON.parse(
        json.slice(places.messages[at], places.messages[at + 1]! - 1),
      ) as TranscriptMessage;
      batch.single.set(at, message);
    }
    return message;
  }

  /** The annotations of the not yet drained batch holding the message at `index`. */
  annotationsOf(index: number): readonly Annotation[] | undefined {
    const batch = this.#find(index);
    if (!batch) return undefined;
    const { json, places } = batch;
    if (batch.parsed || json === undefined || !places) return this.#parse(batch).annotations;
    batch.annotations ??= JSON.parse(json.slice(...places.annotations)) as Annotation[];
    return batch.annotations;
  }

  /** The not yet drained batch holding the message at `index`, parsed; undefined when there is none. */
  batchOf(index: number): ParsedBatch | undefined {
    const batch = this.#find(index);
    return batch && this.#parse(batch);
  }

  #find(index: number): Batch | undefined {
    let low = this.#drained;
    let high = this.#batches.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const batch = this.#batches[middle]!;
      if (index < batch.first) high = middle - 1;
      else if (index >= batch.first + batch.count) low = middle + 1;
      else return batch;
    }
    return undefined;
  }

  /** Hands every batch not handed yet to `take`, in order, parsed, and forgets them. */
  drain(take: (batch: ParsedBatch) => void): void {
    while (this.#drained < this.#batches.length) {
      const batch = this.#batches[this.#drained]!;
      take(this.#parse(batch));
      // The transcript holds the batch now: drop it here.
      this.#batches[this.#drained] = {
        ...batch,
        json: undefined,
        parsed: undefined,
        single: undefined,
        annotations: undefined,
      };
      this.#drained++;
    }
  }

  #parse(batch: Batch): ParsedBatch {
    if (!batch.parsed) {
      batch.parsed = JSON.parse(batch.json ?? '{"messages":[],"annotations":[]}') as ParsedBatch;
      batch.json = undefined;
      batch.single = undefined;
      batch.annotations = undefined;
    }
    return batch.parsed;
  }
}
