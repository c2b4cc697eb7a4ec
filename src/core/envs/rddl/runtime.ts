/**
 * The helpers compiled RDDL code calls at run time: random draws with rddlsim's parameter checks, Java's
 * integer arithmetic (truncating division, saturating and wrapping conversions), and located errors. Kept
 * small and monomorphic so the JavaScript engine inlines them into the generated functions.
 */
import type { SourceLocation } from '../../errors';
import type { SimulationNotice } from './api';
import type { PyRddlGymDistributionName } from './ast';
import {
  DistributionError,
  drawDirichlet,
  drawDirichletOf,
  drawMultinomial,
  type RandomSource,
} from './distributions';
import {
  drawBeta,
  drawBinomial,
  drawCauchy,
  drawChiSquare,
  drawGeometric,
  drawGompertz,
  drawGumbel,
  drawKumaraswamy,
  drawLaplace,
  covarianceFactor,
  drawMultivariateNormal,
  drawMultivariateStudent,
  drawNegativeBinomial,
  drawPareto,
  drawStudent,
} from './pyrddlgym-distributions';
import { choleskyFactor, determinant, invert, pseudoInverse } from './matrix';

/** An error while simulating, at a known place in the RDDL text. */
export class RddlEvalError extends Error {
  constructor(
    message: string,
    readonly location?: SourceLocation,
  ) {
    super(message);
    this.name = 'RddlEvalError';
  }
}

/** What the generated code receives; names are short because they appear in the generated text. */
export interface CompiledRuntime {
  /** Uniform double in [0, 1). */
  U: () => number;
  bern: (p: number, loc: number) => boolean;
  unif: (lower: number, upper: number, loc: number) => number;
  norm: (mean: number, variance: number, loc: number) => number;
  expo: (mean: number, loc: number) => number;
  pois: (mean: number, loc: number) => number;
  weib: (shape: number, scale: number, loc: number) => number;
  gam: (shape: number, scale: number, loc: number) => number;
  /** pyRDDLGym's distributions by name (`pyd.Beta(a, b, loc)`); one-parameter ones ignore `b`. */
  pyd: Readonly<Record<PyRddlGymDistributionName, (a: number, b: number, loc: number) => number>>;
  disc: (probabilities: Float64Array, count: number, loc: number) => number;
  /** pyRDDLGym's UnnormDiscrete: weights at least 0, divided by their (positive) sum. */
  udisc: (weights: Float64Array, count: number, loc: number) => number;
  /** Multinomial: `count` Discrete draws counted into `out`, case `i` adding to member `members[i]`. */
  mult: (
    probabilities: Float64Array,
    cases: number,
    members: Int32Array,
    count: number,
    out: Float64Array,
    loc: number,
  ) => void;
  /** pyRDDLGym's Multinomial[?v](trials, p(_)): `trials` (at least 0) Discrete draws over `p`, into `out`. */
  vmult: (probabilities: Float64Array, trials: number, out: Float64Array, loc: number) => void;
  /** pyRDDLGym's Dirichlet[?v](alpha(_)): Gamma(alpha_i, 1) draws normalised, into `out`. */
  vdiri: (alphas: Float64Array, out: Float64Array, loc: number) => void;
  /**
   * pyRDDLGym's MultivariateNormal[?v](mean(_), cov(_, _)) into `out` (cov row-major). `fixed` is 1 when
   * the covariance never changes (its factor is then computed once).
   */
  vmvn: (mean: Float64Array, covariance: Float64Array, out: Float64Array, loc: number, fixed: number) => void;
  /** MultivariateStudent[?v](mean(_), sigma(_, _), df) into `out`. */
  vmvt: (
    mean: Float64Array,
    sigma: Float64Array,
    df: number,
    out: Float64Array,
    loc: number,
    fixed: number,
  ) => void;
  /** pyRDDLGym's det of the n×n row-major matrix `a`. */
  mdet: (a: Float64Array, n: number) => number;
  /** pyRDDLGym's inverse[...], pinverse[...] and cholesky[...] of the n×n matrix `a`, into `out`. */
  minv: (a: Float64Array, n: number, out: Float64Array, loc: number) => void;
  mpinv: (a: Float64Array, n: number, out: Float64Array, loc: number) => void;
  mchol: (a: Float64Array, n: number, out: Float64Array, loc: number) => void;
  /** Symmetric Dirichlet(alpha) into `out`. */
  diri: (alpha: number, out: Float64Array, loc: number) => void;
  /** pyRDDLGym's lngamma[x], defined there for x > 0 only (gamma[x] is its exponential). */
  lgam: (x: number, loc: number) => number;
  idiv: (a: number, b: number, loc: number) => number;
  imod: (a: number, b: number, loc: number) => number;
  /** Java `(int) Math.round(x)`: round half up to a long, then keep the low 32 bits. */
  jround: (x: number) => number;
  /** Java `(int) x` for a double: truncation, saturating, NaN to 0. */
  d2i: (x: number) => number;
  /** rddlsim's `*`: a zero operand (0, 0.0 or false) is returned as it is, unconverted. */
  qmul: (a: number | boolean, b: number | boolean) => number | boolean;
  qmuli: (a: number | boolean, b: number | boolean) => number | boolean;
  /** Evaluates both arguments (already done by the call) and returns the first unless falsy. */
  or2: (a: boolean, b: boolean) => boolean;
  fail: (message: string, loc: number) => never;
  /** Symbol id -> integer value of an enum value written as a number (`@3`), NaN otherwise. */
  EI: Float64Array;
  /** Per type: symbol id -> position in the type's value list, -1 if not a member. */
  POS: Int32Array[];
  /** Constant tables of the compiled program (probabilities scratch space, labels, dense non-fluents). */
  data: (Float64Array | Int32Array)[];
  /** Which stored values are booleans, where that is only known at run time (1 = boolean). */
  boolTags: BoolTags;
}

