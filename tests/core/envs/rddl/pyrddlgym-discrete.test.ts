/**
 * pyRDDLGym's forms of Discrete: `Discrete_{?v : t} p(?v)` (one probability expression over the values of
 * t), `UnnormDiscrete(t, @a : w, ...)` and `UnnormDiscrete_{?v : t} w(?v)` (weights divided by their sum).
 * Draw-by-draw equalities with the case-list Discrete where the draws must coincide, frequencies for fixed
 * seeds with wide tolerances, and a located error for each misuse.
 */
import { describe, expect, it } from 'vitest';
import { checkRddl, loadRddl } from '../../../../src/core/envs/rddl';
import type { RddlSimulator } from '../../../../src/core/envs/rddl/api';
import { expectLoadError, testSources } from './fixtures';

const TYPES = 'obj : object; color : {@red, @green, @blue};';

/** A domain with one color-valued state fluent `x` per cpf given, named x0, x1, ... */
function colors(cpfs: string[], extra = '', instance?: string) {
  return testSources({
    types: TYPES,
    pvariables: [
      ...cpfs.map((_, i) => `    x${i} : { state-fluent, color, default = @red };`),
      '    W(color) : { non-fluent, real, default = 1.0 };',
      '    grow : { state-fluent, real, default = 0.0 };',
      extra,
    ].join('\n'),
    cpfs: [...cpfs.map((cpf, i) => `    x${i}' = ${cpf};`), "    grow' = grow + 0.25;"].join('\n'),
    horizon: 'horizon = 100000;',
    ...(instance ? { instance } : {}),
  });
}

function run(simulator: RddlSimulator, steps: number): Record<string, unknown>[] {
  const states: Record<string, unknown>[] = [];
  for (let step = 0; step < steps; step++) {
    const outcome = simulator.step([]);
    if (outcome.kind !== 'ok') throw new Error(JSON.stringify(outcome));
    states.push(
      Object.fromEntries(simulator.stateFluents().map((f) => [`${f.name}${f.args.join(',')}`, f.value])),
    );
  }
  return states;
}

/** The values one cpf for `x0` draws in 300 steps from seed 5. */
const drawsOf = (cpf: string) =>
  run(loadRddl(colors([cpf])).createSimulator({ seed: 5 }), 300).map((s) => s.x0);

/** Fraction of the states in which `key` holds `value`. */
const share = (states: Record<string, unknown>[], key: string, value: unknown) =>
  states.filter((s) => s[key] === value).length / states.length;

describe("pyRDDLGym's Discrete_{?v : t}", () => {
  it('draws exactly what the case-list Discrete with the same probabilities draws', () => {
    const over = drawsOf(
      'Discrete_{?c : color}( if (?c == @red) then 0.5 else (if (?c == @green) then 0.3 else 0.2) )',
    );
    expect(over).toEqual(drawsOf('Discrete(color, @red : 0.5, @green : 0.3, @blue : 0.2)'));
    // Not a constant: every value is drawn.
    expect(new Set(over)).toEqual(new Set(['@red', '@green', '@blue']));
  });

  it('reads fluents and outer variables in its body, with the frequencies its probabilities give', () => {
    const sources = testSources({
      types: TYPES,
      pvariables: `    P(obj, color) : { non-fluent, real, default = 0.0 };
    pick(obj) : { state-fluent, color, default = @blue };`,
      cpfs: "    pick'(?o) = Discrete_{?c : color} [P(?o, ?c)];",
      horizon: 'horizon = 100000;',
      instance: `objects { obj : {o1, o2}; };
  non-fluents { P(o1, @red) = 0.2; P(o1, @green) = 0.8; P(o2, @blue) = 1.0; };`,
    });
    // The instance above carries non-fluents inline (the IPC 2018 form).
    const states = run(loadRddl(sources).createSimulator({ seed: 3 }), 4000);
    expect(share(states, 'picko1', '@red')).toBeGreaterThan(0.17);
    expect(share(states, 'picko1', '@red')).toBeLessThan(0.23);
    expect(share(states, 'picko1', '@blue')).toBe(0);
    expect(share(states, 'picko2', '@blue')).toBe(1);
  });

  it('draws objects of an object type, in the instance’s order', () => {
    const sources = testSources({
      pvariables: '    holder : { state-fluent, obj, default = o1 };',
      cpfs: "    holder' = Discrete_{?o : obj}(1.0 / 3);",
      horizon: 'horizon = 100000;',
    });
    const states = run(loadRddl(sources).createSimulator({ seed: 8 }), 3000);
    for (const o of ['o1', 'o2', 'o3']) {
      expect(share(states, 'holder', o)).toBeGreaterThan(0.29);
      expect(share(states, 'holder', o)).toBeLessThan(0.38);
    }
  });

  it('stops a step with a located error when its probabilities do not sum to 1', () => {
    const simulator = loadRddl(colors(['Discrete_{?c : color} (0.5)'])).createSimulator({ seed: 1 });
    expect(simulator.step([])).toMatchObject({
      kind: 'error',
      message: 'Discrete probabilities sum to 1.5, not 1',
      location: { source: 'domain.rddl', line: 10, column: 11 },
    });
  });

  it('is refused with a located error for two variables, a non-numeric body or a vector type', () => {
    const messages = (cpf: string, types = TYPES) =>
      checkRddl(
        testSources({
          types,
          pvariables: '    x : { state-fluent, color, default = @red };',
          cpfs: `    x' = ${cpf};`,
        }),
      ).map((d) => `${d.location?.line}:${d.location?.column}: ${d.message}`);
    expect(messages('Discrete_{?c : color, ?d : color} (1.0 / 9)')).toEqual([
      '7:10: Discrete_{?v : type} draws over one variable, not 2',
    ]);
    expect(messages('Discrete_{?c : color} (?c == @red)')).toEqual([
      '7:32: the probability of each value must be a number, not bool',
    ]);
    expect(messages('UnnormDiscrete_{?c : colour} 1.0')).toEqual([
      "7:31: unknown type 'colour' (did you mean color?)",
    ]);
    expect(messages('Discrete_{?c : pt} 1.0', `${TYPES} pt : <@a : real>;`)).toEqual([
      "7:25: variables range over object or enum types, and 'pt' is a vector type",
    ]);
  });
});

