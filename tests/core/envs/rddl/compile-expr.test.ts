/**
 * Semantics of each construct, checked by running one step of a tiny domain whose state fluent `out` is
 * defined by the expression under test. Expected values follow rddlsim's rules (research §2.6-2.7).
 */
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { GroundFluent, StepOutcome } from '../../../../src/core/envs/rddl/api';
import { testSources } from './fixtures';

const TYPES = 'obj : object; one : object; md : {@off, @low, @high}; lv : {@1 .. @5};';
const PVARIABLES = `    flag(obj) : { state-fluent, bool, default = false };
    cnt : { state-fluent, int, default = 2 };
    pos : { state-fluent, real, default = 1.5 };
    mode : { state-fluent, md, default = @low };
    chosen : { state-fluent, obj, default = o2 };
    W(obj) : { non-fluent, real, default = 1.0 };
    single(one) : { state-fluent, bool, default = true };
    go(obj) : { action-fluent, bool, default = false };`;
const CPFS = `    flag'(?o) = flag(?o);
    cnt' = cnt;
    pos' = pos;
    mode' = mode;
    chosen' = chosen;
    single'(?u) = single(?u);`;

interface Run {
  out: GroundFluent;
  outcome: StepOutcome;
}

/** Steps once with `out' = expr` (out has the given range) and returns `out` afterwards. */
function run(
  expr: string,
  range = 'real',
  options: { quirks?: boolean; actions?: string[]; extra?: string } = {},
): Run {
  const model = loadRddl(
    testSources({
      types: TYPES,
      pvariables: `${PVARIABLES}\n    out : { state-fluent, ${range}, default = ${range === 'bool' ? 'false' : range === 'md' ? '@off' : range === 'real' ? '0.0' : '0'} };${options.extra ?? ''}`,
      cpfs: `${CPFS}\n    out' = ${expr};`,
      instance:
        'objects { obj : {o1, o2, o3}; one : {u}; }; non-fluents { W(o2) = 2.5; }; init-state { flag(o1); flag(o3); };',
    }),
  );
  const simulator = model.createSimulator({ seed: 11, rddlsimQuirks: options.quirks });
  const outcome = simulator.step(
    (options.actions ?? []).map((o) => ({ name: 'go', args: [o], value: true })),
  );
  const out = simulator.stateFluents().find((f) => f.name === 'out')!;
  return { out, outcome };
}

const value = (expr: string, range = 'real', options = {}) => run(expr, range, options).out.value;

describe('arithmetic and types', () => {
  it('keeps int op int an int with 32-bit wrap-around', () => {
    expect(run('2147483647 + 1', 'int').out).toMatchObject({ value: -2147483648, valueType: 'int' });
    expect(run('cnt * 3 - 1', 'int').out).toMatchObject({ value: 5, valueType: 'int' });
  });

  it('makes / always real and mixes to real', () => {
    expect(run('7 / 2').out).toMatchObject({ value: 3.5, valueType: 'real' });
    expect(run('4 / 2').out).toMatchObject({ value: 2, valueType: 'real' });
    expect(run('cnt + 0.5').out).toMatchObject({ value: 2.5, valueType: 'real' });
  });

  it('turns bools into 0/1 in arithmetic and comparisons', () => {
    expect(run('true + true', 'int').out.value).toBe(2);
    expect(value('sum_{?o : obj} flag(?o)', 'int')).toBe(2);
    expect(value('true == 1', 'bool')).toBe(true);
    expect(value('flag($o1) > flag($o2)', 'bool')).toBe(true);
  });

  it('reads unary minus as 0 - e', () => {
    expect(run('-cnt', 'int').out).toMatchObject({ value: -2, valueType: 'int' });
    expect(value('-pos')).toBe(-1.5);
  });

  it('compares numbers as doubles', () => {
    expect(value('cnt >= 2.0 ^ pos < 2 ^ cnt ~= 3 ^ cnt <= 2 ^ pos > 1', 'bool')).toBe(true);
  });
});

