/**
 * Sampling for RDDL's distributions with rddlsim's parameterisation and checks: Normal takes a variance,
 * Exponential a mean, Uniform needs lower < upper, Bernoulli a probability in [0, 1], Discrete
 * probabilities summing to 1 within 1e-6 (negative ones allowed, as rddlsim allows them), Gamma and
 * Weibull a shape and a scale.
 *
 * The algorithms are the ones commons-math (rddlsim's library) uses, so that with the WELL19937c source the
 * draws match rddlsim's: Box-Muller pairs for normals, Ahrens-Dieter (1972) SA for exponentials,
 * Marsaglia-Tsang (shape >= 1) and Ahrens-Dieter GS (shape < 1) for gammas, inversion for Weibull, and
 * multiplication of uniforms for Poisson means below 40; Multinomial is repeated Discrete draws and Dirichlet
 * normalised Gamma draws, as rddlsim builds them. Larger Poisson means use Hörmann's PTRS
 * transformed rejection, which is exact in distribution but does not reproduce rddlsim's draws.
 */

/** Anything that gives uniform doubles in [0, 1). */
export interface UniformGenerator {
  nextDouble(): number;
}

/** A parameter outside a distribution's domain, reported with the expression's location by the caller. */
export class DistributionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DistributionError';
  }
}

/** ln(2)^i / i! summed, the table of the SA algorithm (stops once the sum reaches 1). */
const EXPONENTIAL_SA_QI: number[] = (() => {
  const table: number[] = [];
  let qi = 0;
  let factorial = 1;
  for (let i = 1; qi < 1; i++) {
    factorial *= i;
    qi += Math.pow(Math.LN2, i) / factorial;
    table.push(qi);
  }
  return table;
})();

/** Uniform and Gaussian draws with the Gaussian pair cache of commons-math's generators. */
export class RandomSource {
  #cachedGaussian = NaN;

  constructor(private readonly generator: UniformGenerator) {}

  /** Uniform in [0, 1). */
  uniform(): number {
    return this.generator.nextDouble();
  }

