/**
 * pyRDDLGym's distributions that rddlsim does not have, with pyRDDLGym's parameterisation (it draws them
 * with NumPy, so the parameters mean what NumPy's generators take) and its parameter checks:
 *
 * | RDDL                     | value | draws                                                          |
 * | ------------------------ | ----- | -------------------------------------------------------------- |
 * | `Binomial(n, p)`         | int   | successes in n trials (n an int >= 0, p in [0, 1])             |
 * | `NegativeBinomial(r, p)` | int   | failures before the r-th success (r > 0, p in (0, 1])           |
 * | `Geometric(p)`           | int   | trials up to and including the first success (p in (0, 1])     |
 * | `Beta(a, b)`             | real  | Beta on [0, 1] (a, b > 0)                                      |
 * | `Pareto(shape, scale)`   | real  | scale × NumPy's Pareto, the Lomax form on [0, ∞) (both > 0)    |
 * | `Student(df)`            | real  | Student's t with df degrees of freedom (df > 0)                |
 * | `Gumbel(loc, scale)`     | real  | Gumbel with that location and scale (scale > 0)                |
 * | `Laplace(loc, scale)`    | real  | Laplace with that location and scale (scale > 0)               |
 * | `Cauchy(loc, scale)`     | real  | Cauchy with that location and scale (scale > 0)                |
 * | `Gompertz(shape, scale)` | real  | ln(1 − ln(1 − U) / shape) / scale (both > 0)                   |
 * | `ChiSquare(df)`          | real  | chi-square with df degrees of freedom (df > 0)                 |
 * | `Kumaraswamy(a, b)`      | real  | (1 − (1 − U)^(1/b))^(1/a) on [0, 1] (a, b > 0)                  |
 *
 * and the vectorised `MultivariateNormal[?v]` and `MultivariateStudent[?v]` (below).
 *
 * Draws come from the simulator's uniform source, so a seed gives the same values every run; they are
 * pyRDDLGym's distributions, not NumPy's exact streams.
 */
import { DistributionError, type RandomSource } from './distributions';
import { choleskyFactor } from './matrix';

const INT_MAX = 2147483647;

/** Below this mean (n × the smaller of p and 1 − p), a binomial is drawn by inversion from one uniform. */
const INVERSION_MEAN = 30;

