/**
 * pyRDDLGym's distributions beyond rddlsim's (Binomial, NegativeBinomial, Geometric, Beta, Pareto, Student,
 * Gumbel, Laplace, Cauchy, Gompertz, ChiSquare, Kumaraswamy) and its argmin/argmax aggregations, through
 * loading and simulation as users run them. Sampling is checked against the distributions' means,
 * variances or quantiles with fixed seeds and wide tolerances; deterministic corners exactly.
 */
import { describe, expect, it } from 'vitest';
import { checkRddl, loadRddl } from '../../../../src/core/envs/rddl';
import { expectLoadError, testSources } from './fixtures';

/**
 * One state fluent per distribution (`d-binomial`, ...: a fluent named like a distribution would be read as
 * the fluent), each drawn anew every step.
 */
const draws: { name: string; expr: string; range: 'int' | 'real' }[] = [
  { name: 'binomial', expr: 'Binomial(20, 0.3)', range: 'int' },
  { name: 'binomialHigh', expr: 'Binomial(20, 0.9)', range: 'int' },
  { name: 'binomialLarge', expr: 'Binomial(1000, 0.25)', range: 'int' },
  { name: 'negBinomial', expr: 'NegativeBinomial(3, 0.4)', range: 'int' },
  { name: 'geometric', expr: 'Geometric(0.25)', range: 'int' },
  { name: 'beta', expr: 'Beta(2, 5)', range: 'real' },
  { name: 'pareto', expr: 'Pareto(3, 2)', range: 'real' },
  { name: 'student', expr: 'Student(5)', range: 'real' },
  { name: 'gumbel', expr: 'Gumbel(1, 2)', range: 'real' },
  { name: 'laplace', expr: 'Laplace(-1, 0.5)', range: 'real' },
  { name: 'cauchy', expr: 'Cauchy(3, 1)', range: 'real' },
  { name: 'gompertz', expr: 'Gompertz(0.5, 2)', range: 'real' },
  { name: 'chiSquare', expr: 'ChiSquare(4)', range: 'real' },
  { name: 'kumaraswamy', expr: 'Kumaraswamy(2, 3)', range: 'real' },
];

const STEPS = 4000;