  /** Standard normal; Box-Muller makes two, the second is kept for the next call. */
  gaussian(): number {
    if (!Number.isNaN(this.#cachedGaussian)) {
      const cached = this.#cachedGaussian;
      this.#cachedGaussian = NaN;
      return cached;
    }
    const x = this.generator.nextDouble();
    const y = this.generator.nextDouble();
    const alpha = 2 * Math.PI * x;
    const r = Math.sqrt(-2 * Math.log(y));
    this.#cachedGaussian = r * Math.sin(alpha);
    return r * Math.cos(alpha);
  }

  /** Bernoulli(p): true with probability p. */
  bernoulli(p: number): boolean {
    if (!(p >= 0 && p <= 1))
      throw new DistributionError(`Bernoulli probability ${formatNumber(p)} is not in [0, 1]`);
    return this.generator.nextDouble() < p;
  }

  /** Uniform(lower, upper): commons-math's `nextUniform`, which excludes a draw of exactly 0. */
  uniformBetween(lower: number, upper: number): number {
    if (!(lower < upper)) {
      throw new DistributionError(
        `Uniform needs lower < upper, but got Uniform(${formatNumber(lower)}, ${formatNumber(upper)})`,
      );
    }
    if (!Number.isFinite(lower) || !Number.isFinite(upper)) {
      throw new DistributionError(
        `Uniform needs finite bounds, but got Uniform(${formatNumber(lower)}, ${formatNumber(upper)})`,
      );
    }
    let u = this.generator.nextDouble();
    while (u <= 0) u = this.generator.nextDouble();
    return u * upper + (1 - u) * lower;
  }

  /** Normal(mean, variance): the second parameter is the variance; 0 gives the mean itself. */
  normal(mean: number, variance: number): number {
    if (!(variance >= 0))
      throw new DistributionError(`Normal variance ${formatNumber(variance)} is negative`);
    const sd = Math.sqrt(variance);
    if (sd === 0) return mean;
    return sd * this.gaussian() + mean;
  }

  /** Exponential(mean): the parameter is the mean (not a rate). Ahrens-Dieter SA. */
  exponential(mean: number): number {
    if (!(mean > 0)) throw new DistributionError(`Exponential mean ${formatNumber(mean)} must be positive`);
    return mean * this.standardExponential();
  }

  private standardExponential(): number {
    const q = EXPONENTIAL_SA_QI;
    let a = 0;
    let u = this.generator.nextDouble();
    while (u < 0.5) {
      a += q[0]!;
      u *= 2;
    }
    u += u - 1;
    if (u <= q[0]!) return a + u;
    let i = 0;
    let u2 = this.generator.nextDouble();
    let umin = u2;
    do {
      i++;
      u2 = this.generator.nextDouble();
      if (u2 < umin) umin = u2;
    } while (u > q[i]!);
    return a + umin * q[0]!;
  }

  /** Weibull(shape, scale) by inversion. */
  weibull(shape: number, scale: number): number {
    if (!(shape > 0) || !(scale > 0)) {
      throw new DistributionError(
        `Weibull needs a positive shape and scale, but got Weibull(${formatNumber(shape)}, ${formatNumber(scale)})`,
      );
    }
    const p = this.generator.nextDouble();
    if (p === 0) return 0;
    return scale * Math.pow(-Math.log(1 - p), 1 / shape);
  }

  /** Gamma(shape, scale). */
  gamma(shape: number, scale: number): number {
    if (!(shape > 0) || !(scale > 0)) {
      throw new DistributionError(
        `Gamma needs a positive shape and scale, but got Gamma(${formatNumber(shape)}, ${formatNumber(scale)})`,
      );
    }
    if (shape < 1) {
      // Ahrens-Dieter GS
      const b = 1 + shape / Math.E;
      for (;;) {
        const p = b * this.generator.nextDouble();
        if (p <= 1) {
          const x = Math.pow(p, 1 / shape);
          if (this.generator.nextDouble() <= Math.exp(-x)) return scale * x;
        } else {
          const x = -Math.log((b - p) / shape);
          if (this.generator.nextDouble() <= Math.pow(x, shape - 1)) return scale * x;
        }
      }
    }
    // Marsaglia-Tsang
    const d = shape - 1 / 3;
    const c = 1 / (3 * Math.sqrt(d));
    for (;;) {
      const x = this.gaussian();
      const v = (1 + c * x) * (1 + c * x) * (1 + c * x);
      if (v <= 0) continue;
      const x2 = x * x;
      const u = this.generator.nextDouble();
      if (u < 1 - 0.0331 * x2 * x2) return scale * d * v;
      if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) return scale * d * v;
    }
  }

  /** Poisson(mean), an int. */
  poisson(mean: number): number {
    if (!(mean > 0)) throw new DistributionError(`Poisson mean ${formatNumber(mean)} must be positive`);
    if (mean < 40) {
      const p = Math.exp(-mean);
      let n = 0;
      let r = 1;
      while (n < 1000 * mean) {
        r *= this.generator.nextDouble();
        if (r >= p) n++;
        else return n;
      }
      return n;
    }
    return Math.min(this.poissonPtrs(mean), 2147483647);
  }

