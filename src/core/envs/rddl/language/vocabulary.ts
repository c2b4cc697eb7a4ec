/**
 * The words of RDDL for editors: reserved words, distributions, built-in functions and aggregations, with
 * one-line explanations used by hover and completion. rddlsim's parameterisation is stated where it
 * surprises (Normal takes a variance, Exponential a mean).
 */
import type { DistributionName } from '../distribution-table';
import { RESERVED_WORDS } from '../reserved-words';

/** A word's signature and one line on it. */
interface Word {
  signature: string;
  doc: string;
  /** The snippet completion inserts, where the signature alone is not what is written. */
  insertText?: string;
}

/** Reserved words that are not distributions (`domain`, `state-fluent`, `if`, ...). */
export const RDDL_KEYWORDS: readonly string[] = RESERVED_WORDS.filter((w) => !/^[A-Z]/.test(w));

/** Built-in value types. */
export const RDDL_BUILTIN_TYPES: readonly string[] = ['bool', 'int', 'real', 'object'];

/**
 * Distributions with their signature and what the parameters mean in rddlsim: one entry for each name of the
 * language's table (`distribution-table.ts`), no more, no fewer.
 */
export const RDDL_DISTRIBUTIONS: Readonly<Record<string, Word>> = {
  Bernoulli: { signature: 'Bernoulli(p)', doc: 'true with probability p (p must be in [0, 1])' },
  KronDelta: { signature: 'KronDelta(v)', doc: 'always v; for bool, int and enum values' },
  DiracDelta: { signature: 'DiracDelta(v)', doc: 'always v; for real values' },
  Uniform: { signature: 'Uniform(lower, upper)', doc: 'a real in [lower, upper); needs lower < upper' },
  Normal: {
    signature: 'Normal(mean, variance)',
    doc: 'the second parameter is the VARIANCE, not the standard deviation',
  },
  Exponential: { signature: 'Exponential(mean)', doc: 'the parameter is the MEAN, not a rate' },
  Poisson: { signature: 'Poisson(mean)', doc: 'an int with the given mean' },
  Weibull: { signature: 'Weibull(shape, scale)', doc: 'a positive real' },
  Gamma: { signature: 'Gamma(shape, scale)', doc: 'a positive real with mean shape × scale' },
  Discrete: {
    signature: 'Discrete(type, @v1 : p1, ..., @vn : otherwise)  or  Discrete_{?v : type} p(?v)',
    doc: 'one value of the type; probabilities must sum to 1, `otherwise` takes the rest (a negative one is drawn as rddlsim does, with a notice). The `_{?v : type}` form (pyRDDLGym) gives every value’s probability by one expression over ?v',
  },
  UnnormDiscrete: {
    signature: 'UnnormDiscrete(type, @v1 : w1, ...)  or  UnnormDiscrete_{?v : type} w(?v)',
    doc: 'one value of the type, drawn with probability weight / sum of the weights; weights must be at least 0 with a positive sum (pyRDDLGym; not in rddlsim)',
  },
  Multinomial: {
    signature: 'Multinomial(type, count, @v : p, ...)  or  Multinomial[?v](trials, p(_))',
    doc: 'a vector of counts, one member per value of the type: `count` Discrete draws (RDDL2; the value of a vector-valued fluent). pyRDDLGym’s `[?v]` form is a whole cpf: the fluent’s groundings over ?v receive the counts, `_` standing for each value in p',
  },
  Dirichlet: {
    signature: 'Dirichlet(type, alpha)  or  Dirichlet[?v](alpha(_))',
    doc: 'a probability vector, one member per value of the type: symmetric, Gamma(alpha, 1) draws normalised (RDDL2; the value of a vector-valued fluent). pyRDDLGym’s `[?v]` form is a whole cpf: the fluent’s groundings over ?v receive the members, with one alpha per value (`_`)',
  },
  MultivariateNormal: {
    signature: 'MultivariateNormal[?v](mean(_), cov(_, _))',
    doc: 'a whole cpf: the fluent’s groundings over ?v receive one joint normal draw with mean(_) and covariance cov(_, _) (first _ the row, second the column; symmetric, positive semi-definite), per grounding of the other parameters (pyRDDLGym; not in rddlsim)',
    insertText: 'MultivariateNormal[?${1:v}](${2:mean}(_), ${3:cov}(_, _))',
  },
  MultivariateStudent: {
    signature: 'MultivariateStudent[?v](mean(_), sigma(_, _), df)',
    doc: 'a whole cpf: a multivariate t draw, mean + L·z / √(w / df) with L the Cholesky factor of sigma and one chi-square w shared by the members; covariance sigma·df/(df − 2) (pyRDDLGym; not in rddlsim)',
    insertText: 'MultivariateStudent[?${1:v}](${2:mean}(_), ${3:sigma}(_, _), ${4:df})',
  },
  Binomial: {
    signature: 'Binomial(n, p)',
    doc: 'an int: successes in n trials of probability p (pyRDDLGym; not in rddlsim)',
  },
  NegativeBinomial: {
    signature: 'NegativeBinomial(r, p)',
    doc: 'an int: failures before the r-th success, p in (0, 1] (pyRDDLGym; not in rddlsim)',
  },
  Geometric: {
    signature: 'Geometric(p)',
    doc: 'an int >= 1: trials up to and including the first success (pyRDDLGym; not in rddlsim)',
  },
  Beta: { signature: 'Beta(a, b)', doc: 'a real in [0, 1] (pyRDDLGym; not in rddlsim)' },
  Pareto: {
    signature: 'Pareto(shape, scale)',
    doc: 'a real >= 0: scale × NumPy’s Pareto (Lomax) draw, as pyRDDLGym draws it (pyRDDLGym; not in rddlsim)',
  },
  Student: {
    signature: 'Student(df)',
    doc: 'Student’s t, df degrees of freedom (pyRDDLGym; not in rddlsim)',
  },
  Gumbel: { signature: 'Gumbel(location, scale)', doc: 'a real (pyRDDLGym; not in rddlsim)' },
  Laplace: { signature: 'Laplace(location, scale)', doc: 'a real (pyRDDLGym; not in rddlsim)' },
  Cauchy: { signature: 'Cauchy(location, scale)', doc: 'a real, no mean (pyRDDLGym; not in rddlsim)' },
  Gompertz: {
    signature: 'Gompertz(shape, scale)',
    doc: 'a real >= 0: ln(1 - ln(1 - U) / shape) / scale (pyRDDLGym; not in rddlsim)',
  },
  ChiSquare: {
    signature: 'ChiSquare(df)',
    doc: 'a real >= 0, df degrees of freedom (pyRDDLGym; not in rddlsim)',
  },
  Kumaraswamy: {
    signature: 'Kumaraswamy(a, b)',
    doc: 'a real in [0, 1], a Beta-like law with a closed-form inverse (pyRDDLGym; not in rddlsim)',
  },
} satisfies Record<DistributionName, Word>;

