/**
 * The one table of distributions (`distribution-table.ts`): the parser's parameter counts, the type checker's
 * and the compiler's type of a draw, and the editor's vocabulary all follow it, for every entry.
 */
import { describe, expect, it } from 'vitest';
import { checkRddl, loadRddl } from '../../../../src/core/envs/rddl';
import {
  DISTRIBUTIONS,
  distributionArity,
  distributionParameters,
  plainDistributions,
  type DistributionName,
} from '../../../../src/core/envs/rddl/distribution-table';
import { RDDL_DISTRIBUTIONS } from '../../../../src/core/envs/rddl/language/vocabulary';
import { testSources } from './fixtures';

/** Parameters a draw accepts, for each plain form (a name missing here fails the tests below). */
const GOOD_ARGUMENTS: Partial<Record<DistributionName, string>> = {
  Bernoulli: '0.5',
  KronDelta: '3',
  DiracDelta: '2.5',
  Uniform: '0.0, 1.0',
  Normal: '0.0, 1.0',
  Exponential: '2.0',
  Poisson: '3.0',
  Weibull: '2.0, 1.0',
  Gamma: '2.0, 1.0',
  Binomial: '10, 0.5',
  NegativeBinomial: '3, 0.5',
  Geometric: '0.5',
  Beta: '2.0, 3.0',
  Pareto: '3.0, 2.0',
  Student: '5.0',
  Gumbel: '1.0, 2.0',
  Laplace: '0.0, 1.0',
  Cauchy: '0.0, 1.0',
  Gompertz: '0.5, 2.0',
  ChiSquare: '4.0',
  Kumaraswamy: '2.0, 3.0',
};

const plain = [...plainDistributions('keyword'), ...plainDistributions('name')];

/** The range of a fluent holding a draw of the distribution. */
function rangeOf(name: (typeof plain)[number]): 'bool' | 'int' | 'real' {
  const draws = DISTRIBUTIONS[name].draws;
  if (draws === 'parameter') return name === 'KronDelta' ? 'int' : 'real';
  return draws;
}

function arguments_(name: DistributionName): string {
  const args = GOOD_ARGUMENTS[name];
  if (args === undefined) throw new Error(`no example parameters for ${name}`);
  return args;
}

describe('the table of distributions', () => {
  it('holds every distribution of the plain form, rddlsim’s and pyRDDLGym’s', () => {
    expect(plain.sort()).toEqual(Object.keys(GOOD_ARGUMENTS).sort());
    expect(plainDistributions('name')).toContain('Kumaraswamy');
    expect(plainDistributions('keyword')).toContain('Bernoulli');
  });

  it('is what the checker and the compiler type a draw with', () => {
    for (const name of plain) {
      const range = rangeOf(name);
      const sources = testSources({
        pvariables: `    x : { state-fluent, ${range}, default = ${range === 'bool' ? 'false' : range === 'int' ? '0' : '0.0'} };`,
        cpfs: `    x' = ${name}(${arguments_(name)});`,
      });
      expect(checkRddl(sources), name).toEqual([]);
      const simulator = loadRddl(sources).createSimulator({ seed: 1 });
      expect(simulator.step([]).kind, name).toBe('ok');
      const drawn = simulator.stateFluents()[0]!.value;
      if (range === 'bool') expect(typeof drawn, name).toBe('boolean');
      else expect(typeof drawn, name).toBe('number');
      if (range === 'int') expect(Number.isInteger(drawn), name).toBe(true);
      if (range !== 'bool') {
        // The checker says what a draw gives when the fluent cannot hold it.
        const wrong = checkRddl(
          testSources({
            pvariables: '    x : { state-fluent, bool, default = false };',
            cpfs: `    x' = ${name}(${arguments_(name)});`,
          }),
        );
        expect(
          wrong.map((p) => p.message),
          name,
        ).toEqual([`'x' is bool, but its cpf gives ${range}`]);
      }
    }
  });

  it('gives the parser each plain form’s parameter count', () => {
    for (const name of plain) {
      const arity = distributionArity(name);
      // One parameter too many, or one too few (rddlsim's grammar reads at most two).
      const given = arity === 1 ? 2 : 1;
      const args = arguments_(name).split(', ');
      const problems = checkRddl(
        testSources({
          pvariables: '    x : { state-fluent, real, default = 0.0 };',
          cpfs: `    x' = ${name}(${(given > args.length ? [...args, '1.0'] : args.slice(0, given)).join(', ')});`,
        }),
      );
      expect(
        problems.map((p) => p.message),
        name,
      ).toContain(`${name} takes ${arity === 1 ? 'one parameter' : 'two parameters'}, not ${given}`);
    }
  });

  it('says which parameters must be ints, and the checker names them', () => {
    const ints = plain.flatMap((name) =>
      distributionParameters(name)
        .map((parameter, i) => ({ name, parameter, i }))
        .filter(({ parameter }) => parameter.kind === 'int'),
    );
    expect(ints.map(({ name, parameter }) => `${name}.${parameter.name}`)).toEqual(['Binomial.trials']);
    for (const { name, parameter, i } of ints) {
      const args = arguments_(name).split(', ');
      args[i] = '2.5';
      const problems = checkRddl(
        testSources({
          pvariables: '    x : { state-fluent, int, default = 0 };',
          cpfs: `    x' = ${name}(${args.join(', ')});`,
        }),
      );
      expect(problems.map((p) => p.message)).toEqual([
        `the ${parameter.name} of ${name} must be an int, not real`,
      ]);
    }
  });

  it('names the distributions the editor explains, each with as many parameters as the table', () => {
    expect(Object.keys(RDDL_DISTRIBUTIONS).sort()).toEqual(Object.keys(DISTRIBUTIONS).sort());
    for (const name of plain) {
      const signature = RDDL_DISTRIBUTIONS[name]!.signature;
      const inside = /^\w+\(([^)]*)\)$/.exec(signature)?.[1];
      expect(inside?.split(',').length, signature).toBe(distributionArity(name));
    }
  });
});
