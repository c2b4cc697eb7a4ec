/**
 * The WELL19937c generator (Panneton, L'Ecuyer, Matsumoto 2006) with the seeding and double construction
 * of Apache Commons Math 3, which is what rddlsim's server draws from (one generator per session, seeded
 * with `server seed + session - 1`). With it, a session replays rddlsim's random choices bit for bit as long
 * as the same numbers are drawn in the same order; see `SimulatorOptions.generator`.
 */

const K = 19937;
const W = 32;
const R = Math.ceil(K / W); // 624 words of state
const M1 = 70;
const M2 = 179;
const M3 = 449;

/** A WELL19937c stream. */
export class Well19937c {
  readonly #v = new Int32Array(R);
  #index = 0;
  readonly #iRm1 = new Int32Array(R);
  readonly #iRm2 = new Int32Array(R);
  readonly #i1 = new Int32Array(R);
  readonly #i2 = new Int32Array(R);
  readonly #i3 = new Int32Array(R);

  /** Seeds like commons-math's `setSeed(long)`: the high and low 32-bit halves become the first two words. */
  constructor(seed: number) {
    for (let j = 0; j < R; j++) {
      this.#iRm1[j] = (j + R - 1) % R;
      this.#iRm2[j] = (j + R - 2) % R;
      this.#i1[j] = (j + M1) % R;
      this.#i2[j] = (j + M2) % R;
      this.#i3[j] = (j + M3) % R;
    }
    const big = BigInt.asUintN(64, BigInt(Math.trunc(seed)));
    this.#v[0] = Number(BigInt.asIntN(32, big >> 32n));
    this.#v[1] = Number(BigInt.asIntN(32, big));
    for (let i = 2; i < R; i++) {
      const l = this.#v[i - 2]!;
      this.#v[i] = (Math.imul(1812433253, l ^ (l >> 30)) + i) | 0;
    }
    this.#index = 0;
  }

  /** The next `bits` (1..32) random bits, as an unsigned number. */
  next(bits: number): number {
    const v = this.#v;
    const index = this.#index;
    const indexRm1 = this.#iRm1[index]!;
    const indexRm2 = this.#iRm2[index]!;
    const v0 = v[index]!;
    const vM1 = v[this.#i1[index]!]!;
    const vM2 = v[this.#i2[index]!]!;
    const vM3 = v[this.#i3[index]!]!;
    const z0 = (0x80000000 & v[indexRm1]!) ^ (0x7fffffff & v[indexRm2]!);
    const z1 = v0 ^ (v0 << 25) ^ (vM1 ^ (vM1 >>> 27));
    const z2 = (vM2 >>> 9) ^ (vM3 ^ (vM3 >>> 1));
    const z3 = z1 ^ z2;
    let z4 = z0 ^ (z1 ^ (z1 << 9)) ^ (z2 ^ (z2 << 21)) ^ (z3 ^ (z3 >>> 21));
    v[index] = z3;
    v[indexRm1] = z4;
    v[indexRm2] = v[indexRm2]! & 0x80000000;
    this.#index = indexRm1;
    // Matsumoto-Kurita tempering
    z4 = z4 ^ ((z4 << 7) & 0xe46e1700);
    z4 = z4 ^ ((z4 << 15) & 0x9b868000);
    return z4 >>> (32 - bits);
  }

  /** A double in [0, 1) from 52 random bits (26 high, 26 low), as commons-math builds it. */
  nextDouble(): number {
    const high = this.next(26);
    const low = this.next(26);
    return (high * 67108864 + low) / 4503599627370496;
  }
}
