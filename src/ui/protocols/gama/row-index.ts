/**
 * What the GAMA views look up in the message rows of a transcript, kept from the rows added since the last
 * look. While a big recording opens, the rows grow a slice at a time up to a hundred thousand and more:
 * scanning them all again for every slice made each slice cost more than the one before.
 */
import type { MessageSummary } from '../../../core/protocols/reading';

/** Cycles per episode, each scavenger's requests and the scavengers, of rows that only grow. */
export class GamaRowIndex {
  #seen = 0;
  /** The first and the last row taken in: a list without them is another transcript. */
  #first: MessageSummary | undefined;
  #last: MessageSummary | undefined;
  /** The last cycle of each episode. */
  #cycles = new Map<number, number>();
  /** Positions of each scavenger's requests (and terminal messages), ascending. */
  #requests = new Map<string, number[]>();
  #scavengers: string[] = [];
  #version = 0;

  /**
   * Takes in the rows new since the last call (a list that is not the last one grown starts over) and
   * returns a number that changes whenever something was taken in, for views to depend on.
   */
  update(rows: readonly MessageSummary[]): number {
    const grown =
      rows.length >= this.#seen &&
      rows[0] === this.#first &&
      (this.#seen === 0 || rows[this.#seen - 1] === this.#last);
    if (!grown) this.#clear();
    if (rows.length === this.#seen && grown) return this.#version;
    for (let i = this.#seen; i < rows.length; i++) this.#take(rows[i]!, i);
    this.#seen = rows.length;
    this.#first = rows[0];
    this.#last = rows[rows.length - 1];
    return ++this.#version;
  }

  /** The last cycle seen of an episode (0 when none). */
  cycles(episode: number): number {
    return this.#cycles.get(episode) ?? 0;
  }

  /** Position of a scavenger's last request (or terminal message) at or before position `until`. */
  lastRequest(scavenger: string, until: number): number | undefined {
    const positions = this.#requests.get(scavenger);
    if (!positions) return undefined;
    // The last position <= until.
    let low = 0;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (positions[middle]! <= until) low = middle + 1;
      else high = middle;
    }
    return low > 0 ? positions[low - 1] : undefined;
  }

  /** The scavengers, from their connect messages, in order of first connection. */
  get scavengers(): readonly string[] {
    return this.#scavengers;
  }

  #take(row: MessageSummary, position: number): void {
    if (row.round !== undefined && (row.turn ?? 0) > (this.#cycles.get(row.round) ?? 0))
      this.#cycles.set(row.round, row.turn!);
    if (!row.channel) return;
    if (row.type === 'request' || row.type === 'terminal') {
      const positions = this.#requests.get(row.channel);
      if (positions) positions.push(position);
      else this.#requests.set(row.channel, [position]);
    } else if (row.type === 'connect' && !this.#scavengers.includes(row.channel)) {
      this.#scavengers = [...this.#scavengers, row.channel];
    }
  }

  #clear(): void {
    this.#seen = 0;
    this.#first = this.#last = undefined;
    this.#cycles = new Map();
    this.#requests = new Map();
    this.#scavengers = [];
  }
}
