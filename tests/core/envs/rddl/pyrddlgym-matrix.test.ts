/**
 * pyRDDLGym's multivariate draws, `MultivariateNormal[?v](mean(_), cov(_, _))` and
 * `MultivariateStudent[?v](mean(_), sigma(_, _), df)`, and its matrix operations `det_{?r : t, ?c : t} e`,
 * `inverse[row=?r, col=?c][e]`, `pinverse[...]` and `cholesky[...]`: exact values of known matrices, sample
 * moments for fixed seeds (tolerances from the sample size), and a located error for each misuse.
 */
import { describe, expect, it } from 'vitest';
import { checkRddl, loadRddl } from '../../../../src/core/envs/rddl';
import { choleskyFactor, determinant, invert, pseudoInverse } from '../../../../src/core/envs/rddl/matrix';
import { expectLoadError, longRunningDomain, stateValuesPerStep } from './fixtures';

const TYPES = 'obj : object; dim : {@x, @y, @z}; pair : {@a, @b};';

const domain = longRunningDomain(TYPES);

const run = stateValuesPerStep;

const DIMS = ['@x', '@y', '@z'];

describe('the linear algebra', () => {
  it('gives exact determinants, inverses and Cholesky factors of known matrices', () => {
    expect(determinant([2, 0, 1, 1, 3, 2, 1, 1, 2], 3)).toBeCloseTo(6, 12);
    expect(determinant([0, 1, 1, 0], 2)).toBe(-1);
    expect(determinant([1, 2, 2, 4], 2)).toBe(0);
    const inverse = new Float64Array(4);
    expect(invert([4, 7, 2, 6], 2, inverse)).toBeUndefined();
    [0.6, -0.7, -0.2, 0.4].forEach((v, i) => expect(inverse[i]).toBeCloseTo(v, 12));
    expect(invert([1, 2, 2, 4], 2, inverse)).toMatch(/singular/);
    const factor = new Float64Array(9);
    expect(choleskyFactor([4, 12, -16, 12, 37, -43, -16, -43, 98], 3, factor)).toBeUndefined();
    [2, 0, 0, 6, 1, 0, -8, 5, 3].forEach((v, i) => expect(factor[i]).toBeCloseTo(v, 12));
    // Semi-definite: a zero pivot is a zero column.
    expect(choleskyFactor([1, 1, 1, 1], 2, factor.subarray(0, 4))).toBeUndefined();
    expect([...factor.subarray(0, 4)]).toEqual([1, 0, 1, 0]);
    expect(choleskyFactor([1, 2, 2, 1], 2, factor.subarray(0, 4))).toMatch(/not positive semi-definite/);
    expect(choleskyFactor([1, 0.5, 0, 1], 2, factor.subarray(0, 4))).toMatch(/not symmetric/);
  });

  it('gives the Moore–Penrose pseudo-inverse of rank-deficient and non-square matrices', () => {
    // [[1, 2], [2, 4]] has rank 1: its pseudo-inverse is A / 25.
    const p = new Float64Array(4);
    pseudoInverse([1, 2, 2, 4], 2, 2, p);
    [1 / 25, 2 / 25, 2 / 25, 4 / 25].forEach((v, i) => expect(p[i]).toBeCloseTo(v, 12));
    // A 3×2 matrix of full column rank: pinv = (AᵀA)⁻¹Aᵀ; checked by the four Penrose conditions.
    const a = [1, 0, 0, 1, 1, 1];
    const q = new Float64Array(6);
    pseudoInverse(a, 3, 2, q);
    [2 / 3, -1 / 3, 1 / 3, -1 / 3, 2 / 3, 1 / 3].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 12));
    const wide = new Float64Array(6);
    pseudoInverse([1, 0, 1, 0, 1, 1], 2, 3, wide);
    [2 / 3, -1 / 3, -1 / 3, 2 / 3, 1 / 3, 1 / 3].forEach((v, i) => expect(wide[i]).toBeCloseTo(v, 12));
    // The zero matrix's pseudo-inverse is zero.
    pseudoInverse([0, 0, 0, 0], 2, 2, p);
    expect([...p]).toEqual([0, 0, 0, 0]);
  });
});

