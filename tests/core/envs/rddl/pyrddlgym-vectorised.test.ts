/**
 * pyRDDLGym's vectorised draws, `Dirichlet[?v](alpha(_))` and `Multinomial[?v](trials, p(_))`: the cpf of a
 * fluent with a parameter ?v, one joint draw per grounding of its other parameters, `_` standing for each
 * value of ?v's type in the parameters. Exact sums and corners, means for fixed seeds with wide
 * tolerances, and a located error for each misuse.
 */
import { describe, expect, it } from 'vitest';
import { checkRddl, loadRddl } from '../../../../src/core/envs/rddl';
import { longRunningDomain, stateValuesPerStep, testSources } from './fixtures';

const TYPES = 'obj : object; color : {@red, @green, @blue}; single : {@only};';

const domain = longRunningDomain(TYPES);

const run = stateValuesPerStep;

const mean = (states: Map<string, number>[], key: string) =>
  states.reduce((sum, s) => sum + s.get(key)!, 0) / states.length;

const DIRICHLET = domain(
  `    A(obj, color) : { non-fluent, real, default = 1.0 };
    share(obj, color) : { state-fluent, real, default = 0.0 };
    flipped(color, obj) : { state-fluent, real, default = 0.0 };`,
  `    share'(?o, ?c) = Dirichlet[?c](A(?o, _));
    flipped'(?c, ?o) = Dirichlet[?c](A(?o, _));`,
  `objects { obj : {o1, o2}; };
  non-fluents { A(o2, @blue) = 5.0; A(o2, @red) = 0.5; };`,
);

describe("pyRDDLGym's Dirichlet[?v](alpha(_))", () => {
  const states = run(loadRddl(DIRICHLET).createSimulator({ seed: 21 }), 3000);

  it('draws one probability vector per grounding of the other parameters', () => {
    for (const s of states) {
      for (const o of ['o1', 'o2']) {
        const sum = ['@red', '@green', '@blue'].reduce((a, c) => a + s.get(`share(${o},${c})`)!, 0);
        expect(sum).toBeCloseTo(1, 12);
        const flipped = ['@red', '@green', '@blue'].reduce((a, c) => a + s.get(`flipped(${c},${o})`)!, 0);
        expect(flipped).toBeCloseTo(1, 12);
      }
    }
    // Two groundings of ?o draw independently.
    expect(states.some((s) => s.get('share(o1,@red)') !== s.get('share(o2,@red)'))).toBe(true);
  });

  it('has the means alpha_i / sum(alpha), wherever ?v stands among the parameters', () => {
    // o1: alpha 1, 1, 1; o2: alpha 0.5, 1, 5 (sum 6.5).
    const expected: [string, number][] = [
      ['o1,@red', 1 / 3],
      ['o1,@blue', 1 / 3],
      ['o2,@red', 0.5 / 6.5],
      ['o2,@green', 1 / 6.5],
      ['o2,@blue', 5 / 6.5],
    ];
    for (const [args, m] of expected) {
      expect(Math.abs(mean(states, `share(${args})`) - m)).toBeLessThan(0.03);
      const [o, c] = args.split(',');
      expect(Math.abs(mean(states, `flipped(${c},${o})`) - m)).toBeLessThan(0.03);
    }
  });

  it('gives 1 to the member of a one-value type, and stops a step at a non-positive alpha', () => {
    const one = loadRddl(
      domain(
        '    all(obj, single) : { state-fluent, real, default = 0.0 };',
        "    all'(?o, ?s) = Dirichlet[?s](0.5 + 0.0);",
      ),
    ).createSimulator({ seed: 1 });
    expect(run(one, 3).map((s) => s.get('all(o2,@only)'))).toEqual([1, 1, 1]);
    const bad = loadRddl(
      domain(
        `    A(color) : { non-fluent, real, default = 1.0 };
    v(color) : { state-fluent, real, default = 0.0 };`,
        "    v'(?c) = Dirichlet[?c](A(_) - 1);",
      ),
    ).createSimulator({ seed: 1 });
    expect(bad.step([])).toMatchObject({
      kind: 'error',
      message: 'Dirichlet alpha 0.0 must be positive',
      location: { line: 8, column: 14 },
    });
  });
});

const MULTINOMIAL = domain(
  `    P(color) : { non-fluent, real, default = 0.25 };
    N(obj) : { non-fluent, int, default = 12 };
    counts(obj, color) : { interm-fluent, int };
    kept(obj, color) : { state-fluent, int, default = 0 };
    total(obj) : { state-fluent, int, default = 0 };`,
  `    counts(?o, ?c) = Multinomial[?c](N(?o), P(_));
    kept'(?o, ?c) = counts(?o, ?c);
    total'(?o) = sum_{?c : color} counts(?o, ?c);`,
  `objects { obj : {o1, o2}; };
  non-fluents { P(@red) = 0.5; N(o2) = 0; };`,
);