describe('enum and object values', () => {
  it('compares enum values with == and ~=', () => {
    expect(value('mode == @low ^ mode ~= @high', 'bool')).toBe(true);
    expect(run('if (mode == @low) then @high else @off', 'md').out).toMatchObject({
      value: '@high',
      valueType: 'enum',
    });
  });

  it('treats integer-named enum values as ints in arithmetic', () => {
    expect(value('@3 + 1', 'int')).toBe(4);
    expect(value('sum_{?l : lv} ?l', 'int')).toBe(15);
  });

  it('quantifies over enum values', () => {
    expect(value('exists_{?m : md} ?m == mode', 'bool')).toBe(true);
    expect(value('forall_{?m : md} ?m == mode', 'bool')).toBe(false);
  });

  it('reads fluents whose arguments come from other fluents', () => {
    expect(value('W(chosen)')).toBe(2.5);
    expect(value('flag(chosen)', 'bool')).toBe(false);
  });

  it('compares objects', () => {
    expect(value('chosen == $o2', 'bool')).toBe(true);
    expect(value('exists_{?o : obj} [?o == chosen ^ W(?o) > 2]', 'bool')).toBe(true);
  });
});

describe('control and aggregation', () => {
  it('evaluates if only along the taken branch', () => {
    expect(value('if (cnt > 1) then pos else 1 / 0')).toBe(1.5);
  });

  it('takes switch cases in order with default last', () => {
    expect(value('switch (mode) { case @off : 1, case @low : 2, default : 3 }', 'int')).toBe(2);
    expect(value('switch (mode) { default : 3, case @low : 2 }', 'int')).toBe(2);
  });

  it('aggregates with sum, prod, min and max', () => {
    expect(value('sum_{?o : obj} W(?o)')).toBe(4.5);
    expect(value('prod_{?o : obj} W(?o)')).toBe(2.5);
    expect(value('min_{?o : obj} W(?o)')).toBe(1);
    expect(value('max_{?o : obj} W(?o)')).toBe(2.5);
    expect(run('sum_{?o : obj, ?p : obj} [flag(?o) ^ flag(?p)]', 'int').out).toMatchObject({
      value: 4,
      valueType: 'int',
    });
  });

  it('gives a number for a sum over one object (rddlsim keeps the term with quirks on)', () => {
    expect(run('sum_{?u : one} single(?u)', 'real').out).toMatchObject({ value: 1, valueType: 'int' });
    expect(run('sum_{?u : one} single(?u)', 'real', { quirks: true }).out).toMatchObject({
      value: true,
      valueType: 'bool',
    });
  });

  it('reads defaults, actions and non-fluents', () => {
    expect(value('cnt.default', 'int')).toBe(2);
    expect(value('sum_{?o : obj} go(?o)', 'int', { actions: ['o1', 'o3'] })).toBe(2);
  });
});

describe('functions', () => {
  it.each([
    ['div[-7, 2]', 'int', -3],
    ['mod[-7, 2]', 'int', -1],
    ['abs[-3]', 'int', 3],
    ['sgn[-2.5]', 'real', -1],
    ['round[2.5]', 'int', 3],
    ['round[-2.5]', 'int', -2],
    ['floor[-1.5]', 'int', -2],
    ['ceil[1.2]', 'int', 2],
    ['pow[2, 10]', 'real', 1024],
    ['log[8, 2]', 'real', 3],
    ['sqrt[16]', 'real', 4],
    ['exp[0]', 'real', 1],
    ['ln[1]', 'real', 0],
    ['min[3, cnt]', 'int', 2],
    ['max[pos, 1]', 'real', 1.5],
    ['cos[0] + sin[0] + tan[0] + acos[1] + asin[0] + atan[0] + cosh[0] + sinh[0] + tanh[0]', 'real', 2],
  ])('%s', (expr, range, expected) => {
    expect(value(expr, range)).toBe(expected);
  });

  it('reports an integer division by zero with its location', () => {
    const { outcome } = run('div[cnt, cnt - 2]', 'int');
    expect(outcome).toMatchObject({ kind: 'error', message: 'integer division by zero (div[a, 0])' });
    expect(outcome.kind === 'error' && outcome.location).toMatchObject({ source: 'domain.rddl', line: 21 });
  });
});