const MATRICES = domain(
  `    M(dim, dim) : { non-fluent, real, default = 0.0 };
    S(dim, dim) : { non-fluent, real, default = 0.0 };
    R(pair, pair) : { non-fluent, real, default = 0.0 };
    B(obj, pair, pair) : { non-fluent, real, default = 0.0 };
    d : { state-fluent, real, default = 0.0 };
    dB(obj) : { state-fluent, real, default = 0.0 };
    inv(dim, dim) : { state-fluent, real, default = 0.0 };
    L(dim, dim) : { state-fluent, real, default = 0.0 };
    P(pair, pair) : { state-fluent, real, default = 0.0 };
    shifted(dim, dim) : { interm-fluent, real };
    kept(dim, dim) : { state-fluent, real, default = 0.0 };
    sumInv : { state-fluent, real, default = 0.0 };
    k : { state-fluent, int, default = 0 };
    scaled(dim, dim) : { state-fluent, real, default = 0.0 };`,
  `    d' = det_{?r : dim, ?c : dim} M(?r, ?c);
    dB'(?o) = det_{?i : pair, ?j : pair} B(?o, ?i, ?j);
    inv'(?r, ?c) = inverse[row=?r, col=?c][M(?r, ?c)];
    L'(?r, ?c) = cholesky[row=?r, col=?c][S(?r, ?c)];
    P'(?i, ?j) = pinverse[row=?i, col=?j][R(?i, ?j)];
    shifted(?c, ?r) = 1 + inverse[row=?r, col=?c][M(?r, ?c)];
    kept'(?r, ?c) = shifted(?r, ?c);
    sumInv' = sum_{?r : dim, ?c : dim} inverse[row=?r, col=?c][2 * M(?r, ?c)];
    k' = k + 1;
    scaled'(?r, ?c) = if (k >= 0) then inverse[row=?r, col=?c][M(?r, ?c) * (k + 1)] else 0.0;`,
  `objects { obj : {o1, o2}; };
  non-fluents {
    M(@x, @x) = 2.0; M(@x, @z) = 1.0; M(@y, @x) = 1.0; M(@y, @y) = 3.0; M(@y, @z) = 2.0;
    M(@z, @x) = 1.0; M(@z, @y) = 1.0; M(@z, @z) = 2.0;
    S(@x, @x) = 4.0; S(@x, @y) = 12.0; S(@x, @z) = -16.0; S(@y, @x) = 12.0; S(@y, @y) = 37.0;
    S(@y, @z) = -43.0; S(@z, @x) = -16.0; S(@z, @y) = -43.0; S(@z, @z) = 98.0;
    R(@a, @a) = 1.0; R(@a, @b) = 2.0; R(@b, @a) = 2.0; R(@b, @b) = 4.0;
    B(o1, @a, @a) = 1.0; B(o1, @a, @b) = 2.0; B(o1, @b, @a) = 3.0; B(o1, @b, @b) = 4.0;
    B(o2, @a, @a) = 2.0; B(o2, @b, @b) = 5.0;
  };`,
);

/** M = [[2, 0, 1], [1, 3, 2], [1, 1, 2]] (det 6) and its inverse, row by row. */
const M_INVERSE = [
  [4 / 6, 1 / 6, -3 / 6],
  [0, 3 / 6, -3 / 6],
  [-2 / 6, -2 / 6, 1],
];