  /** Hörmann (1993), "The transformed rejection method for generating Poisson random variables". */
  private poissonPtrs(mean: number): number {
    const slam = Math.sqrt(mean);
    const logLam = Math.log(mean);
    const b = 0.931 + 2.53 * slam;
    const a = -0.059 + 0.02483 * b;
    const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
    const vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const u = this.generator.nextDouble() - 0.5;
      const v = this.generator.nextDouble();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (
        Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <=
        -mean + k * logLam - logFactorial(k)
      ) {
        return k;
      }
    }
  }

  /**
   * Discrete: draws one index given probabilities that must sum to 1 (within 1e-6). Subtracts each
   * probability from one uniform draw, as rddlsim does; rounding leftovers go to the last positive case.
   * Like rddlsim, a negative probability is no error: it adds to the draw instead of taking from it, which
   * shifts the mass of the cases before it onto the cases after it. `onNegative` hears of each one.
   */
  discrete(probabilities: ArrayLike<number>, count: number, onNegative?: (p: number) => void): number {
    let total = 0;
    for (let i = 0; i < count; i++) {
      const p = probabilities[i]!;
      if (p < 0) onNegative?.(p);
      total += p;
    }
    if (!(Math.abs(1 - total) <= 1e-6)) {
      throw new DistributionError(`Discrete probabilities sum to ${formatNumber(total)}, not 1`);
    }
    let u = this.generator.nextDouble();
    let last = 0;
    for (let i = 0; i < count; i++) {
      const p = probabilities[i]!;
      if (p > 0) last = i;
      u -= p;
      if (u < 0) return i;
    }
    return last;
  }

  /**
   * pyRDDLGym's UnnormDiscrete: draws one index with probability proportional to its weight. Weights must
   * be at least 0 and sum to a positive, finite number (pyRDDLGym rejects the others too). One uniform
   * draw scaled by the sum, minus each weight in turn, as `discrete` draws.
   */
  unnormalisedDiscrete(weights: ArrayLike<number>, count: number): number {
    let total = 0;
    for (let i = 0; i < count; i++) {
      const w = weights[i]!;
      if (!(w >= 0))
        throw new DistributionError(`UnnormDiscrete weight ${formatNumber(w)} must be at least 0`);
      total += w;
    }
    if (!(total > 0 && total < Infinity)) {
      throw new DistributionError(
        `UnnormDiscrete weights sum to ${formatNumber(total)}: they must sum to a positive, finite number`,
      );
    }
    let u = this.generator.nextDouble() * total;
    let last = 0;
    for (let i = 0; i < count; i++) {
      const w = weights[i]!;
      if (w > 0) last = i;
      u -= w;
      if (u < 0) return i;
    }
    return last;
  }
}

/**
 * Multinomial(type, count, @v : p, ...), as rddlsim draws it: `count` Discrete draws (each checking the
 * probabilities and using one uniform), each adding 1 to the member of the label drawn. `members[i]` is
 * the member (position in the type's values) of case `i`; `out` receives the counts, one per member. A
 * count below 1 draws nothing.
 */
export function drawMultinomial(
  random: RandomSource,
  probabilities: ArrayLike<number>,
  cases: number,
  members: ArrayLike<number>,
  count: number,
  out: Float64Array,
  onNegative?: (p: number) => void,
): void {
  out.fill(0);
  for (let n = 0; n < count; n++) out[members[random.discrete(probabilities, cases, onNegative)]!]!++;
}

/**
 * Symmetric Dirichlet(type, alpha), as rddlsim draws it: one Gamma(alpha, 1) per member in the type's
 * order, each divided by their sum. `out` receives the members.
 */
export function drawDirichlet(random: RandomSource, alpha: number, out: Float64Array): void {
  if (!(alpha > 0)) throw new DistributionError(`Dirichlet alpha ${formatNumber(alpha)} must be positive`);
  let sum = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = random.gamma(alpha, 1);
    sum += out[i]!;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / sum;
}

/**
 * Dirichlet with a parameter per member (pyRDDLGym's `Dirichlet[?v](alpha(_))`): one Gamma(alpha_i, 1) per
 * member in order, each divided by their sum. Every alpha must be positive.
 */
export function drawDirichletOf(random: RandomSource, alphas: ArrayLike<number>, out: Float64Array): void {
  let sum = 0;
  for (let i = 0; i < out.length; i++) {
    const alpha = alphas[i]!;
    if (!(alpha > 0)) throw new DistributionError(`Dirichlet alpha ${formatNumber(alpha)} must be positive`);
    out[i] = random.gamma(alpha, 1);
    sum += out[i]!;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / sum;
}

/** ln(k!) by summation for small k and Stirling's series beyond. */
function logFactorial(k: number): number {
  if (k < 2) return 0;
  if (k < 30) {
    let sum = 0;
    for (let i = 2; i <= k; i++) sum += Math.log(i);
    return sum;
  }
  const x = k + 1;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x * x * x);
}

function formatNumber(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}