function sample(seed: number): Map<string, number[]> {
  const sources = testSources({
    pvariables: draws
      .map(
        (d) =>
          `    d-${d.name} : { state-fluent, ${d.range}, default = ${d.range === 'int' ? '0' : '0.0'} };`,
      )
      .join('\n'),
    cpfs: draws.map((d) => `    d-${d.name}' = ${d.expr};`).join('\n'),
    horizon: `horizon = ${STEPS};`,
  });
  const simulator = loadRddl(sources).createSimulator({ seed });
  const values = new Map(draws.map((d) => [d.name, [] as number[]]));
  for (let step = 0; step < STEPS; step++) {
    const outcome = simulator.step([]);
    if (outcome.kind !== 'ok') throw new Error(JSON.stringify(outcome));
    for (const fluent of simulator.stateFluents())
      values.get(fluent.name.slice(2))!.push(fluent.value as number);
  }
  return values;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;

describe("pyRDDLGym's distributions", () => {
  const values = sample(11);

  /** The sample mean lies within 5 standard errors of `expected` (variance known). */
  const expectMean = (name: string, expected: number, variance: number) => {
    const xs = values.get(name)!;
    expect(Math.abs(mean(xs) - expected)).toBeLessThan(5 * Math.sqrt(variance / xs.length));
  };

  it('draw ints with the means and variances pyRDDLGym gives them', () => {
    expectMean('binomial', 6, 4.2);
    expectMean('binomialHigh', 18, 1.8);
    expectMean('binomialLarge', 250, 187.5);
    expectMean('negBinomial', 4.5, 11.25);
    expectMean('geometric', 4, 12);
    for (const name of ['binomial', 'binomialHigh', 'binomialLarge', 'negBinomial', 'geometric']) {
      expect(values.get(name)!.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
    }
    expect(Math.min(...values.get('geometric')!)).toBe(1);
    expect(Math.max(...values.get('binomial')!)).toBeLessThanOrEqual(20);
    // The variance of the split draw for large n is the binomial one (within 15%).
    const large = values.get('binomialLarge')!;
    const m = mean(large);
    const variance = mean(large.map((x) => (x - m) ** 2));
    expect(variance / 187.5).toBeGreaterThan(0.85);
    expect(variance / 187.5).toBeLessThan(1.15);
  });

  it('draw reals with the means or quantiles of their parameterisation', () => {
    expectMean('beta', 2 / 7, 10 / 392);
    expectMean('student', 0, 5 / 3);
    expectMean('gumbel', 1 + 2 * 0.5772156649, (Math.PI ** 2 / 6) * 4);
    expectMean('laplace', -1, 0.5);
    expectMean('chiSquare', 4, 8);
    expectMean('kumaraswamy', 0.4571, 0.05);
    // Heavy tails: medians and quartiles instead of means.
    expect(quantile(values.get('pareto')!, 0.5)).toBeCloseTo(2 * (2 ** (1 / 3) - 1), 1);
    expect(quantile(values.get('cauchy')!, 0.5)).toBeCloseTo(3, 1);
    expect(quantile(values.get('cauchy')!, 0.25)).toBeCloseTo(2, 0);
    expect(quantile(values.get('cauchy')!, 0.75)).toBeCloseTo(4, 0);
    expect(quantile(values.get('gompertz')!, 0.5)).toBeCloseTo(Math.log(1 + Math.LN2 / 0.5) / 2, 1);
    expect(quantile(values.get('kumaraswamy')!, 0.5)).toBeCloseTo(Math.sqrt(1 - 0.5 ** (1 / 3)), 1);
    for (const name of ['beta', 'kumaraswamy']) {
      expect(values.get(name)!.every((x) => x >= 0 && x <= 1)).toBe(true);
    }
    expect(values.get('pareto')!.every((x) => x >= 0)).toBe(true);
  });

  it('give the same draws for the same seed and others for another seed', () => {
    const again = sample(11);
    const other = sample(12);
    for (const { name } of draws) {
      expect(again.get(name)!.slice(0, 50)).toEqual(values.get(name)!.slice(0, 50));
      expect(other.get(name)!.slice(0, 50)).not.toEqual(values.get(name)!.slice(0, 50));
    }
  });

  it('are exact at their deterministic corners, and report ints as ints', () => {
    const simulator = loadRddl(
      testSources({
        pvariables: `    none : { state-fluent, int, default = 5 };
    all : { state-fluent, int, default = 5 };
    first : { state-fluent, int, default = 5 };
    failures : { state-fluent, int, default = 5 };`,
        cpfs: `    none' = Binomial(7, 0.0);
    all' = Binomial(7, 1.0);
    first' = Geometric(1.0);
    failures' = NegativeBinomial(2, 1.0);`,
      }),
    ).createSimulator({ seed: 3 });
    expect(simulator.step([])).toMatchObject({ kind: 'ok' });
    const state = Object.fromEntries(simulator.stateFluents().map((f) => [f.name, [f.value, f.valueType]]));
    expect(state).toEqual({
      all: [7, 'int'],
      failures: [0, 'int'],
      first: [1, 'int'],
      none: [0, 'int'],
    });
  });

  it('stop a step with a located error when a parameter is out of range', () => {
    const simulator = loadRddl(
      testSources({
        pvariables: `    a : { state-fluent, real, default = -1.0 };
    x : { state-fluent, real, default = 0.0 };`,
        cpfs: `    a' = a;
    x' = Beta(a, 2);`,
      }),
    ).createSimulator({ seed: 1 });
    const outcome = simulator.step([]);
    expect(outcome).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/Beta a must be positive, but it is -1\.0/),
      location: { source: 'domain.rddl', line: 9 },
    });
  });

  it('report wrong parameter types at their place', () => {
    const problems = checkRddl(
      testSources({
        pvariables: `    n : { state-fluent, int, default = 0 };
    b : { state-fluent, bool, default = false };`,
        cpfs: `    n' = Binomial(2.5, 0.5);
    b' = Gumbel(b, 1) > 0;`,
      }),
    );
    expect(problems.map((p) => [p.location.line, p.message])).toEqual([
      [8, expect.stringMatching(/the trials of Binomial must be an int, not real/)],
      [9, expect.stringMatching(/the parameters of Gumbel must be numbers, not bool/)],
    ]);
  });

  it('report a wrong number of parameters at the distribution', () => {
    const problems = checkRddl(
      testSources({
        pvariables: '    x : { state-fluent, real, default = 0.0 };',
        cpfs: "    x' = Beta(1);",
      }),
    );
    expect(problems.map((p) => [p.location.line, p.location.column, p.message])).toEqual([
      [7, 10, 'Beta takes two parameters, not 1'],
    ]);
  });

  it('leave the names free for fluents, as rddlsim does not reserve them', () => {
    const simulator = loadRddl(
      testSources({
        pvariables: `    Beta(obj) : { non-fluent, real, default = 0.25 };
    Binomial : { state-fluent, int, default = 0 };`,
        cpfs: `    Binomial' = Binomial + 1;`,
        reward: 'sum_{?o : obj} Beta(?o)',
      }),
    ).createSimulator({ seed: 1 });
    expect(simulator.step([])).toMatchObject({ kind: 'ok', reward: 0.75 });
    expect(simulator.stateFluents()[0]).toMatchObject({ name: 'Binomial', value: 1 });
  });
});