/** Built-in functions, written with square brackets: `abs[x]`. */
export const RDDL_FUNCTIONS: Readonly<
  Record<string, { signature: string; doc: string; insertText?: string }>
> = {
  div: { signature: 'div[a, b]', doc: 'integer division, truncating toward zero' },
  mod: { signature: 'mod[a, b]', doc: 'integer remainder, with the sign of a' },
  min: { signature: 'min[a, b]', doc: 'the smaller of two numbers' },
  max: { signature: 'max[a, b]', doc: 'the larger of two numbers' },
  abs: { signature: 'abs[x]', doc: 'absolute value' },
  sgn: { signature: 'sgn[x]', doc: '-1, 0 or 1' },
  round: { signature: 'round[x]', doc: 'nearest int, halves rounded up' },
  floor: { signature: 'floor[x]', doc: 'largest int not above x' },
  ceil: { signature: 'ceil[x]', doc: 'smallest int not below x' },
  pow: { signature: 'pow[x, y]', doc: 'x to the power y' },
  log: { signature: 'log[x, b]', doc: 'logarithm of x in base b' },
  fmod: {
    signature: 'fmod[x, y]',
    doc: 'real remainder of x / y, with the sign of x (pyRDDLGym; not in rddlsim)',
  },
  hypot: { signature: 'hypot[x, y]', doc: 'sqrt[x * x + y * y] (pyRDDLGym; not in rddlsim)' },
  gamma: { signature: 'gamma[x]', doc: 'the gamma function Γ(x), for x > 0 (pyRDDLGym; not in rddlsim)' },
  lngamma: { signature: 'lngamma[x]', doc: 'ln Γ(x), for x > 0 (pyRDDLGym; not in rddlsim)' },
  inverse: {
    signature: 'inverse[row=?r, col=?c][M(?r, ?c)]',
    doc: 'the entry at ?r, ?c of the inverse of the matrix M(?r, ?c) (rows ?r, columns ?c, both bound outside; square, not singular) (pyRDDLGym; not in rddlsim)',
    insertText: 'inverse[row=?${1:r}, col=?${2:c}][$0]',
  },
  pinverse: {
    signature: 'pinverse[row=?r, col=?c][M(?r, ?c)]',
    doc: 'the entry at ?r, ?c of the Moore–Penrose pseudo-inverse of M (defined for singular matrices too; square) (pyRDDLGym; not in rddlsim)',
    insertText: 'pinverse[row=?${1:r}, col=?${2:c}][$0]',
  },
  cholesky: {
    signature: 'cholesky[row=?r, col=?c][M(?r, ?c)]',
    doc: 'the entry at ?r, ?c of the lower Cholesky factor L of M = L·Lᵀ (M symmetric, positive semi-definite) (pyRDDLGym; not in rddlsim)',
    insertText: 'cholesky[row=?${1:r}, col=?${2:c}][$0]',
  },
  ln: { signature: 'ln[x]', doc: 'natural logarithm' },
  exp: { signature: 'exp[x]', doc: 'e to the power x' },
  sqrt: { signature: 'sqrt[x]', doc: 'square root' },
  cos: { signature: 'cos[x]', doc: 'cosine (radians)' },
  sin: { signature: 'sin[x]', doc: 'sine (radians)' },
  tan: { signature: 'tan[x]', doc: 'tangent (radians)' },
  acos: { signature: 'acos[x]', doc: 'arc cosine' },
  asin: { signature: 'asin[x]', doc: 'arc sine' },
  atan: { signature: 'atan[x]', doc: 'arc tangent' },
  cosh: { signature: 'cosh[x]', doc: 'hyperbolic cosine' },
  sinh: { signature: 'sinh[x]', doc: 'hyperbolic sine' },
  tanh: { signature: 'tanh[x]', doc: 'hyperbolic tangent' },
};

/** Aggregations and quantifiers, written `sum_{?x : type} expr`. */
export const RDDL_AGGREGATIONS: Readonly<Record<string, string>> = {
  sum: 'sum over all bindings (bools count as 0/1)',
  prod: 'product over all bindings',
  min: 'smallest value over all bindings',
  max: 'largest value over all bindings',
  avg: 'the sum divided by the number of bindings, a real (pyRDDLGym; not in rddlsim)',
  argmin:
    'the value of the one variable whose body is smallest, the first in the type’s order on a tie (pyRDDLGym; not in rddlsim)',
  argmax:
    'the value of the one variable whose body is largest, the first in the type’s order on a tie (pyRDDLGym; not in rddlsim)',
  det: 'det_{?r : t1, ?c : t2} M(?r, ?c): the determinant of the matrix with rows ?r and columns ?c (t1 and t2 with as many values) (pyRDDLGym; not in rddlsim)',
  forall: 'true when the body is true for every binding',
  exists: 'true when the body is true for some binding',
};