/** Run-time boolean tags of state (current and next) and observation values; the simulator swaps them. */
export interface BoolTags {
  state: Uint8Array;
  next: Uint8Array;
  observ: Uint8Array;
}

/**
 * Builds the runtime for one simulator: draws come from `random` (uniforms straight from `uniform`, the
 * same stream, without the layers in between), errors point into `locations`.
 */
export function createRuntime(
  uniform: () => number,
  random: RandomSource,
  locations: readonly SourceLocation[],
  tables: { EI: Float64Array; POS: Int32Array[]; data: (Float64Array | Int32Array)[]; boolTags: BoolTags },
  onNotice: (notice: SimulationNotice) => void = () => {},
): CompiledRuntime {
  const fail = (message: string, loc: number): never => {
    throw new RddlEvalError(message, locations[loc]);
  };
  /** Runs a draw, turning a parameter error into an error at the expression's location. */
  const at = (loc: number, draw: () => number): number => {
    try {
      return draw();
    } catch (error) {
      if (error instanceof DistributionError) fail(error.message, loc);
      throw error;
    }
  };
  const zero = (x: number | boolean) => x === 0 || x === false;
  /** Cholesky factors of covariances that never change, by their table. */
  const factors = new WeakMap<Float64Array, Float64Array>();
  const fixedFactor = (what: string, covariance: Float64Array, n: number): Float64Array => {
    let factor = factors.get(covariance);
    if (!factor) {
      factor = covarianceFactor(what, covariance, n, new Float64Array(n * n));
      factors.set(covariance, factor);
    }
    return factor;
  };
  /** The Discrete being drawn, for its notices (draws never nest). */
  let discreteLoc = 0;
  const onNegative = (p: number) =>
    onNotice({
      kind: 'negative-probability',
      message: `Discrete probability ${p} is negative; rddlsim samples on, and so does this simulator`,
      location: locations[discreteLoc],
    });
  return {
    U: uniform,
    bern: (p, loc) => {
      if (p >= 0 && p <= 1) return uniform() < p;
      return fail(`Bernoulli probability ${p} is not in [0, 1]`, loc);
    },
    unif: (lower, upper, loc) => at(loc, () => random.uniformBetween(lower, upper)),
    norm: (mean, variance, loc) => {
      if (variance > 0) return Math.sqrt(variance) * random.gaussian() + mean;
      if (variance === 0) return mean;
      return fail(`Normal variance ${variance} is negative`, loc);
    },
    expo: (mean, loc) => at(loc, () => random.exponential(mean)),
    pois: (mean, loc) => at(loc, () => random.poisson(mean)),
    weib: (shape, scale, loc) => at(loc, () => random.weibull(shape, scale)),
    gam: (shape, scale, loc) => at(loc, () => random.gamma(shape, scale)),
    pyd: {
      Binomial: (n, p, loc) => at(loc, () => drawBinomial(random, n, p)),
      NegativeBinomial: (r, p, loc) => at(loc, () => drawNegativeBinomial(random, r, p)),
      Geometric: (p, _, loc) => at(loc, () => drawGeometric(random, p)),
      Beta: (a, b, loc) => at(loc, () => drawBeta(random, a, b)),
      Pareto: (shape, scale, loc) => at(loc, () => drawPareto(random, shape, scale)),
      Student: (df, _, loc) => at(loc, () => drawStudent(random, df)),
      Gumbel: (location, scale, loc) => at(loc, () => drawGumbel(random, location, scale)),
      Laplace: (location, scale, loc) => at(loc, () => drawLaplace(random, location, scale)),
      Cauchy: (location, scale, loc) => at(loc, () => drawCauchy(random, location, scale)),
      Gompertz: (shape, scale, loc) => at(loc, () => drawGompertz(random, shape, scale)),
      ChiSquare: (df, _, loc) => at(loc, () => drawChiSquare(random, df)),
      Kumaraswamy: (a, b, loc) => at(loc, () => drawKumaraswamy(random, a, b)),
    },
    disc: (probabilities, count, loc) => {
      discreteLoc = loc;
      return at(loc, () => random.discrete(probabilities, count, onNegative));
    },
    udisc: (weights, count, loc) => at(loc, () => random.unnormalisedDiscrete(weights, count)),
    mult: (probabilities, cases, members, count, out, loc) => {
      discreteLoc = loc;
      at(loc, () => {
        drawMultinomial(random, probabilities, cases, members, count, out, onNegative);
        return 0;
      });
    },
    vmult: (probabilities, trials, out, loc) => {
      discreteLoc = loc;
      if (!(trials >= 0)) fail(`Multinomial trials ${trials} must be at least 0`, loc);
      at(loc, () => {
        drawMultinomial(random, probabilities, out.length, identity(out.length), trials, out, onNegative);
        return 0;
      });
    },
    vdiri: (alphas, out, loc) => {
      at(loc, () => {
        drawDirichletOf(random, alphas, out);
        return 0;
      });
    },
    vmvn: (mean, covariance, out, loc, fixed) => {
      at(loc, () => {
        const factor = fixed
          ? fixedFactor('MultivariateNormal covariance', covariance, out.length)
          : undefined;
        drawMultivariateNormal(random, mean, covariance, out, factor);
        return 0;
      });
    },
    vmvt: (mean, sigma, df, out, loc, fixed) => {
      at(loc, () => {
        const factor = fixed ? fixedFactor('MultivariateStudent sigma', sigma, out.length) : undefined;
        drawMultivariateStudent(random, mean, sigma, df, out, factor);
        return 0;
      });
    },
    mdet: determinant,
    minv: (a, n, out, loc) => {
      const problem = invert(a, n, out);
      if (problem) fail(`inverse: ${problem}`, loc);
    },
    mpinv: (a, n, out) => pseudoInverse(a, n, n, out),
    mchol: (a, n, out, loc) => {
      const problem = choleskyFactor(a, n, out);
      if (problem) fail(`cholesky: ${problem}`, loc);
    },
    diri: (alpha, out, loc) => {
      at(loc, () => {
        drawDirichlet(random, alpha, out);
        return 0;
      });
    },
    lgam: (x, loc) =>
      x > 0 ? logGamma(x) : fail(`lngamma and gamma take x > 0 (as pyRDDLGym), not ${x}`, loc),
    idiv: (a, b, loc) => (b === 0 ? fail('integer division by zero (div[a, 0])', loc) : (a / b) | 0),
    imod: (a, b, loc) => (b === 0 ? fail('integer remainder by zero (mod[a, 0])', loc) : (a % b) | 0),
    jround: javaRound,
    d2i: javaDoubleToInt,
    qmul: (a, b) => (zero(a) ? a : zero(b) ? b : (a as number) * (b as number)),
    qmuli: (a, b) => (zero(a) ? a : zero(b) ? b : Math.imul(a as number, b as number)),
    or2: (a, b) => a || b,
    fail,
    EI: tables.EI,
    POS: tables.POS,
    data: tables.data,
    boolTags: tables.boolTags,
  };
}