describe("pyRDDLGym's argmin and argmax", () => {
  const sources = testSources({
    types: 'obj : object; grade : {@low, @mid, @high};',
    pvariables: `    W(obj) : { non-fluent, real, default = 1.0 };
    COST(grade) : { non-fluent, int, default = 5 };
    load(obj) : { state-fluent, real, default = 0.0 };
    heaviest : { state-fluent, obj, default = o1 };
    cheapest : { state-fluent, grade, default = @mid };
    lightest : { state-fluent, obj, default = o3 };
    push(obj) : { action-fluent, real, default = 0.0 };`,
    cpfs: `    load'(?o) = load(?o) + push(?o);
    heaviest' = argmax_{?o : obj} [load(?o) + W(?o)];
    lightest' = argmin_{?o : obj} [load(?o) + W(?o)];
    cheapest' = argmin_{?l : grade} COST(?l);`,
    reward: 'if ((argmax_{?o : obj} [load(?o)]) == $o2) then 3 else 1',
    instance: `objects { obj : {o1, o2, o3}; };
  non-fluents { W(o2) = 3.0; COST(@high) = 2; COST(@low) = 2; };`,
  });
  const nonFluents = `non-fluents nf {
  domain = t;
  objects { obj : {o1, o2, o3}; };
  non-fluents { W(o2) = 3.0; COST(@high) = 2; COST(@low) = 2; };
}
`;
  // The instance takes its non-fluents from a block of their own.
  const withBlock = [
    sources[0]!,
    { name: 'nf.rddl', text: nonFluents },
    {
      name: 'instance.rddl',
      text: sources[1]!.text.replace(/objects \{[^\n]*\n\s*non-fluents \{[^\n]*\n/, 'non-fluents = nf;\n'),
    },
  ];

  for (const rddlsimQuirks of [false, true]) {
    it(`give the first value with the smallest or largest term, as values of the variable’s type${rddlsimQuirks ? " (rddlsim's semantics)" : ''}`, () => {
      const simulator = loadRddl(withBlock, { rddlsimQuirks }).createSimulator({ seed: 1, rddlsimQuirks });
      const state = () =>
        Object.fromEntries(
          simulator
            .stateFluents()
            .filter((f) => f.args.length === 0)
            .map((f) => [f.name, f.value]),
        );
      // Loads 0: terms 1, 3, 1; argmin ties between o1 and o3 and takes o1; COST ties @low and @high: @low.
      expect(simulator.step([])).toMatchObject({ kind: 'ok', reward: 1 });
      expect(state()).toEqual({ heaviest: 'o2', lightest: 'o1', cheapest: '@low' });
      // Cpfs read the current loads: a push shows in the step after.
      simulator.step([{ name: 'push', args: ['o1'], value: 5 }]);
      expect(state()).toMatchObject({ heaviest: 'o2', lightest: 'o1' });
      // Loads 5, 0, 0: terms 6, 3, 1. The reward is 3 only when o2 carries the largest load.
      expect(simulator.step([{ name: 'push', args: ['o2'], value: 9 }])).toMatchObject({ reward: 1 });
      expect(state()).toMatchObject({ heaviest: 'o1', lightest: 'o3' });
      expect(simulator.step([])).toMatchObject({ kind: 'ok', reward: 3 });
      expect(state()).toMatchObject({ heaviest: 'o2', lightest: 'o3' });
    });
  }

  it('are refused with one located error for two variables or a non-numeric body', () => {
    const problems = checkRddl(
      testSources({
        pvariables: `    on(obj) : { state-fluent, bool, default = false };
    pick : { state-fluent, obj, default = o1 };
    other : { state-fluent, obj, default = o1 };`,
        cpfs: `    on'(?o) = on(?o);
    pick' = argmax_{?o : obj, ?p : obj} 1;
    other' = argmin_{?o : obj} pick;`,
      }),
    );
    expect(problems.map((p) => [p.location.line, p.message])).toEqual([
      [10, 'argmax ranges over one variable (argmax_{?x : type} ...), not 2'],
      [11, expect.stringMatching(/^argmin needs a numeric body, not .*obj/)],
    ]);
  });

  it('come with avg, the sum over the bindings divided by their number', () => {
    const simulator = loadRddl(
      testSources({
        pvariables: `    W(obj) : { non-fluent, int, default = 1 };
    load(obj) : { state-fluent, real, default = 0.0 };
    mean : { state-fluent, real, default = 0.0 };
    push(obj) : { action-fluent, real, default = 0.0 };`,
        cpfs: `    load'(?o) = load(?o) + push(?o);
    mean' = avg_{?o : obj} [load(?o) + W(?o)];`,
        reward: 'avg_{?o : obj} W(?o)',
      }),
    ).createSimulator({ seed: 1 });
    // W is 1 for the three objects: the reward is the constant 1.0; int terms still average to a real.
    expect(simulator.step([{ name: 'push', args: ['o2'], value: 2 }])).toMatchObject({ reward: 1 });
    expect(simulator.stateFluents().find((f) => f.name === 'mean')).toMatchObject({
      value: 1,
      valueType: 'real',
    });
    simulator.step([]);
    expect(simulator.stateFluents().find((f) => f.name === 'mean')!.value).toBeCloseTo(5 / 3, 12);
  });

  it('is what an unknown aggregation is told to use', () => {
    const error = expectLoadError(() =>
      loadRddl(
        testSources({
          pvariables: '    x : { state-fluent, real, default = 0.0 };',
          cpfs: "    x' = average_{?o : obj} 1;",
        }),
      ),
    );
    expect(error.message).toMatch(
      /unknown aggregation 'average' \(use sum, prod, min or max, or pyRDDLGym's avg, argmin, argmax and det\)/,
    );
  });
});
