/**
 * Summary statistics of per-round rewards: mean, sample standard deviation and the 95% confidence interval
 * of the mean from Student's t distribution (rounds are few, so the normal 1.96 would be too narrow).
 */

/** What the command lines print under the per-round rewards. */
export interface RewardSummary {
  rounds: number;
  mean: number;
  /** Sample standard deviation (n - 1); null with fewer than two rounds. */
  standardDeviation: number | null;
  /** 95% confidence interval of the mean; null with fewer than two rounds. */
  confidence95: [number, number] | null;
}

/** Summarises a list of rewards (NaN mean when empty). */
export function summariseRewards(rewards: readonly number[]): RewardSummary {
  const n = rewards.length;
  const mean = n ? rewards.reduce((sum, x) => sum + x, 0) / n : NaN;
  if (n < 2) return { rounds: n, mean, standardDeviation: null, confidence95: null };
  const variance = rewards.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1);
  const standardDeviation = Math.sqrt(variance);
  const half = studentTQuantile(0.975, n - 1) * (standardDeviation / Math.sqrt(n));
  return { rounds: n, mean, standardDeviation, confidence95: [mean - half, mean + half] };
}

/**
 * The same summary folded as rewards come (Welford's running mean and sum of squares), so a session of
 * any number of rounds keeps three numbers instead of its rewards.
 */
export class RewardAccumulator {
  #count = 0;
  #mean = 0;
  #squares = 0;

  add(reward: number): void {
    this.#count++;
    const delta = reward - this.#mean;
    this.#mean += delta / this.#count;
    this.#squares += delta * (reward - this.#mean);
  }

  /** Rewards added so far. */
  get count(): number {
    return this.#count;
  }

  /** Their mean (NaN before the first). */
  get mean(): number {
    return this.#count ? this.#mean : NaN;
  }

  /** As `summariseRewards` of the rewards added. */
  summary(): RewardSummary {
    const n = this.#count;
    const mean = n ? this.#mean : NaN;
    if (n < 2) return { rounds: n, mean, standardDeviation: null, confidence95: null };
    const standardDeviation = Math.sqrt(this.#squares / (n - 1));
    const half = studentTQuantile(0.975, n - 1) * (standardDeviation / Math.sqrt(n));
    return { rounds: n, mean, standardDeviation, confidence95: [mean - half, mean + half] };
  }
}

/** The p-quantile of Student's t distribution with `df` degrees of freedom (0.5 < p < 1). */
export function studentTQuantile(p: number, df: number): number {
  // The CDF is monotonic, so bisection on it converges surely; 200 halvings are far beyond double precision.
  let low = 0;
  let high = 1;
  while (studentTCdf(high, df) < p) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const middle = (low + high) / 2;
    if (studentTCdf(middle, df) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** P(T <= t) for t >= 0, through the regularised incomplete beta function. */
function studentTCdf(t: number, df: number): number {
  const x = df / (df + t * t);
  return 1 - 0.5 * regularisedIncompleteBeta(x, df / 2, 0.5);
}

/** I_x(a, b) by its continued fraction (Numerical Recipes' `betacf`, written from the formula). */
function regularisedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    const even = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + even * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + even / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    result *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + odd / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    result *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return result;
}

/** ln Γ(x) by the Lanczos approximation (g = 7, 9 terms), accurate to about 15 digits for x > 0. */
function logGamma(x: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const shifted = x - 1;
  let sum = coefficients[0]!;
  for (let i = 1; i < coefficients.length; i++) sum += coefficients[i]! / (shifted + i);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}