/** Lanczos coefficients for g = 7, n = 9 (the usual double-precision set). */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/**
 * ln Γ(x) for x > 0 by the Lanczos approximation (relative error about 1e-15); below 0.5 through
 * ln Γ(x) = ln Γ(x + 1) - ln x, so tiny x keep their precision.
 */
export function logGamma(x: number): number {
  if (x < 0.5) return logGamma(x + 1) - Math.log(x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const identities: Int32Array[] = [];
/** 0, 1, ..., n - 1 (case i of a vectorised Multinomial is member i). */
function identity(n: number): Int32Array {
  return (identities[n] ??= Int32Array.from({ length: n }, (_, i) => i));
}

/** Java's `(int) Math.round(x)`: round half up, saturate to a long, keep the low 32 bits. */
export function javaRound(x: number): number {
  if (Number.isNaN(x)) return 0;
  const rounded = Math.round(x);
  if (rounded >= -2147483648 && rounded <= 2147483647) return rounded;
  if (rounded >= 2 ** 63) return -1;
  if (rounded <= -(2 ** 63)) return 0;
  return Number(BigInt.asIntN(32, BigInt(rounded)));
}

/** Java's `(int) x` for a double: truncate, saturate at the int range, NaN becomes 0. */
export function javaDoubleToInt(x: number): number {
  if (Number.isNaN(x)) return 0;
  if (x >= 2147483647) return 2147483647;
  if (x <= -2147483648) return -2147483648;
  return Math.trunc(x);
}