function show(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

function requirePositive(name: string, what: string, x: number): void {
  if (!(x > 0)) throw new DistributionError(`${name} ${what} must be positive, but it is ${show(x)}`);
}

function requireProbability(name: string, p: number, zeroAllowed: boolean): void {
  if (!(zeroAllowed ? p >= 0 : p > 0) || !(p <= 1)) {
    throw new DistributionError(`${name} probability ${show(p)} is not in ${zeroAllowed ? '[0' : '(0'}, 1]`);
  }
}

/** Uniform in (0, 1): never exactly 0, so logarithms and powers stay finite. */
function openUniform(random: RandomSource): number {
  let u = random.uniform();
  while (u <= 0) u = random.uniform();
  return u;
}

/** Beta(a, b) as X / (X + Y) with X ~ Gamma(a, 1) and Y ~ Gamma(b, 1); parameters already checked. */
function beta(random: RandomSource, a: number, b: number): number {
  const x = random.gamma(a, 1);
  const y = random.gamma(b, 1);
  // Both can underflow for tiny shapes; the mass then sits at the ends in proportion a : b.
  if (x + y === 0) return random.uniform() < a / (a + b) ? 1 : 0;
  return x / (x + y);
}

/**
 * Binomial(n, p). While the mean is large, n is halved with the order-statistic split (the a-th smallest
 * of n uniforms is Beta(a, n + 1 − a), and the uniforms below p lie on one side of it); the rest is drawn
 * by inversion, walking the probabilities from 0 successes (of the rarer outcome) up with one uniform.
 * So a draw costs O(log n) Beta draws and O(INVERSION_MEAN) steps at most.
 */
export function drawBinomial(random: RandomSource, trials: number, p: number): number {
  if (!(Number.isInteger(trials) && trials >= 0)) {
    throw new DistributionError(`Binomial trials must be an int >= 0, but it is ${show(trials)}`);
  }
  requireProbability('Binomial', p, true);
  let n = trials;
  let prob = p;
  let successes = 0;
  while (n * Math.min(prob, 1 - prob) >= INVERSION_MEAN) {
    const a = 1 + Math.floor(n / 2);
    const b = n + 1 - a;
    const x = beta(random, a, b);
    if (x >= prob) {
      n = a - 1;
      prob = prob / x;
    } else {
      successes += a;
      n = b - 1;
      prob = (prob - x) / (1 - x);
    }
  }
  return successes + binomialByInversion(random, n, prob);
}

/** Binomial(n, p) with a small mean: the first k whose cumulative probability passes one uniform. */
function binomialByInversion(random: RandomSource, n: number, p: number): number {
  const flipped = p > 0.5;
  const q = flipped ? 1 - p : p;
  if (q === 0 || n === 0) return flipped ? n : 0;
  const odds = q / (1 - q);
  let probability = Math.pow(1 - q, n);
  let u = random.uniform();
  let k = 0;
  while (u >= probability && k < n) {
    u -= probability;
    k++;
    probability *= (odds * (n - k + 1)) / k;
  }
  return flipped ? n - k : k;
}

/** NegativeBinomial(r, p): a Poisson draw whose mean is Gamma(r, (1 - p) / p), as NumPy draws it. */
export function drawNegativeBinomial(random: RandomSource, r: number, p: number): number {
  requirePositive('NegativeBinomial', 'r', r);
  requireProbability('NegativeBinomial', p, false);
  if (p === 1) return 0;
  const mean = random.gamma(r, (1 - p) / p);
  return mean > 0 ? random.poisson(mean) : 0;
}

/** Geometric(p): the number of trials up to and including the first success, by inversion. */
export function drawGeometric(random: RandomSource, p: number): number {
  requireProbability('Geometric', p, false);
  if (p === 1) return 1;
  const trials = 1 + Math.floor(Math.log(openUniform(random)) / Math.log1p(-p));
  return Math.min(trials, INT_MAX);
}

export function drawBeta(random: RandomSource, a: number, b: number): number {
  requirePositive('Beta', 'a', a);
  requirePositive('Beta', 'b', b);
  return beta(random, a, b);
}

/** scale × ((1 − U)^(−1/shape) − 1): NumPy's Pareto (Lomax) scaled, as pyRDDLGym draws it. */
export function drawPareto(random: RandomSource, shape: number, scale: number): number {
  requirePositive('Pareto', 'shape', shape);
  requirePositive('Pareto', 'scale', scale);
  return scale * Math.expm1(-Math.log(openUniform(random)) / shape);
}

/** Student's t: a standard normal over the root of a chi-square divided by its degrees of freedom. */
export function drawStudent(random: RandomSource, df: number): number {
  requirePositive('Student', 'df', df);
  const z = random.gaussian();
  const chiSquare = random.gamma(df / 2, 2);
  return z / Math.sqrt(chiSquare / df);
}

export function drawGumbel(random: RandomSource, location: number, scale: number): number {
  requirePositive('Gumbel', 'scale', scale);
  return location - scale * Math.log(-Math.log(openUniform(random)));
}

export function drawLaplace(random: RandomSource, location: number, scale: number): number {
  requirePositive('Laplace', 'scale', scale);
  const u = openUniform(random);
  return u < 0.5 ? location + scale * Math.log(2 * u) : location - scale * Math.log(2 - 2 * u);
}

export function drawCauchy(random: RandomSource, location: number, scale: number): number {
  requirePositive('Cauchy', 'scale', scale);
  return location + scale * Math.tan(Math.PI * (openUniform(random) - 0.5));
}

export function drawGompertz(random: RandomSource, shape: number, scale: number): number {
  requirePositive('Gompertz', 'shape', shape);
  requirePositive('Gompertz', 'scale', scale);
  return Math.log(1 - Math.log1p(-random.uniform()) / shape) / scale;
}

export function drawChiSquare(random: RandomSource, df: number): number {
  requirePositive('ChiSquare', 'df', df);
  return random.gamma(df / 2, 2);
}

export function drawKumaraswamy(random: RandomSource, a: number, b: number): number {
  requirePositive('Kumaraswamy', 'a', a);
  requirePositive('Kumaraswamy', 'b', b);
  return Math.pow(-Math.expm1(Math.log1p(-random.uniform()) / b), 1 / a);
}

/**
 * pyRDDLGym's `MultivariateNormal[?v](mean(_), cov(_, _))` into `out`: mean + L·z, L the lower Cholesky
 * factor of the covariance (which must be symmetric and positive semi-definite within a tolerance) and z a
 * standard normal per member, in member order.
 */
export function drawMultivariateNormal(
  random: RandomSource,
  mean: ArrayLike<number>,
  covariance: ArrayLike<number>,
  out: Float64Array,
  known?: Float64Array,
): void {
  const n = out.length;
  const factor = known ?? covarianceFactor('MultivariateNormal covariance', covariance, n);
  const z = gaussianScratch(n);
  for (let i = 0; i < n; i++) z[i] = random.gaussian();
  for (let i = 0; i < n; i++) {
    let value = mean[i]!;
    for (let k = 0; k <= i; k++) value += factor[i * n + k]! * z[k]!;
    out[i] = value;
  }
}

/**
 * `MultivariateStudent[?v](mean(_), sigma(_, _), df)` into `out`: the multivariate t, mean + L·z / √(w/df)
 * with L the Cholesky factor of sigma, z standard normals and one chi-square w with df degrees of freedom
 * shared by all members (so the members' scales move together; the covariance is sigma·df/(df − 2) for
 * df > 2).
 */
export function drawMultivariateStudent(
  random: RandomSource,
  mean: ArrayLike<number>,
  sigma: ArrayLike<number>,
  df: number,
  out: Float64Array,
  known?: Float64Array,
): void {
  requirePositive('MultivariateStudent', 'df', df);
  const n = out.length;
  const factor = known ?? covarianceFactor('MultivariateStudent sigma', sigma, n);
  const z = gaussianScratch(n);
  for (let i = 0; i < n; i++) z[i] = random.gaussian();
  const scale = 1 / Math.sqrt(random.gamma(df / 2, 2) / df);
  for (let i = 0; i < n; i++) {
    let value = 0;
    for (let k = 0; k <= i; k++) value += factor[i * n + k]! * z[k]!;
    out[i] = mean[i]! + scale * value;
  }
}

/**
 * The lower Cholesky factor of an n×n covariance, in a scratch array reused by the next call (pass
 * `into` to keep it); a DistributionError naming `what` when the matrix has none.
 */
export function covarianceFactor(
  what: string,
  covariance: ArrayLike<number>,
  n: number,
  into: Float64Array = choleskyScratch(n),
): Float64Array {
  const problem = choleskyFactor(covariance, n, into);
  if (problem) throw new DistributionError(`${what}: ${problem}`);
  return into;
}

const choleskyScratches: Float64Array[] = [];
const gaussianScratches: Float64Array[] = [];
function choleskyScratch(n: number): Float64Array {
  return (choleskyScratches[n] ??= new Float64Array(n * n));
}
function gaussianScratch(n: number): Float64Array {
  return (gaussianScratches[n] ??= new Float64Array(n));
}
