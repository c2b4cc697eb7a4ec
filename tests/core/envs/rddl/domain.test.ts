import { describe, expect, it } from 'vitest';
import { checkRddl, loadRddl } from '../../../../src/core/envs/rddl';
import { expectLoadError, testSources, type TestDomain } from './fixtures';

const BASE = `    up(obj) : { state-fluent, bool, default = false };
    count : { state-fluent, int, default = 0 };
    mode : { state-fluent, md, default = @off };
    P(obj) : { non-fluent, real, default = 0.5 };
    fix(obj) : { action-fluent, bool, default = false };`;
const BASE_CPFS = `    up'(?o) = up(?o) | fix(?o);
    count' = count;
    mode' = mode;`;

function problem(parts: Partial<TestDomain>): {
  message: string;
  line: number;
  column: number;
  file?: string;
} {
  const error = expectLoadError(() =>
    loadRddl(
      testSources({
        types: 'obj : object; md : {@off, @on};',
        pvariables: BASE,
        cpfs: BASE_CPFS,
        ...parts,
      }),
    ),
  );
  return {
    message: error.message,
    line: error.location?.line ?? 0,
    column: error.location?.column ?? 0,
    file: error.location?.source,
  };
}

describe('semantic errors name the problem and its place', () => {
  it('unknown fluent, with a suggestion', () => {
    expect(problem({ reward: 'sum_{?o : obj} upp(?o)' })).toMatchObject({
      message: "unknown fluent 'upp' (did you mean up?)",
      file: 'domain.rddl',
      line: 15,
      column: 27,
    });
  });

  it("a name read as one because of '-'", () => {
    expect(problem({ reward: 'count-1' }).message).toContain("'count-1' is read as one name");
  });

  it('wrong arity', () => {
    expect(problem({ reward: 'up(?o, ?o)' }).message).toBe("'up' takes 1 argument, but 2 are given");
  });

  it('unknown enum value', () => {
    expect(problem({ cpfs: BASE_CPFS.replace('mode;', '@of;') }).message).toBe(
      'unknown enum value @of (did you mean @off?)',
    );
  });

  it('unknown variable', () => {
    expect(problem({ reward: 'sum_{?o : obj} up(?p)' }).message).toBe(
      'unknown variable ?p (did you mean ?o?)',
    );
  });

  it('argument of the wrong type', () => {
    expect(problem({ reward: 'sum_{?m : md} P(?m)' }).message).toBe(
      "argument 1 of 'P' is a obj, but ?m is a md",
    );
  });

  it('a state fluent without a cpf', () => {
    expect(problem({ cpfs: BASE_CPFS.replace("    count' = count;\n", '') })).toMatchObject({
      message: "state-fluent 'count' has no cpf (add count' = ...; to cpfs)",
      line: 5,
      column: 5,
    });
  });

  it('a cpf for an unprimed state fluent', () => {
    expect(problem({ cpfs: BASE_CPFS.replace("count' =", 'count =') }).message).toContain(
      "a state fluent's cpf defines its next value: write count'",
    );
  });

  it('comparing an enum with a number', () => {
    expect(problem({ reward: 'if (mode == 1) then 1 else 0' }).message).toBe(
      'cannot compare md with int: enum and object values only compare with each other',
    );
  });

  it('logic on numbers', () => {
    expect(problem({ reward: 'if (count ^ true) then 1 else 0' }).message).toBe(
      '^ needs booleans, but this is int',
    );
  });

  it('KronDelta of a real and DiracDelta of an int', () => {
    expect(problem({ cpfs: BASE_CPFS.replace('count;', 'KronDelta(1.5);') }).message).toBe(
      'KronDelta takes an int, bool or enum value, not real (use DiracDelta for reals)',
    );
    expect(problem({ reward: 'DiracDelta(count)' }).message).toContain(
      'DiracDelta takes a real value, not int',
    );
  });

  it('an unknown function or aggregation', () => {
    expect(problem({ reward: 'sqr[count]' }).message).toBe("unknown function 'sqr' (did you mean sqrt?)");
    expect(problem({ reward: 'mean_{?o : obj} P(?o)' }).message).toBe(
      "unknown aggregation 'mean' (use sum, prod, min or max, or pyRDDLGym's avg, argmin, argmax and det)",
    );
  });

  it('two names for one fluent', () => {
    expect(
      problem({ pvariables: `${BASE}\n    FIX(obj) : { action-fluent, bool, default = false };` }).message,
    ).toBe("'FIX' and 'fix' name the same pvariable (names ignore case and read - as _)");
  });

  it('reading next-state values or interm fluents too early', () => {
    expect(problem({ sections: "  action-preconditions { forall_{?o : obj} up'(?o); };" }).message).toBe(
      "next-state values (up') are not known yet in an action precondition",
    );
  });

  it('a default that does not fit the range', () => {
    expect(problem({ pvariables: BASE.replace('default = @off', 'default = @high') }).message).toBe(
      '@high is not a value of md (@off, @on)',
    );
    expect(problem({ pvariables: BASE.replace('int, default = 0', 'int, default = 0.5') }).message).toBe(
      "the default of 'count' must be an integer, but 0.5 was given",
    );
  });

  it('a cycle among interm fluents', () => {
    expect(
      problem({
        pvariables: `${BASE}\n    a(obj) : { interm-fluent, bool };\n    b(obj) : { interm-fluent, bool };`,
        cpfs: `${BASE_CPFS}\n    a(?o) = b(?o);\n    b(?o) = ~a(?o);`,
      }).message,
    ).toBe('these fluents depend on each other in a cycle: a(o1) -> b(o1) -> a(o1)');
  });
});

