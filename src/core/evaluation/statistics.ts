/**
 * The statistics of an evaluation: a summary of rewards (mean, sample standard deviation, 95% confidence
 * interval of the mean from Student's t), the paired comparison of two policies played on the same seeds
 * (mean difference, its 95% confidence interval and the two-sided p-value of the paired t-test), and the
 * verdict in plain words. Rewards are folded as they arrive (`RunningSummary`), so a long evaluation keeps
 * a few numbers, not its rounds.
 */

/** Mean, spread and 95% confidence interval of a set of rewards. */
export interface Summary {
  n: number;
  /** NaN when empty. */
  mean: number;
  /** Sample standard deviation (n - 1); null with fewer than two values. */
  sd: number | null;
  /** 95% confidence interval of the mean; null with fewer than two values. */
  ci95: [number, number] | null;
  min: number;
  max: number;
}

/** Welford's running mean and variance: numerically stable, constant memory. */
export class RunningSummary {
  #n = 0;
  #mean = 0;
  #m2 = 0;
  #min = Infinity;
  #max = -Infinity;

  add(value: number): void {
    this.#n++;
    const delta = value - this.#mean;
    this.#mean += delta / this.#n;
    this.#m2 += delta * (value - this.#mean);
    if (value < this.#min) this.#min = value;
    if (value > this.#max) this.#max = value;
  }

  get n(): number {
    return this.#n;
  }

  summary(): Summary {
    const n = this.#n;
    const mean = n ? this.#mean : NaN;
    if (n < 2) return { n, mean, sd: null, ci95: null, min: this.#min, max: this.#max };
    const sd = Math.sqrt(this.#m2 / (n - 1));
    const half = studentTQuantile(0.975, n - 1) * (sd / Math.sqrt(n));
    return { n, mean, sd, ci95: [mean - half, mean + half], min: this.#min, max: this.#max };
  }
}

/** Summarises a list of values. */
export function summarise(values: Iterable<number>): Summary {
  const running = new RunningSummary();
  for (const value of values) running.add(value);
  return running.summary();
}

/** Two policies compared on the same seeds: the differences `b - a`, pair by pair. */
export interface PairedComparison {
  /** Pairs compared. */
  n: number;
  /** Mean of `b - a`. */
  meanDifference: number;
  /** Sample standard deviation of the differences; null with fewer than two pairs. */
  sd: number | null;
  /** 95% confidence interval of the mean difference; null with fewer than two pairs. */
  ci95: [number, number] | null;
  /** The paired t statistic; null when undefined (fewer than two pairs, or all differences equal). */
  t: number | null;
  /** Two-sided p-value of the paired t-test; null with fewer than two pairs. */
  p: number | null;
}

/** Compares paired values (`a[i]` and `b[i]` come from the same seed and round). */
export function pairedComparison(a: readonly number[], b: readonly number[]): PairedComparison {
  if (a.length !== b.length) throw new Error(`paired values differ in length: ${a.length} and ${b.length}`);
  const summary = summarise(b.map((value, i) => value - a[i]!));
  const { n, mean, sd, ci95 } = summary;
  if (n < 2 || sd === null) return { n, meanDifference: mean, sd: null, ci95: null, t: null, p: null };
  if (sd === 0) {
    // Every pair differs by the same amount: either no difference at all, or a certain one.
    return { n, meanDifference: mean, sd, ci95: [mean, mean], t: null, p: mean === 0 ? 1 : 0 };
  }
  const t = mean / (sd / Math.sqrt(n));
  return { n, meanDifference: mean, sd, ci95, t, p: studentTTwoSidedP(t, n - 1) };
}

/** Options of `verdict`. */
export interface VerdictOptions {
  /** What each pair is (`round`, `match`, `run`, `episode`). */
  unit: string;
  /** Significance level (default 0.05). */
  alpha?: number;
  /** Digits after the point (default: enough for the size of the difference). */
  digits?: number;
}

/**
 * The comparison in one plain sentence: "B is better by 12.3 ± 4.1 per round, p < 0.01" (the ± is the
 * half-width of the 95% interval), or "no detectable difference with 200 rounds (p = 0.43)".
 */
export function verdict(
  labelA: string,
  labelB: string,
  comparison: PairedComparison,
  { unit, alpha = 0.05, digits }: VerdictOptions,
): string {
  const { n, meanDifference, ci95, p } = comparison;
  const units = `${n} ${n === 1 ? unit : plural(unit)}`;
  if (n < 2 || p === null || ci95 === null) return `too few ${plural(unit)} to compare (${units} in common)`;
  if (comparison.sd === 0 && meanDifference === 0) return `no difference: the same reward on all ${units}`;
  if (p >= alpha) return `no detectable difference with ${units} (${formatP(p)})`;
  const half = (ci95[1] - ci95[0]) / 2;
  const places = digits ?? decimals(Math.max(Math.abs(meanDifference), half));
  const better = meanDifference > 0 ? labelB : labelA;
  const size = Math.abs(meanDifference).toFixed(places);
  const spread = comparison.sd === 0 ? `on every one of ${units}` : `± ${half.toFixed(places)} per ${unit}`;
  return `${better} is better by ${size} ${spread}, ${formatP(p)}`;
}

/** `round` -> `rounds`, `match` -> `matches`. */
export function plural(unit: string): string {
  return /(s|x|ch|sh)$/.test(unit) ? `${unit}es` : `${unit}s`;
}

/** `p < 0.001`, `p < 0.01`, or `p = 0.03`. */
export function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  if (p < 0.01) return 'p < 0.01';
  return `p = ${p.toFixed(2)}`;
}

/** Digits after the point that show about three significant figures of `x`. */
function decimals(x: number): number {
  if (!Number.isFinite(x) || x === 0) return 2;
  return Math.min(6, Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x)))));
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

/** P(|T| >= |t|) for Student's t with `df` degrees of freedom. */
export function studentTTwoSidedP(t: number, df: number): number {
  return regularisedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** P(T <= t) for t >= 0, through the regularised incomplete beta function. */
function studentTCdf(t: number, df: number): number {
  return 1 - 0.5 * studentTTwoSidedP(t, df);
}

/** I_x(a, b) by its continued fraction (the modified Lentz method, written from the formula). */
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
