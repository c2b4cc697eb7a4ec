/**
 * The distributions of RDDL that Protoplay reads, rddlsim's and pyRDDLGym's, one entry each: how the parser
 * reads the name, the parameters of the plain form `Name(a, b)` (their count and what each must be), and
 * what a draw gives. The parser takes the parameter counts from here, the type checker (`domain.ts`) and the
 * compiler (`compile-expr.ts`) what a draw gives and which parameter must be an int, the editor's
 * vocabulary the names: a distribution is added once, here, and none of them can know it differently.
 */
import { BOOL, INT, REAL, type ValueType } from './value-types';

/** One parameter of a plain form: its name (as the editor's signature writes it) and what it must be. */
export interface DistributionParameter {
  readonly name: string;
  /** `number`: an int or a real (a bool counts as 0/1); `int`: an int or a bool; `value`: any value. */
  readonly kind: 'number' | 'int' | 'value';
}

/** What the language knows of one distribution. */
export interface DistributionSpec {
  /**
   * `keyword`: a reserved word of rddlsim's grammar; `name`: pyRDDLGym's, read as a distribution only where
   * no fluent of the text has the name.
   */
  readonly reading: 'keyword' | 'name';
  /**
   * The parameters of the plain form, in order; `typed` for the forms with a type (`Discrete(type, @v : p,
   * ...)`, `Multinomial(type, count, ...)`, `Dirichlet(type, alpha)` and their pyRDDLGym variants, and
   * pyRDDLGym's `MultivariateNormal[?v](...)`/`MultivariateStudent[?v](...)`), which the parser reads by
   * their own rules.
   */
  readonly parameters: readonly DistributionParameter[] | 'typed';
  /**
   * What a draw gives: `bool`, `int`, `real`; `parameter`: the value of its parameter (the deltas); `member`:
   * a value of the type; `vector`: one number per value of the type.
   */
  readonly draws: 'bool' | 'int' | 'real' | 'parameter' | 'member' | 'vector';
}

const number = (name: string) => ({ name, kind: 'number' }) as const;
const int = (name: string) => ({ name, kind: 'int' }) as const;
const value = (name: string) => ({ name, kind: 'value' }) as const;

/** Every distribution, by name. */
export const DISTRIBUTIONS = {
  Bernoulli: { reading: 'keyword', parameters: [number('p')], draws: 'bool' },
  KronDelta: { reading: 'keyword', parameters: [value('v')], draws: 'parameter' },
  DiracDelta: { reading: 'keyword', parameters: [value('v')], draws: 'parameter' },
  Uniform: { reading: 'keyword', parameters: [number('lower'), number('upper')], draws: 'real' },
  Normal: { reading: 'keyword', parameters: [number('mean'), number('variance')], draws: 'real' },
  Exponential: { reading: 'keyword', parameters: [number('mean')], draws: 'real' },
  Poisson: { reading: 'keyword', parameters: [number('mean')], draws: 'int' },
  Weibull: { reading: 'keyword', parameters: [number('shape'), number('scale')], draws: 'real' },
  Gamma: { reading: 'keyword', parameters: [number('shape'), number('scale')], draws: 'real' },
  Discrete: { reading: 'keyword', parameters: 'typed', draws: 'member' },
  UnnormDiscrete: { reading: 'name', parameters: 'typed', draws: 'member' },
  Multinomial: { reading: 'keyword', parameters: 'typed', draws: 'vector' },
  Dirichlet: { reading: 'keyword', parameters: 'typed', draws: 'vector' },
  MultivariateNormal: { reading: 'name', parameters: 'typed', draws: 'vector' },
  MultivariateStudent: { reading: 'name', parameters: 'typed', draws: 'vector' },
  Binomial: { reading: 'name', parameters: [int('trials'), number('p')], draws: 'int' },
  NegativeBinomial: { reading: 'name', parameters: [number('r'), number('p')], draws: 'int' },
  Geometric: { reading: 'name', parameters: [number('p')], draws: 'int' },
  Beta: { reading: 'name', parameters: [number('a'), number('b')], draws: 'real' },
  Pareto: { reading: 'name', parameters: [number('shape'), number('scale')], draws: 'real' },
  Student: { reading: 'name', parameters: [number('df')], draws: 'real' },
  Gumbel: { reading: 'name', parameters: [number('location'), number('scale')], draws: 'real' },
  Laplace: { reading: 'name', parameters: [number('location'), number('scale')], draws: 'real' },
  Cauchy: { reading: 'name', parameters: [number('location'), number('scale')], draws: 'real' },
  Gompertz: { reading: 'name', parameters: [number('shape'), number('scale')], draws: 'real' },
  ChiSquare: { reading: 'name', parameters: [number('df')], draws: 'real' },
  Kumaraswamy: { reading: 'name', parameters: [number('a'), number('b')], draws: 'real' },
} as const satisfies Readonly<Record<string, DistributionSpec>>;

type Table = typeof DISTRIBUTIONS;

/** Names of the distributions. */
export type DistributionName = keyof Table;

/** The distributions written `Name(a, b)` whose name is one of rddlsim's reserved words. */
export type KeywordDistributionName = {
  [N in DistributionName]: Table[N] extends { reading: 'keyword'; parameters: readonly unknown[] }
    ? N
    : never;
}[DistributionName];

/** The distributions written `Name(a, b)` that pyRDDLGym adds (rddlsim does not reserve their names). */
export type PyRddlGymDistributionName = {
  [N in DistributionName]: Table[N] extends { reading: 'name'; parameters: readonly unknown[] } ? N : never;
}[DistributionName];

/** The distributions whose draw is a bool, an int or a real, whatever their parameters. */
export type NumberDistributionName = {
  [N in DistributionName]: Table[N]['draws'] extends 'bool' | 'int' | 'real' ? N : never;
}[DistributionName];

/** The names of the distributions of a plain form that read their names as `reading` says, in table order. */
export function plainDistributions<R extends DistributionSpec['reading']>(
  reading: R,
): (R extends 'keyword' ? KeywordDistributionName : PyRddlGymDistributionName)[] {
  return (Object.keys(DISTRIBUTIONS) as DistributionName[]).filter((name) => {
    const spec: DistributionSpec = DISTRIBUTIONS[name];
    return spec.reading === reading && spec.parameters !== 'typed';
  }) as (R extends 'keyword' ? KeywordDistributionName : PyRddlGymDistributionName)[];
}

/** The parameter count of a plain form. */
export function distributionArity(name: KeywordDistributionName | PyRddlGymDistributionName): number {
  return DISTRIBUTIONS[name].parameters.length;
}

/** The type of a draw of a distribution that draws a bool, an int or a real. */
export function drawnType(name: NumberDistributionName): ValueType {
  const draws = DISTRIBUTIONS[name].draws;
  return draws === 'bool' ? BOOL : draws === 'int' ? INT : REAL;
}

/** The parameters of a plain form (none for a typed form). */
export function distributionParameters(name: DistributionName): readonly DistributionParameter[] {
  const parameters: DistributionSpec['parameters'] = DISTRIBUTIONS[name].parameters;
  return parameters === 'typed' ? [] : parameters;
}

/** True for a name of the table. */
export function isDistributionName(name: string): name is DistributionName {
  return Object.prototype.hasOwnProperty.call(DISTRIBUTIONS, name);
}