describe('fluent kinds and step order', () => {
  it('computes interm fluents in dependency order, whatever the declaration order', () => {
    const extra = `\n    b(obj) : { interm-fluent, real };\n    a(obj) : { interm-fluent, real };`;
    const model = loadRddl(
      testSources({
        types: TYPES,
        pvariables: `${PVARIABLES}${extra}\n    out : { state-fluent, real, default = 0.0 };`,
        cpfs: `${CPFS}\n    b(?o) = a(?o) * 2;\n    a(?o) = W(?o) + 1;\n    out' = sum_{?o : obj} b(?o);`,
        instance: 'objects { obj : {o1, o2, o3}; one : {u}; };',
      }),
    );
    const simulator = model.createSimulator({ seed: 1 });
    simulator.step([]);
    expect(simulator.stateFluents().find((f) => f.name === 'out')!.value).toBe(12);
    expect(simulator.internalFluents().map((f) => `${f.name}(${f.args})=${f.value}`)).toEqual([
      'b(o1)=4',
      'b(o2)=4',
      'b(o3)=4',
      'a(o1)=2',
      'a(o2)=2',
      'a(o3)=2',
    ]);
  });

  it('recomputes derived fluents from the state after each step', () => {
    const model = loadRddl(
      testSources({
        types: TYPES,
        pvariables: `${PVARIABLES}\n    many : { derived-fluent, bool };`,
        cpfs: `${CPFS.replace("flag'(?o) = flag(?o);", "flag'(?o) = true;")}\n    many = (sum_{?o : obj} flag(?o)) > 2;`,
        reward: 'if (many) then 10 else 0',
        instance: 'objects { obj : {o1, o2, o3}; one : {u}; }; init-state { flag(o1); };',
      }),
    );
    const simulator = model.createSimulator({ seed: 1 });
    expect(simulator.internalFluents()[0]!.value).toBe(false);
    expect(simulator.step([])).toMatchObject({ reward: 0 });
    expect(simulator.internalFluents()[0]!.value).toBe(true);
    expect(simulator.step([])).toMatchObject({ reward: 10 });
  });

  it('computes observations from s, a and s′, and the reward over s, a and s′', () => {
    const model = loadRddl(
      testSources({
        types: TYPES,
        pvariables: `${PVARIABLES}\n    seen(obj) : { observ-fluent, bool };`,
        cpfs: `${CPFS.replace("flag'(?o) = flag(?o);", "flag'(?o) = go(?o);")}\n    seen(?o) = flag'(?o) ^ ~flag(?o);`,
        reward: "sum_{?o : obj} [flag'(?o) - flag(?o)]",
        instance: 'objects { obj : {o1, o2, o3}; one : {u}; }; init-state { flag(o1); };',
      }),
    );
    expect(model.info.partiallyObserved).toBe(true);
    const simulator = model.createSimulator({ seed: 1 });
    expect(simulator.observations()).toEqual([]);
    expect(simulator.step([{ name: 'go', args: ['o2'], value: true }])).toMatchObject({
      kind: 'ok',
      reward: 0,
    });
    expect(simulator.observations().map((f) => f.value)).toEqual([false, true, false]);
    simulator.reset();
    expect(simulator.observations()).toEqual([]);
  });

  it('ends the round by terminate-when, checked on the new state', () => {
    const model = loadRddl(
      testSources({
        types: TYPES,
        pvariables: PVARIABLES,
        cpfs: CPFS.replace("cnt' = cnt;", "cnt' = cnt + 1;"),
        instance: 'objects { obj : {o1, o2}; one : {u}; };',
        horizon: 'horizon = terminate-when (cnt >= 4);',
      }),
    );
    expect(model.info).toMatchObject({ terminateWhen: true, horizon: Infinity });
    const simulator = model.createSimulator({ seed: 1 });
    expect(simulator.step([])).toMatchObject({ terminated: false });
    expect(simulator.step([])).toMatchObject({ terminated: true });
  });

  it('keeps the written type of a value until a cpf assigns it', () => {
    const model = loadRddl(
      testSources({
        types: TYPES,
        pvariables: `${PVARIABLES}\n    x : { state-fluent, real, default = 0 };`,
        cpfs: `${CPFS}\n    x' = x + 0.5;`,
        instance: 'objects { obj : {o1, o2}; one : {u}; };',
      }),
    );
    const simulator = model.createSimulator({ seed: 1 });
    expect(simulator.stateFluents().find((f) => f.name === 'x')).toMatchObject({
      value: 0,
      valueType: 'int',
    });
    simulator.step([]);
    expect(simulator.stateFluents().find((f) => f.name === 'x')).toMatchObject({
      value: 0.5,
      valueType: 'real',
    });
  });
});
