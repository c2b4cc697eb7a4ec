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

  /** Keeps a batch: `json` holds `{ messages, annotations }` with `messageCount` messages. */
  add(json: string, messageCount: number): void {
    this.#batches.push({ first: this.#end, count: messageCount, json, parsed: undefined });
    this.#end += messageCount;
  }

  /** The not yet drained batch holding the message at `index`, parsed; undefined when there is none. */
  batchOf(index: number): ParsedBatch | undefined {
    let low = this.#drained;
    let high = this.#batches.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const batch = this.#batches[middle]!;
      if (index < batch.first) high = middle - 1;
      else if (index >= batch.first + batch.count) low = middle + 1;
      else return this.#parse(batch);
    }
    return undefined;
  }

  /** Hands every batch not handed yet to `take`, in order, parsed, and forgets them. */
  drain(take: (batch: ParsedBatch) => void): void {
    while (this.#drained < this.#batches.length) {
      const batch = this.#batches[this.#drained]!;
      take(this.#parse(batch));
      // The transcript holds the batch now: drop it here.
      this.#batches[this.#drained] = { ...batch, json: undefined, parsed: undefined };
      this.#drained++;
    }
  }

  #parse(batch: Batch): ParsedBatch {
    if (!batch.parsed) {
      batch.parsed = JSON.parse(batch.json ?? '{"messages":[],"annotations":[]}') as ParsedBatch;
      batch.json = undefined;
    }
    return batch.parsed;
  }
}