describe("pyRDDLGym's matrix operations", () => {
  const [state, second] = run(loadRddl(MATRICES).createSimulator({ seed: 1 }), 2);
  const at = (name: string, ...args: string[]) => state!.get(`${name}(${args.join(',')})`)!;

  it('det_{?r : t, ?c : t} is the determinant, batched over the other variables', () => {
    expect(at('d')).toBeCloseTo(6, 12);
    expect(at('dB', 'o1')).toBeCloseTo(-2, 12);
    expect(at('dB', 'o2')).toBeCloseTo(10, 12);
  });

  it('inverse[row=?r, col=?c] gives the inverse entry at ?r, ?c, also inside an expression', () => {
    DIMS.forEach((r, i) =>
      DIMS.forEach((c, j) => {
        expect(at('inv', r, c)).toBeCloseTo(M_INVERSE[i]![j]!, 12);
        // shifted(?c, ?r) = 1 + inverse(?r, ?c): the head's order does not change which entry is read.
        expect(at('kept', c, r)).toBeCloseTo(1 + M_INVERSE[i]![j]!, 12);
      }),
    );
    // A matrix that changes every step is inverted anew: (M·(k + 1))⁻¹ is M⁻¹ / (k + 1).
    DIMS.forEach((r, i) =>
      DIMS.forEach((c, j) => {
        expect(at('scaled', r, c)).toBeCloseTo(M_INVERSE[i]![j]!, 12);
        expect(second!.get(`scaled(${r},${c})`)).toBeCloseTo(M_INVERSE[i]![j]! / 2, 12);
      }),
    );
    // The inverse of 2M is M⁻¹ / 2: its entries sum to half of M⁻¹'s (4/6).
    expect(at('sumInv')).toBeCloseTo(1 / 3, 12);
  });

  it('cholesky gives the lower factor, pinverse the pseudo-inverse of a rank-deficient matrix', () => {
    const factor = [
      [2, 0, 0],
      [6, 1, 0],
      [-8, 5, 3],
    ];
    DIMS.forEach((r, i) => DIMS.forEach((c, j) => expect(at('L', r, c)).toBeCloseTo(factor[i]![j]!, 12)));
    // [[1, 2], [2, 4]] has rank 1; its Moore–Penrose inverse is itself / 25.
    expect(at('P', '@a', '@a')).toBeCloseTo(1 / 25, 12);
    expect(at('P', '@a', '@b')).toBeCloseTo(2 / 25, 12);
    expect(at('P', '@b', '@b')).toBeCloseTo(4 / 25, 12);
  });

  it('stops a step with a located error for a singular inverse or a cholesky of an indefinite matrix', () => {
    const singular = loadRddl(
      domain(
        `    M(pair, pair) : { non-fluent, real, default = 1.0 };
    inv(pair, pair) : { state-fluent, real, default = 0.0 };`,
        "    inv'(?r, ?c) = inverse[row=?r, col=?c][M(?r, ?c)];",
      ),
    ).createSimulator({ seed: 1 });
    expect(singular.step([])).toMatchObject({
      kind: 'error',
      message: 'inverse: the matrix is singular (it has no inverse; pinverse gives one)',
      location: { line: 8, column: 20 },
    });
    const indefinite = loadRddl(
      domain(
        `    M(pair, pair) : { non-fluent, real, default = 1.0 };
    L(pair, pair) : { state-fluent, real, default = 0.0 };`,
        "    L'(?r, ?c) = cholesky[row=?r, col=?c][M(?r, ?c) - 2 * (?r == ?c)];",
      ),
    ).createSimulator({ seed: 1 });
    expect(indefinite.step([])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^cholesky: the matrix is not positive semi-definite/),
      location: { line: 8, column: 18 },
    });
  });

  it('reports misuse at its place', () => {
    const messages = (pvariables: string, cpfs: string) =>
      checkRddl(domain(pvariables, cpfs)).map(
        (d) => `${d.location?.line}:${d.location?.column}: ${d.message}`,
      );
    const V = `    M(dim, dim) : { non-fluent, real, default = 1.0 };
    v : { state-fluent, real, default = 0.0 };
    out(dim, dim) : { state-fluent, real, default = 0.0 };`;
    expect(messages(V, "    v' = det_{?r : dim, ?c : pair} M(?r, @x);\n    out'(?r, ?c) = 0.0;")).toEqual([
      '9:10: det needs a square matrix, but dim has 3 values and pair 2',
    ]);
    expect(messages(V, "    v' = det_{?r : dim} M(?r, ?r);\n    out'(?r, ?c) = 0.0;")).toEqual([
      "9:10: det_{?r : rows, ?c : columns} takes two variables, the row's and the column's, not 1",
    ]);
    expect(messages(V, "    v' = inverse[row=?r, col=?c][M(?r, ?c)];\n    out'(?r, ?c) = 0.0;")).toEqual([
      "9:22: ?r is not bound here: inverse[row=?r, col=?c] names variables of the cpf (or of an enclosing aggregation) that receive the result's rows and columns",
    ]);
    expect(messages(V, "    v' = 0.0;\n    out'(?r, ?c) = pinverse[row=?r, col=?r][M(?r, ?c)];")).toEqual([
      '10:41: the row and column variables of pinverse must differ, not both ?r',
    ]);
    expect(messages(V, "    v' = 0.0;\n    out'(?r, ?c) = cholesky[row=?r, column=?c][M(?r, ?c)];")).toEqual([
      "10:37: cholesky[row=?r, col=?c][...] names the row variable, then the column variable: expected 'col', found 'column'",
    ]);
    expect(messages(V, "    v' = 0.0;\n    out'(?r, ?c) = inverse[row=?r, col=?c][@x];")).toEqual([
      '10:44: inverse needs a numeric matrix, not dim',
    ]);
  });

  it('needs square matrices of objects, checked when the instance is loaded', () => {
    const error = expectLoadError(() =>
      loadRddl(
        domain(
          `    W(obj, dim) : { non-fluent, real, default = 1.0 };
    P(obj, dim) : { state-fluent, real, default = 0.0 };`,
          "    P'(?o, ?d) = pinverse[row=?o, col=?d][W(?o, ?d)];",
        ),
      ),
    );
    expect(error.message).toMatch(
      /^pinverse needs a square matrix, but obj has 2 values and dim 3 \(pyRDDLGym puts the 3×2 pseudo-inverse/,
    );
    expect(error.location).toMatchObject({ line: 8, column: 18 });
  });
});