describe('instance errors', () => {
  it('an unknown object in init-state', () => {
    expect(problem({ instance: 'objects { obj : {o1, o2}; }; init-state { up(o3); };' })).toMatchObject({
      message: "'o3' is not an object of type obj (o1, o2) (did you mean o1?)",
      file: 'instance.rddl',
      line: 3,
    });
  });

  it('init-state setting a non-fluent', () => {
    expect(problem({ instance: 'objects { obj : {o1}; }; init-state { P(o1) = 0.3; };' }).message).toBe(
      "init-state can only set state-fluents, and 'P' is a non-fluent",
    );
  });

  it('a type without objects', () => {
    expect(problem({ instance: '' }).message).toContain(
      "type 'obj' has no objects, so 'up' has no groundings",
    );
  });

  it('an object listed twice and objects of an unknown type', () => {
    expect(problem({ instance: 'objects { obj : {o1, o1}; };' }).message).toBe("object 'o1' is listed twice");
    expect(problem({ instance: 'objects { obj : {o1}; ob : {x}; };' }).message).toBe(
      "objects for unknown type 'ob' (did you mean obj?)",
    );
  });
});

describe('sizes', () => {
  it('refuses an instance with too many groundings, naming the fluent', () => {
    const objects = Array.from({ length: 200 }, (_, i) => `o${i}`).join(', ');
    const error = expectLoadError(() =>
      loadRddl(
        testSources({
          pvariables: '    big(obj, obj, obj) : { state-fluent, bool, default = false };',
          cpfs: "    big'(?a, ?b, ?c) = big(?a, ?b, ?c);",
          instance: `objects { obj : {${objects}}; };`,
        }),
      ),
    );
    expect(error.message).toBe(
      "this instance is too big to simulate: 'big' alone has 8,000,000 groundings (the limit is 5,000,000 in total)",
    );
  });

  it('refuses a quantifier too large to unroll, with its location', () => {
    const objects = Array.from({ length: 300 }, (_, i) => `o${i}`).join(', ');
    const error = expectLoadError(() =>
      loadRddl(
        testSources({
          pvariables: '    x : { state-fluent, int, default = 0 };',
          cpfs: "    x' = sum_{?a : obj, ?b : obj, ?c : obj} 1;",
          instance: `objects { obj : {${objects}}; };`,
        }),
      ),
    );
    expect(error.message).toBe('too big to simulate: this ranges over 27,000,000 combinations of ?a, ?b, ?c');
    expect(error.location).toMatchObject({ line: 7 });
  });
});

describe('object-valued defaults', () => {
  it('must name an object of the instance', () => {
    expect(
      problem({
        pvariables: `${BASE}\n    target : { state-fluent, obj, default = o9 };`,
        cpfs: `${BASE_CPFS}\n    target' = target;`,
      }).message,
    ).toBe("'o9' is not an object of type obj (did you mean o1?)");
  });
});

describe('checkRddl', () => {
  it('reports every problem at once, each once', () => {
    const sources = testSources({
      types: 'obj : object; md : {@off, @on};',
      pvariables: BASE,
      cpfs: BASE_CPFS,
      reward: 'upp + cont',
    });
    const messages = checkRddl(sources).map((d) => d.message);
    expect(messages).toEqual([
      "unknown fluent 'upp' (did you mean up?)",
      "unknown fluent 'cont' (did you mean count?)",
    ]);
  });
});
