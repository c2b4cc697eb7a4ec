/**
 * Seeded pseudo-random numbers: one generator per session, so every emulated session is reproducible from its
 * seed. sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state, passes PractRand, and
 * needs only 32-bit integer operations, which JavaScript engines compile to plain machine instructions.
 */
export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  /** Seeds from any integer (or string); the same seed always gives the same sequence. */
  constructor(seed: number | string = 0) {
    let h = typeof seed === 'string' ? hashString(seed) : seed >>> 0;
    // splitmix32 expands the seed into four well-mixed state words.
    const next = () => {
      h = (h + 0x9e3779b9) | 0;
      let z = h;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = next();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  nextUint32(): number {
    const a = this.#a,
      b = this.#b,
      c = this.#c,
      d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    this.#c = ((c << 21) | (c >>> 11)) + t;
    return t >>> 0;
  }

  /** A double uniformly distributed in [0, 1) with 53 random bits. */
  nextFloat(): number {
    const high = this.nextUint32() >>> 5; // 27 bits
    const low = this.nextUint32() >>> 6; // 26 bits
    return (high * 67108864 + low) / 9007199254740992;
  }

  /** An integer uniformly distributed in [0, n), without modulo bias. n must be in [1, 2^32]. */
  nextInt(n: number): number {
    if (n <= 1) return 0;
    const limit = 4294967296 - (4294967296 % n);
    let x: number;
    do x = this.nextUint32();
    while (x >= limit);
    return x % n;
  }

  /** The internal state, to snapshot a session mid-way and resume it exactly. */
  getState(): [number, number, number, number] {
    return [this.#a, this.#b, this.#c, this.#d];
  }

  setState(state: readonly [number, number, number, number]): void {
    [this.#a, this.#b, this.#c, this.#d] = state.map((x) => x | 0) as [number, number, number, number];
  }
}

/** FNV-1a hash of a string, so textual seeds are accepted too. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
