import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import { DistributionError, RandomSource } from '../../../../src/core/envs/rddl/distributions';
import { Well19937c } from '../../../../src/core/envs/rddl/well19937c';
import { Rng } from '../../../../src/core/random';
import { testSources } from './fixtures';

const N = 100_000;

function source(seed: number): RandomSource {
  const rng = new Rng(seed);
  return new RandomSource({ nextDouble: () => rng.nextFloat() });
}

/** Sample mean and variance. */
function moments(draw: () => number, n = N): { mean: number; variance: number } {
  let sum = 0;
  let sumSquares = 0;
  for (let i = 0; i < n; i++) {
    const x = draw();
    sum += x;
    sumSquares += x * x;
  }
  const mean = sum / n;
  return { mean, variance: sumSquares / n - mean * mean };
}

/** Checks mean within 5 standard errors and variance within 5%. */
function expectMoments(draw: () => number, mean: number, variance: number): void {
  const sample = moments(draw);
  expect(Math.abs(sample.mean - mean)).toBeLessThan(5 * Math.sqrt(variance / N));
  expect(Math.abs(sample.variance - variance) / variance).toBeLessThan(0.05);
}

describe('sample moments with rddlsim parameterisation', () => {
  it('Bernoulli(p)', () => {
    const r = source(1);
    expectMoments(() => (r.bernoulli(0.3) ? 1 : 0), 0.3, 0.21);
  });

  it('Uniform(lower, upper)', () => {
    const r = source(2);
    expectMoments(() => r.uniformBetween(2, 5), 3.5, 0.75);
  });

  it('Normal(mean, variance): the second parameter is the variance', () => {
    const r = source(3);
    expectMoments(() => r.normal(1, 4), 1, 4);
    expect(r.normal(7, 0)).toBe(7);
  });

  it('Exponential(mean): the parameter is the mean', () => {
    const r = source(4);
    expectMoments(() => r.exponential(2), 2, 4);
  });

  it('Poisson(mean), below and above 40', () => {
    const r = source(5);
    expectMoments(() => r.poisson(3), 3, 3);
    expectMoments(() => r.poisson(120), 120, 120);
    expect(Number.isInteger(r.poisson(3.5))).toBe(true);
  });

  it('Weibull(shape, scale)', () => {
    const r = source(6);
    // mean = scale * Γ(1 + 1/shape), variance = scale² (Γ(1 + 2/shape) - Γ(1 + 1/shape)²)
    const gammaOneAndHalf = Math.sqrt(Math.PI) / 2;
    expectMoments(() => r.weibull(2, 3), 3 * gammaOneAndHalf, 9 * (1 - gammaOneAndHalf ** 2));
  });

  it('Gamma(shape, scale) for shapes above and below 1', () => {
    const r = source(7);
    expectMoments(() => r.gamma(2.5, 2), 5, 10);
    expectMoments(() => r.gamma(0.5, 1), 0.5, 0.5);
  });

  it('Discrete draws each case with its probability', () => {
    const r = source(8);
    const counts = [0, 0, 0];
    const probabilities = new Float64Array([0.2, 0.5, 0.3]);
    for (let i = 0; i < N; i++) counts[r.discrete(probabilities, 3)]!++;
    counts.forEach((count, i) =>
      expect(Math.abs(count / N - probabilities[i]!)).toBeLessThan(5 * Math.sqrt(0.25 / N)),
    );
  });

  it('draws uniform doubles from WELL19937c too', () => {
    const well = new Well19937c(42);
    expectMoments(() => well.nextDouble(), 0.5, 1 / 12);
  });
});

describe('parameters out of range', () => {
  const r = source(9);
  it.each([
    ['Bernoulli(1.5)', () => r.bernoulli(1.5), 'Bernoulli probability 1.5 is not in [0, 1]'],
    ['Uniform(2, 2)', () => r.uniformBetween(2, 2), 'Uniform needs lower < upper, but got Uniform(2.0, 2.0)'],
    ['Normal(0, -1)', () => r.normal(0, -1), 'Normal variance -1.0 is negative'],
    ['Exponential(0)', () => r.exponential(0), 'Exponential mean 0.0 must be positive'],
    ['Poisson(-1)', () => r.poisson(-1), 'Poisson mean -1.0 must be positive'],
    ['Gamma(0, 1)', () => r.gamma(0, 1), 'Gamma needs a positive shape and scale, but got Gamma(0.0, 1.0)'],
    [
      'Weibull(1, -2)',
      () => r.weibull(1, -2),
      'Weibull needs a positive shape and scale, but got Weibull(1.0, -2.0)',
    ],
    [
      'Discrete summing to 0.9',
      () => r.discrete(new Float64Array([0.4, 0.5]), 2),
      'Discrete probabilities sum to 0.9, not 1',
    ],
  ])('%s', (_, draw, message) => {
    expect(draw).toThrow(new DistributionError(message));
  });
});

describe('distributions in RDDL', () => {
  const model = loadRddl(
    testSources({
      types: 'obj : object; md : {@a, @b, @c};',
      pvariables: `    g : { state-fluent, real, default = 0.0 };
    e : { state-fluent, real, default = 0.0 };
    m : { state-fluent, md, default = @a };
    p : { state-fluent, real, default = 0.25 };
    bad : { state-fluent, bool, default = false };`,
      cpfs: `    g' = Normal(10, 9);
    e' = Exponential(3);
    m' = Discrete(md, @a : 0.5, @b : p, @c : otherwise);
    p' = p;
    bad' = Bernoulli(p * 8);`,
      instance: 'objects { obj : {o}; }; init-state { p = 0.1; };',
    }),
  );

  it('reads Normal as (mean, variance), Exponential as (mean) and Discrete with otherwise', () => {
    const simulator = model.createSimulator({ seed: 21 });
    const g: number[] = [];
    const e: number[] = [];
    const m: Record<string, number> = {};
    const n = 40_000;
    for (let i = 0; i < n; i++) {
      simulator.step([]);
      const state = new Map(simulator.stateFluents().map((f) => [f.name, f.value]));
      g.push(state.get('g') as number);
      e.push(state.get('e') as number);
      const label = state.get('m') as string;
      m[label] = (m[label] ?? 0) + 1;
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
    expect(mean(g)).toBeCloseTo(10, 1);
    expect(sd(g)).toBeCloseTo(3, 1);
    expect(mean(e)).toBeCloseTo(3, 1);
    expect(m['@a']! / n).toBeCloseTo(0.5, 1);
    expect(m['@b']! / n).toBeCloseTo(0.1, 1);
    expect(m['@c']! / n).toBeCloseTo(0.4, 1);
  });

  it('reports a parameter out of range at run time with the expression and its location', () => {
    const broken = loadRddl(
      testSources({
        pvariables:
          '    x : { state-fluent, bool, default = false };\n    q : { state-fluent, real, default = 0.2 };',
        cpfs: "    q' = q * 4;\n    x' = Bernoulli(q);",
      }),
    ).createSimulator({ seed: 1 });
    expect(broken.step([]).kind).toBe('ok');
    expect(broken.step([]).kind).toBe('ok');
    const outcome = broken.step([]);
    expect(outcome).toMatchObject({ kind: 'error', message: 'Bernoulli probability 3.2 is not in [0, 1]' });
    expect(outcome.kind === 'error' && outcome.location).toMatchObject({
      source: 'domain.rddl',
      line: 9,
      column: 10,
    });
  });
});
