/**
 * Growable typed arrays: the store keeps one number per message in each column, so a message's metadata
 * costs a few bytes instead of an object.
 */

/** A typed array constructor the columns can grow. */
type TypedArrayOf<T> = {
  new (length: number): T;
};

/** An append-only column of numbers backed by a typed array that doubles when full. */
export class Column<T extends Int32Array | Uint32Array | Uint8Array | Float64Array> {
  #values: T;
  /** Values held (from `#base`). */
  #length = 0;
  /** Values dropped from the front (`dropBefore`): `at` still takes the index counted from the first. */
  #base = 0;
  readonly #make: TypedArrayOf<T>;

  constructor(make: TypedArrayOf<T>, capacity = 1024) {
    this.#make = make;
    this.#values = new make(capacity);
  }

  get length(): number {
    return this.#base + this.#length;
  }

  /** Index of the first value still held. */
  get base(): number {
    return this.#base;
  }

  /** Drops the values before index `index` (counted from the first ever pushed); the rest keep their indices. */
  dropBefore(index: number): void {
    const count = Math.min(index - this.#base, this.#length);
    if (count <= 0) return;
    this.#values.copyWithin(0, count, this.#length);
    this.#length -= count;
    this.#base += count;
  }

  push(value: number): void {
    if (this.#length === this.#values.length) {
      const grown = new this.#make(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = value;
  }

  /** The value at `index` (no bounds check beyond the backing array's). */
  at(index: number): number {
    return this.#values[index - this.#base]!;
  }

  /** The values as a view (invalidated by the next push that grows the column). */
  view(): T {
    return this.#values.subarray(0, this.#length) as T;
  }

  /** Bytes held, capacity included. */
  get byteLength(): number {
    return this.#values.byteLength;
  }
}

/** A growable byte buffer for variable-length integers (7 bits per byte, high bit = more follow). */
export class VarintWriter {
  #bytes: Uint8Array;
  #length = 0;

  constructor(capacity = 4096) {
    this.#bytes = new Uint8Array(capacity);
  }

  get length(): number {
    return this.#length;
  }

  /** Appends a non-negative integer below 2^31. */
  write(value: number): void {
    if (this.#length + 5 > this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    const bytes = this.#bytes;
    while (value >= 0x80) {
      bytes[this.#length++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    bytes[this.#length++] = value;
  }

  /** The bytes written (a view until the next write). */
  view(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  /** A trimmed copy of the bytes written. */
  copy(): Uint8Array {
    return this.#bytes.slice(0, this.#length);
  }

  get byteLength(): number {
    return this.#bytes.byteLength;
  }
}

/** Reads the integer at `position` of a varint buffer; returns it and moves `cursor.position` past it. */
export function readVarint(bytes: Uint8Array, cursor: { position: number }): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[cursor.position++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
    shift += 7;
  }
}