/** Sample mean and covariance of the members `keys` over the states. */
function moments(states: Map<string, number>[], keys: string[]) {
  const n = states.length;
  const mean = keys.map((k) => states.reduce((s, st) => s + st.get(k)!, 0) / n);
  const cov = keys.map((a, i) =>
    keys.map(
      (b, j) => states.reduce((s, st) => s + (st.get(a)! - mean[i]!) * (st.get(b)! - mean[j]!), 0) / (n - 1),
    ),
  );
  return { mean, cov };
}

const STEPS = 20000;
const SIGMA = [
  [4, 1.2, -0.8],
  [1.2, 2, 0.5],
  [-0.8, 0.5, 1],
];
const MU = [1, -2, 0.5];

const MULTIVARIATE = domain(
  `    MU(dim) : { non-fluent, real, default = 0.0 };
    SIGMA(dim, dim) : { non-fluent, real, default = 0.0 };
    SHIFT(obj) : { non-fluent, real, default = 0.0 };
    ONES(pair, pair) : { non-fluent, real, default = 1.0 };
    I(pair, pair) : { non-fluent, real, default = 0.0 };
    x(obj, dim) : { state-fluent, real, default = 0.0 };
    t(dim) : { state-fluent, real, default = 0.0 };
    same(pair) : { state-fluent, real, default = 0.0 };
    w(pair) : { state-fluent, real, default = 0.0 };`,
  `    x'(?o, ?d) = MultivariateNormal[?d](MU(_) + SHIFT(?o), SIGMA(_, _));
    t'(?d) = MultivariateStudent[?d](MU(_), SIGMA(_, _), 8);
    same'(?p) = MultivariateNormal[?p](0.0 * ONES(_, @a), ONES(_, _));
    w'(?p) = MultivariateStudent[?p](0.0 * ONES(_, @a), I(_, _), 8);`,
  `objects { obj : {o1, o2}; };
  non-fluents {
    SHIFT(o2) = 10.0; I(@a, @a) = 1.0; I(@b, @b) = 1.0;
${DIMS.map((r, i) => `    MU(${r}) = ${MU[i]};\n${DIMS.map((c, j) => `    SIGMA(${r}, ${c}) = ${SIGMA[i]![j]};`).join('\n')}`).join('\n')}
  };`,
);