describe("pyRDDLGym's Multinomial[?v](trials, p(_))", () => {
  const states = run(loadRddl(MULTINOMIAL).createSimulator({ seed: 5 }), 3000);

  it('counts exactly `trials` draws per grounding of the other parameters; 0 trials give zeros', () => {
    for (const s of states) {
      expect(s.get('total(o1)')).toBe(12);
      expect(['@red', '@green', '@blue'].reduce((a, c) => a + s.get(`kept(o1,${c})`)!, 0)).toBe(12);
      expect(s.get('total(o2)')).toBe(0);
    }
    expect(new Set(states.map((s) => s.get('kept(o1,@red)'))).size).toBeGreaterThan(4);
  });

  it('has the means trials × p', () => {
    expect(Math.abs(mean(states, 'kept(o1,@red)') - 6)).toBeLessThan(0.2);
    expect(Math.abs(mean(states, 'kept(o1,@green)') - 3)).toBeLessThan(0.2);
    expect(Math.abs(mean(states, 'kept(o1,@blue)') - 3)).toBeLessThan(0.2);
  });

  it("draws exactly what rddlsim's Multinomial(type, ...) draws into a vector fluent", () => {
    const sources = (declaration: string, cpf: string) =>
      testSources({
        types: `${TYPES} tally : [color] <? : int>;`,
        pvariables: `    P(color) : { non-fluent, real, default = 0.25 };
    ${declaration}`,
        cpfs: `    ${cpf}`,
        instance: 'objects { obj : {o1}; }; non-fluents { P(@red) = 0.5; };',
      });
    const vectorised = run(
      loadRddl(
        sources('m(color) : { state-fluent, int, default = 0 };', "m'(?c) = Multinomial[?c](12, P(_));"),
      ).createSimulator({ seed: 7 }),
      200,
    ).map((s) => ['@red', '@green', '@blue'].map((c) => s.get(`m(${c})`)));
    const simulator = loadRddl(
      sources(
        't : { state-fluent, tally, default = < ? : 0 > };',
        "t' = Multinomial(color, 12, @red : P(@red), @green : P(@green), @blue : P(@blue));",
      ),
    ).createSimulator({ seed: 7 });
    const members: number[][] = [];
    for (let step = 0; step < 200; step++) {
      simulator.step([]);
      const t = simulator.stateFluents()[0]!;
      members.push(t.members!.map((m) => m.value as number));
    }
    expect(vectorised).toEqual(members);
    expect(new Set(vectorised.map((v) => v[0])).size).toBeGreaterThan(3);
  });

  it('stops a step with a located error for negative trials or probabilities that do not sum to 1', () => {
    const negative = loadRddl(
      domain(
        `    W(color) : { non-fluent, real, default = 1.0 };
    m(color) : { state-fluent, int, default = 0 };`,
        "    m'(?c) = Multinomial[?c](0 - 2, W(_) / 3);",
      ),
    ).createSimulator({ seed: 1 });
    expect(negative.step([])).toMatchObject({
      kind: 'error',
      message: 'Multinomial trials -2 must be at least 0',
      location: { line: 8, column: 14 },
    });
    const unnormalised = loadRddl(
      domain('    m(color) : { state-fluent, int, default = 0 };', "    m'(?c) = Multinomial[?c](3, 0.5);"),
    ).createSimulator({ seed: 1 });
    expect(unnormalised.step([])).toMatchObject({
      kind: 'error',
      message: 'Discrete probabilities sum to 1.5, not 1',
      location: { line: 7, column: 14 },
    });
  });
});

describe('misuses of the vectorised draws', () => {
  const messages = (pvariables: string, cpfs: string) =>
    checkRddl(domain(pvariables, cpfs)).map((d) => `${d.location?.line}:${d.location?.column}: ${d.message}`);
  const V = `    A(color) : { non-fluent, real, default = 1.0 };
    v(color) : { state-fluent, real, default = 0.0 };
    n(color) : { state-fluent, int, default = 0 };`;

  it('are located errors', () => {
    expect(messages(V, "    v'(?c) = 2 * Dirichlet[?c](A(_));\n    n'(?c) = 0;")).toEqual([
      "9:18: Dirichlet[?v](...) samples a vector into the cpf's fluent: it must be the whole cpf, not part of an expression",
    ]);
    expect(messages(V, "    v'(?c) = Dirichlet[?d](A(_));\n    n'(?c) = 0;")).toEqual([
      '9:24: ?d is not a parameter of this cpf: Dirichlet[?v] names the parameter that receives the vector',
    ]);
    expect(messages(V, "    v'(?c) = Dirichlet[?c, ?c](A(_));\n    n'(?c) = 0;")).toEqual([
      '9:14: Dirichlet[...] names one variable of the cpf, not 2',
    ]);
    expect(messages(V, "    v'(?c) = Dirichlet[?c](A(?c));\n    n'(?c) = 0;")).toEqual([
      '9:30: unknown variable ?c',
    ]);
    expect(messages(V, "    v'(?c) = A(_);\n    n'(?c) = 0;")).toEqual([
      '9:16: _ stands for every value of the sampled type, only in the parameters of a vectorised draw (Dirichlet[?v](...), Multinomial[?v](...), MultivariateNormal[?v](...), MultivariateStudent[?v](...))',
    ]);
    expect(messages(V, "    v'(?c) = 0.0;\n    n'(?c) = Multinomial[?c](2.5, A(_) / 3);")).toEqual([
      '10:30: the trials of Multinomial must be an int, not real',
    ]);
    expect(messages(V, "    v'(?c) = 0.0;\n    n'(?c) = Multinomial[?c](A(_));")).toEqual([
      '10:14: Multinomial[?v] takes two parameters, trials and p(_), not 1',
    ]);
    expect(messages(V, "    v'(?c) = 0.0;\n    n'(?c) = Dirichlet[?c](A(_));")[0]).toMatch(
      /^10:14: 'n' is int, but its cpf gives real/,
    );
  });
});