describe("pyRDDLGym's UnnormDiscrete", () => {
  it('normalises its weights: 2 and 6 draw what Discrete draws with 0.25 and 0.75', () => {
    const normalised = drawsOf('Discrete(color, @red : 0.25, @green : 0.75)');
    expect(drawsOf('UnnormDiscrete(color, @red : 2, @green : 6.0)')).toEqual(normalised);
    expect(
      drawsOf('UnnormDiscrete_{?c : color} [if (?c == @red) then 2 else (if (?c == @green) then 6 else 0)]'),
    ).toEqual(normalised);
    expect(new Set(normalised)).toEqual(new Set(['@red', '@green']));
  });

  it('gives each value its share of the weights, which may change from step to step', () => {
    // Weights 1, grow, 1 where grow grows by 0.25 per step: a zero weight at the first step.
    const simulator = loadRddl(
      colors(['UnnormDiscrete_{?c : color} [if (?c == @green) then grow else W(?c)]']),
    ).createSimulator({ seed: 4 });
    const first = run(simulator, 1)[0]!;
    expect(first.x0).not.toBe('@green');
    simulator.reset();
    const states = run(simulator, 4000);
    // Over 4,000 steps grow averages ~500: green wins almost always.
    expect(share(states, 'x0', '@green')).toBeGreaterThan(0.98);
    simulator.reset();
    const early = run(simulator, 8); // grow 0 .. 1.75: green's share rises from 0 to 7/15
    expect(early.map((s) => s.grow)).toEqual([0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]);
  });

  it('draws with the frequencies of the normalised weights', () => {
    const states = run(
      loadRddl(colors(['UnnormDiscrete(color, @red : 1, @blue : 3)'])).createSimulator({ seed: 12 }),
      4000,
    );
    expect(share(states, 'x0', '@blue')).toBeGreaterThan(0.72);
    expect(share(states, 'x0', '@blue')).toBeLessThan(0.78);
    expect(share(states, 'x0', '@green')).toBe(0);
  });

  it('stops a step with a located error for a negative weight or weights that sum to 0', () => {
    const negative = loadRddl(colors(['UnnormDiscrete(color, @red : 1, @blue : 0 - 3)'])).createSimulator({
      seed: 1,
    });
    expect(negative.step([])).toMatchObject({
      kind: 'error',
      message: 'UnnormDiscrete weight -3.0 must be at least 0',
      location: { line: 10, column: 11 },
    });
    const zero = loadRddl(colors(['UnnormDiscrete_{?c : color} (0.0 * W(?c))'])).createSimulator({ seed: 1 });
    expect(zero.step([])).toMatchObject({
      kind: 'error',
      message: 'UnnormDiscrete weights sum to 0.0: they must sum to a positive, finite number',
      location: { line: 10, column: 11 },
    });
  });

  it("has no 'otherwise', and its labels must be values of its type", () => {
    const error = expectLoadError(() =>
      loadRddl(colors(['UnnormDiscrete(color, @red : 1, @blue : otherwise)'])),
    );
    expect(error.format()).toBe(
      "domain.rddl:10:43: UnnormDiscrete has no 'otherwise': its weights are divided by their sum, so give each a weight",
    );
    expect(
      expectLoadError(() => loadRddl(colors(['UnnormDiscrete(color, @red : 1, @pink : 2)']))).format(),
    ).toBe('domain.rddl:10:43: @pink is not a value of color (@red, @green, @blue)');
  });

  it('is still a fluent where the text declares a fluent of that name', () => {
    const sources = testSources({
      pvariables: `    UnnormDiscrete(obj) : { non-fluent, int, default = 4 };
    n : { state-fluent, int, default = 0 };`,
      cpfs: "    n' = UnnormDiscrete($o2) + 1;",
    });
    const simulator = loadRddl(sources).createSimulator({ seed: 1 });
    simulator.step([]);
    expect(simulator.stateFluents()).toEqual([{ name: 'n', args: [], value: 5, valueType: 'int' }]);
  });
});