describe("pyRDDLGym's MultivariateNormal and MultivariateStudent", () => {
  const states = run(loadRddl(MULTIVARIATE).createSimulator({ seed: 12 }), STEPS);

  // A sample covariance entry's standard error is about √((σ_ii σ_jj + σ_ij²) / n) for normal data; the
  // tolerances are 5 standard errors (a sample mean's: √(σ_ii / n)).
  const se = (s: number[][], i: number, j: number, n: number) =>
    Math.sqrt((s[i]![i]! * s[j]![j]! + s[i]![j]! ** 2) / n);

  it('MultivariateNormal has the given mean and covariance, one joint draw per other grounding', () => {
    for (const [o, shift] of [
      ['o1', 0],
      ['o2', 10],
    ] as const) {
      const { mean, cov } = moments(
        states,
        DIMS.map((d) => `x(${o},${d})`),
      );
      DIMS.forEach((_, i) => {
        expect(Math.abs(mean[i]! - (MU[i]! + shift))).toBeLessThan(5 * Math.sqrt(SIGMA[i]![i]! / STEPS));
        DIMS.forEach((_, j) =>
          expect(Math.abs(cov[i]![j]! - SIGMA[i]![j]!)).toBeLessThan(5 * se(SIGMA, i, j, STEPS)),
        );
      });
    }
    // The two objects draw independently.
    const cross = moments(states, ['x(o1,@x)', 'x(o2,@x)']).cov[0]![1]!;
    expect(Math.abs(cross)).toBeLessThan(5 * Math.sqrt(16 / STEPS));
  });

  it('draws from a singular (semi-definite) covariance: all-ones gives equal members', () => {
    for (const s of states.slice(0, 200)) expect(s.get('same(@a)')).toBe(s.get('same(@b)'));
    expect(new Set(states.slice(0, 200).map((s) => s.get('same(@a)'))).size).toBe(200);
  });

  it('MultivariateStudent has covariance sigma·df/(df − 2), its members sharing one scale', () => {
    const { mean, cov } = moments(
      states,
      DIMS.map((d) => `t(${d})`),
    );
    // t with 8 degrees of freedom has heavier tails: its errors are wider than a normal's, by about
    // √(1 + kurtosis excess / 2) = √1.75 for a variance; 7 normal standard errors cover that.
    const factor = 8 / 6;
    const scaled = SIGMA.map((row) => row.map((v) => v * factor));
    DIMS.forEach((_, i) => {
      expect(Math.abs(mean[i]! - MU[i]!)).toBeLessThan(5 * Math.sqrt(scaled[i]![i]! / STEPS));
      DIMS.forEach((_, j) =>
        expect(Math.abs(cov[i]![j]! - scaled[i]![j]!)).toBeLessThan(7 * se(scaled, i, j, STEPS)),
      );
    });
    // With sigma = I the members are uncorrelated but not independent: one chi-square scales both, so
    // their squares correlate (by 0.143 for df = 8; 0 if each member had its own scale).
    const squares = states.map(
      (s) =>
        new Map([
          ['a', s.get('w(@a)')! ** 2],
          ['b', s.get('w(@b)')! ** 2],
        ]),
    );
    const m = moments(squares, ['a', 'b']).cov;
    const correlation = m[0]![1]! / Math.sqrt(m[0]![0]! * m[1]![1]!);
    expect(correlation).toBeGreaterThan(0.07);
    expect(correlation).toBeLessThan(0.25);
  });

  it('stops a step with a located error for a covariance that is not positive semi-definite', () => {
    const bad = (entries: string, df = '') =>
      loadRddl(
        domain(
          `    C(pair, pair) : { non-fluent, real, default = 1.0 };
    v(pair) : { state-fluent, real, default = 0.0 };`,
          `    v'(?p) = Multivariate${df ? 'Student' : 'Normal'}[?p](0.0 * C(_, @a), C(_, _)${df});`,
          `objects { obj : {o1}; }; non-fluents { ${entries} };`,
        ),
      )
        .createSimulator({ seed: 1 })
        .step([]);
    expect(bad('C(@b, @b) = -1.0;')).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(
        /^MultivariateNormal covariance: the matrix is not positive semi-definite/,
      ),
      location: { line: 8, column: 14 },
    });
    expect(bad('C(@a, @b) = 0.5;')).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^MultivariateNormal covariance: the matrix is not symmetric/),
    });
    expect(bad('C(@a, @b) = 0.5; C(@b, @a) = 0.5;', ', 0.0')).toMatchObject({
      kind: 'error',
      message: 'MultivariateStudent df must be positive, but it is 0.0',
      location: { line: 8, column: 14 },
    });
  });

  it('reports misuse at its place', () => {
    const messages = (cpf: string) =>
      checkRddl(
        domain(
          `    MU(dim) : { non-fluent, real, default = 0.0 };
    C(dim, dim) : { non-fluent, real, default = 1.0 };
    CP(dim, pair) : { non-fluent, real, default = 1.0 };
    v(dim) : { state-fluent, real, default = 0.0 };`,
          `    v'(?d) = ${cpf};`,
        ),
      ).map((d) => `${d.location?.line}:${d.location?.column}: ${d.message}`);
    expect(messages('1 + MultivariateNormal[?d](MU(_), C(_, _))')).toEqual([
      "10:18: MultivariateNormal[?v](...) samples a vector into the cpf's fluent: it must be the whole cpf, not part of an expression",
    ]);
    expect(messages('MultivariateNormal[?d](MU(@x), C(_, _))')).toEqual([
      "10:37: the mean of MultivariateNormal[?v] is a vector over ?d's values: write _ once in it, as mean(_), not 0 times",
    ]);
    expect(messages('MultivariateNormal[?d](MU(_), C(_, @x))')).toEqual([
      "10:44: the covariance of MultivariateNormal[?v] is a matrix over ?d's values: write _ twice in it, as cov(_, _) (row, then column), not once",
    ]);
    expect(messages('MultivariateStudent[?d](MU(_), C(_, _))')).toEqual([
      '10:14: MultivariateStudent[?v] takes three parameters, mean(_), cov(_, _) and df, not 2',
    ]);
    expect(messages('MultivariateStudent[?d](MU(_), C(_, _), MU(_))')).toEqual([
      '10:54: the degrees of freedom of MultivariateStudent[?v] is one number per draw: it cannot read _ (found 1)',
    ]);
    expect(messages('MultivariateNormal[?e](MU(_), C(_, _))')).toEqual([
      '10:33: ?e is not a parameter of this cpf: MultivariateNormal[?v] names the parameter that receives the vector',
    ]);
    // A covariance over two different types is not square: its second _ does not fit.
    const square = messages('MultivariateNormal[?d](MU(_), CP(_, _))');
    expect(square).toHaveLength(1);
    expect(square[0]).toMatch(/^10:50: argument 2 of .CP. is a pair/);
  });
});

describe("pyRDDLGym's external function calls", () => {
  it('are one located error saying they run Python code', () => {
    const diagnostics = checkRddl(
      domain(
        `    A(dim) : { non-fluent, real, default = 1.0 };
    v(dim) : { state-fluent, real, default = 0.0 };`,
        "    v'(?d) = 1 + $Softmax[?d](A(_));",
      ),
    );
    expect(diagnostics.map((d) => `${d.location?.line}:${d.location?.column}: ${d.message}`)).toEqual([
      '8:18: $Softmax[...] calls an external function: pyRDDLGym runs it as Python code, which this simulator cannot run',
    ]);
  });
});
