/**
 * A small memo of what was read from recent frames. Validating a recording runs both roles' machines over
 * every message, and the readers of the views judge the agents again a little later: each needs a few
 * facts of the same server frame, and a percept is kilobytes of JSON.
 *
 * A reading is a pure function of the frame's text. The memo keeps one slot per message index modulo its
 * capacity, and a remembered reading is used only for the very same text (another message at that slot, or
 * another transcript's message with the same index, is read afresh). So the memo holds at most `capacity`
 * readings and its memory does not grow with the session; the readings should be small (facts, not parsed
 * percepts). Looking a frame up costs no hashing of its text: one slot, one comparison.
 */
export class FrameMemo<T> {
  readonly #read: (text: string) => T;
  #texts: (string | undefined)[] = [];
  #readings: (T | undefined)[] = [];
  #capacity = 0;

  /** `capacity`: readings remembered at most (0: none). */
  constructor(capacity: number, read: (text: string) => T) {
    this.#read = read;
    this.resize(capacity);
  }

  /** The reading of `text`, the text of message `index`: remembered, or read now and remembered. */
  get(index: number, text: string): T {
    if (this.#capacity === 0) return this.#read(text);
    const slot = (index >>> 0) % this.#capacity;
    if (this.#texts[slot] === text) return this.#readings[slot]!;
    const reading = this.#read(text);
    this.#texts[slot] = text;
    this.#readings[slot] = reading;
    return reading;
  }

  /** How many readings are remembered at most. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Remembers at most `capacity` readings from now on (0: none), forgetting every reading so far. */
  resize(capacity: number): void {
    this.#capacity = Math.max(0, Math.floor(capacity));
    this.#texts = new Array<string | undefined>(this.#capacity).fill(undefined);
    this.#readings = new Array<T | undefined>(this.#capacity).fill(undefined);
  }
}
