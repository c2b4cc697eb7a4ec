/**
 * `java.util.Random`, bit for bit: the 48-bit linear congruential generator of the Java platform
 * specification (multiplier 0x5DEECE66D, increment 11, seed scrambled with the multiplier), with the
 * derivations the specification fixes: `nextInt(bound)` takes the high bits for powers of two and otherwise
 * rejects draws from the incomplete last block, `nextDouble` joins 26 and 27 bits. A Java program seeded
 * with `new Random(seed)` and this generator seeded with the same number draw the same values in the same
 * order, which is what lets Protoplay replay a Java server's random choices.
 *
 * The 48-bit state is kept as two 24-bit halves so every product stays below 2^53 and is exact in a double.
 */

const MULTIPLIER_HIGH = 0x5de; // bits 24..34 of 0x5DEECE66D
const MULTIPLIER_LOW = 0xece66d; // bits 0..23
const INCREMENT = 0xb;
const TWO_24 = 0x1000000;

export class JavaRandom {
  #high = 0;
  #low = 0;

  /** `new Random(seed)`: any integer a Java `long` holds (a number beyond 2^53 must be given as a bigint). */
  constructor(seed: number | bigint = 0) {
    this.setSeed(seed);
  }

  /** `Random.setSeed`: the seed's low 48 bits, xored with the multiplier. */
  setSeed(seed: number | bigint): void {
    const scrambled = (BigInt.asUintN(64, BigInt(seed)) ^ 0x5deece66dn) & 0xffffffffffffn;
    this.#high = Number(scrambled >> 24n);
    this.#low = Number(scrambled & 0xffffffn);
  }

  /** `Random.next(bits)`: the top `bits` (1..32) of the advanced state, as a Java int. */
  next(bits: number): number {
    const low = this.#low;
    // state * multiplier + increment, mod 2^48, in 24-bit halves (every intermediate below 2^53).
    const lowProduct = low * MULTIPLIER_LOW + INCREMENT;
    const carry = Math.floor(lowProduct / TWO_24);
    const nextLow = lowProduct - carry * TWO_24;
    const highSum = this.#high * MULTIPLIER_LOW + low * MULTIPLIER_HIGH + carry;
    const nextHigh = highSum - Math.floor(highSum / TWO_24) * TWO_24;
    this.#low = nextLow;
    this.#high = nextHigh;
    // (high * 2^24 + low) >>> (48 - bits), then the int cast.
    if (bits <= 24) return nextHigh >>> (24 - bits);
    return (nextHigh * (1 << (bits - 24)) + (nextLow >>> (48 - bits))) | 0;
  }

  /** `Random.nextInt()`: a uniformly distributed Java int. */
  nextInt32(): number {
    return this.next(32);
  }

  /** `Random.nextInt(bound)`: uniform in [0, bound); bound in [1, 2^31 - 1]. */
  nextInt(bound: number): number {
    if (!Number.isInteger(bound) || bound <= 0 || bound > 0x7fffffff) {
      throw new RangeError(`bound must be a positive Java int, got ${bound}`);
    }
    let r = this.next(31);
    const m = bound - 1;
    if ((bound & m) === 0) return r >>> (31 - Math.log2(bound));
    for (let u = r; ((u - (r = u % bound) + m) | 0) < 0; u = this.next(31));
    return r;
  }

  /** `Random.nextDouble()`: uniform in [0, 1) with 53 bits. */
  nextDouble(): number {
    return (this.next(26) * 134217728 + this.next(27)) / 9007199254740992;
  }

  /** `Random.nextBoolean()`. */
  nextBoolean(): boolean {
    return this.next(1) !== 0;
  }

  /**
   * Protoplay's name for a double in [0, 1) (the shape every simulator's generator offers): Java's
   * `nextDouble`, not Java's 24-bit `nextFloat`.
   */
  nextFloat(): number {
    return this.nextDouble();
  }
}