describe("pyRDDLGym's expressions as a fluent's argument", () => {
  // An item drawn by Discrete_, and the heaviest by argmax, each indexing another fluent in the same
  // statement, as pyRDDLGym's BinPacking writes `ITEM-SIZE(Discrete_{?i2 : item}[ITEM-PROB(?i2)])`.
  const sources = (probabilities: string) =>
    testSources({
      pvariables: `    SIZE(obj) : { non-fluent, real, default = 0.0 };
    PROB(obj) : { non-fluent, real, default = 0.0 };
    W(obj) : { non-fluent, real, default = 0.0 };
    drawn : { state-fluent, real, default = 0.0 };
    heaviest : { state-fluent, real, default = 0.0 };`,
      cpfs: `    drawn' = SIZE(Discrete_{?i : obj}[PROB(?i)]);
    heaviest' = SIZE(argmax_{?o : obj} W(?o));`,
      reward: 'SIZE(argmin_{?o : obj} [W(?o)])',
      horizon: 'horizon = 100000;',
      instance: `objects { obj : {o1, o2, o3}; };
  non-fluents { SIZE(o1) = 1.0; SIZE(o2) = 20.0; SIZE(o3) = 300.0; W(o1) = 5.0; W(o2) = 9.0; W(o3) = 2.0; ${probabilities} };`,
    });

  it('reads the fluent at the object the expression gives, drawn anew each step', () => {
    const simulator = loadRddl(sources('PROB(o1) = 0.25; PROB(o3) = 0.75;')).createSimulator({ seed: 4 });
    const states = run(simulator, 2000);
    // argmin W is o3, argmax W is o2: the same every step.
    expect(simulator.step([])).toMatchObject({ kind: 'ok', reward: 300 });
    expect(new Set(states.map((s) => s.heaviest))).toEqual(new Set([20]));
    // The drawn item is o1 or o3, never o2, about as often as their probabilities say.
    expect(new Set(states.map((s) => s.drawn))).toEqual(new Set([1, 300]));
    expect(share(states, 'drawn', 1)).toBeGreaterThan(0.21);
    expect(share(states, 'drawn', 1)).toBeLessThan(0.29);
    // A probability of 1 draws that item every time.
    const sure = run(loadRddl(sources('PROB(o2) = 1.0;')).createSimulator({ seed: 4 }), 50);
    expect(new Set(sure.map((s) => s.drawn))).toEqual(new Set([20]));
  });

  it('is refused, located, when the expression gives no value of the parameter’s type', () => {
    const messages = checkRddl(
      testSources({
        types: TYPES,
        pvariables: `    SIZE(obj) : { non-fluent, real, default = 0.0 };
    W(obj) : { non-fluent, real, default = 0.0 };
    x : { state-fluent, real, default = 0.0 };`,
        cpfs: "    x' = SIZE(argmax_{?c : color} W($o1)) + SIZE(Discrete_{?o : obj} (1.0 / 3));",
      }),
    ).map((d) => `${d.location?.line}:${d.location?.column}: ${d.message}`);
    expect(messages).toEqual(["9:15: argument 1 of 'SIZE' is a obj, but this expression gives a color"]);
  });
});
