import { describe, expect, it } from 'vitest';
import type {
  ArgTerm,
  DomainBlock,
  Expr,
  InstanceBlock,
  NonFluentsBlock,
} from '../../../../src/core/envs/rddl/ast';
import { parseRddlText } from '../../../../src/core/envs/rddl/parser';

/** Prints an expression as an s-expression, to compare tree shapes with rddlsim's precedence table. */
function show(e: Expr | ArgTerm): string {
  switch (e.kind) {
    case 'expr':
      return show(e.expr);
    case 'variable':
      return e.name;
    case 'enum':
      return e.value;
    case 'object':
      return `$${e.name}`;
    case 'bool':
    case 'number':
      return String(e.value);
    case 'pvar': {
      const name = `${e.name}${e.primed ? "'" : ''}`;
      const args = e.args.length ? `(${e.args.map(show).join(' ')})` : '';
      const members = (e.members ?? []).map((m) => `.${show(m)}`).join('');
      return `${name}${args}${members}${e.isDefault ? '.default' : ''}`;
    }
    case 'unary':
      return `(${e.op} ${show(e.operand)})`;
    case 'binary':
      return `(${e.op} ${show(e.left)} ${show(e.right)})`;
    case 'quantifier':
    case 'aggregation': {
      const head = e.kind === 'quantifier' ? e.quantifier : e.op;
      return `(${head} [${e.variables.map((v) => `${v.name}:${v.type}`).join(' ')}] ${show(e.body)})`;
    }
    case 'if':
      return `(if ${show(e.condition)} ${show(e.then)} ${show(e.else)})`;
    case 'switch':
      return `(switch ${show(e.subject)} ${e.cases.map((c) => `[${c.value ? show(c.value) : 'default'} ${show(c.body)}]`).join(' ')})`;
    case 'call':
      return `(${e.name}[] ${e.args.map(show).join(' ')})`;
    case 'distribution': {
      const cases = (e.cases ?? []).map(
        (c) => `[${show(c.label)} ${c.probability ? show(c.probability) : 'otherwise'}]`,
      );
      return `(${e.name}${e.typeName ? ` ${e.typeName}` : ''} ${[...e.args.map(show), ...cases].join(' ')})`;
    }
    case 'struct':
      return `<${e.members.map((m) => `${show(m.label)}:${show(m.value)}`).join(' ')}>`;
  }
}

function parseExpr(text: string): string {
  const source = `domain d { reward = ${text}\n; }`;
  const parsed = parseRddlText({ name: 'e.rddl', text: source });
  expect(parsed.diagnostics).toEqual([]);
  return show((parsed.file.blocks[0] as DomainBlock).reward!);
}

function firstError(text: string) {
  const parsed = parseRddlText({ name: 'e.rddl', text });
  const error = parsed.diagnostics.find((d) => d.severity === 'error');
  expect(error).toBeDefined();
  return { message: error!.message, line: error!.location.line, column: error!.location.column };
}

describe('expressions follow rddlsim precedence', () => {
  it.each([
    ['a + b * c', '(+ a (* b c))'],
    ['a - b - c', '(- (- a b) c)'],
    ['a + b == 1', '(== (+ a b) 1)'],
    ['a < b < c', '(< (< a b) c)'],
    ['~a ^ b', '(^ (~ a) b)'],
    ['~a == b', '(== (~ a) b)'],
    ['-x * y', '(* (- x) y)'],
    ['+x', 'x'],
    ['a ^ b | c', '(| (^ a b) c)'],
    ['a & b', '(^ a b)'],
    ['a | b => c', '(=> (| a b) c)'],
    ['a => b <=> c', '(<=> (=> a b) c)'],
    ['a => b => c', '(=> (=> a b) c)'],
    ['sum_{?x : t} a + b', '(sum [?x:t] (+ a b))'],
    ['sum_{?x : t, ?y : u} f(?x, ?y) >= 2', '(sum [?x:t ?y:u] (>= f(?x ?y) 2))'],
    ['[sum_{?x : t} a] + b', '(+ (sum [?x:t] a) b)'],
    ['if (c) then x else y + 1', '(if c x (+ y 1))'],
    ['a ^ forall_{?x : t} b ^ c', '(^ a (forall [?x:t] (^ b c)))'],
    ['exists_{?x : t} p(?x) | q', '(exists [?x:t] (| p(?x) q))'],
    ['-sum_{?x : t} x + 1', '(- (sum [?x:t] (+ x 1)))'],
    ['(a + b) * c', '(* (+ a b) c)'],
    ['.45 + 3', '(+ 0.45 3)'],
  ])('%s', (text, expected) => {
    expect(parseExpr(text)).toBe(expected);
  });

  it('reads every kind of atom', () => {
    expect(parseExpr("p'(?x, @a, $o, q(?y))")).toBe("p'(?x @a $o q(?y))");
    expect(parseExpr('P.default')).toBe('P.default');
    expect(parseExpr('v(?x).@m.$o.(q(?x))')).toBe('v(?x).@m.$o.q(?x)');
    expect(parseExpr('max[abs[x], 2] + log[a, b]')).toBe('(+ (max[] (abs[] x) 2) (log[] a b))');
    expect(parseExpr('<@a : 1 + 2, @b : 3>')).toBe('<@a:(+ 1 2) @b:3>');
    expect(parseExpr("running-x'")).toBe("running-x'");
  });

  it('reads switch, if chains and all distributions', () => {
    expect(parseExpr('switch (c) { case @a : 1, case $o : 2, default : 3 }')).toBe(
      '(switch c [@a 1] [$o 2] [default 3])',
    );
    expect(parseExpr('if (a) then 1 else if (b) then 2 else 3')).toBe('(if a 1 (if b 2 3))');
    expect(parseExpr('Bernoulli(.5) + Normal(0, 1) + Uniform(0, 1) + Exponential(2) + Poisson(3)')).toBe(
      '(+ (+ (+ (+ (Bernoulli 0.5) (Normal 0 1)) (Uniform 0 1)) (Exponential 2)) (Poisson 3))',
    );
    expect(parseExpr('Weibull(1, 2) * Gamma(2, 3) * KronDelta(1) * DiracDelta(1.0)')).toBe(
      '(* (* (* (Weibull 1 2) (Gamma 2 3)) (KronDelta 1)) (DiracDelta 1))',
    );
    expect(parseExpr('Discrete(lvl, @low : 0.3, @high : otherwise)')).toBe(
      '(Discrete lvl [@low 0.3] [@high otherwise])',
    );
    expect(parseExpr('Multinomial(lvl, 5, @low : 0.5, @high : 0.5)')).toBe(
      '(Multinomial lvl 5 [@low 0.5] [@high 0.5])',
    );
    expect(parseExpr('Dirichlet(lvl, 2.0)')).toBe('(Dirichlet lvl 2)');
  });
});

describe('blocks', () => {
  it('reads a domain with every section, in any order and repeated', () => {
    const text = `domain d {
      requirements { concurrent, partially-observed };
      types { o : object; c : o; e : {@a, @b}; r : {@1 .. @5}; v : [e] <? : real>; s : <@x : real, @y : int>; };
      pvariables {
        K(o) : { non-fluent, real, default = -1.5 };
        x(o) : { state-fluent, int, default = 0 };
        m : { interm-fluent, bool, level = 1 };
        g : { derived-fluent, bool };
        w : { observ-fluent, e };
        go : { action-fluent, bool, default = false };
      };
      cdfs { x'(?o) = x(?o) + 1; };
      reward = 0;
      action-preconditions { go => true; };
      state-action-constraints { };
      state-invariants { forall_{?o : o} x(?o) >= 0; };
      objects { o : {p1, $p2}; };
      pvariables { late : { state-fluent, bool, default = true }; };
    }`;
    const parsed = parseRddlText({ name: 'd.rddl', text });
    expect(parsed.diagnostics).toEqual([]);
    const domain = parsed.file.blocks[0] as DomainBlock;
    expect(domain.requirements.map((r) => r.name)).toEqual(['concurrent', 'partially-observed']);
    expect(domain.types.map((t) => t.kind)).toEqual([
      'object',
      'object',
      'enum',
      'enum-range',
      'struct',
      'struct',
    ]);
    expect(domain.types[3]).toMatchObject({ from: 1, to: 5 });
    expect(domain.pvariables.map((p) => p.kind)).toEqual([
      'non-fluent',
      'state-fluent',
      'interm-fluent',
      'derived-fluent',
      'observ-fluent',
      'action-fluent',
      'state-fluent',
    ]);
    expect(domain.pvariables[0]!.default).toEqual({ kind: 'real', value: -1.5 });
    expect(domain.pvariables[2]!.level).toBe(1);
    // rddlsim's grammar appends each section's declarations after those of later sections.
    expect(domain.pvariableInsertionOrder.map((p) => p.name)).toEqual([
      'late',
      'K',
      'x',
      'm',
      'g',
      'w',
      'go',
    ]);
    expect(domain.cpfsKeyword).toBe('cdfs');
    expect(domain.objects[0]!.objects.map((o) => o.name)).toEqual(['p1', 'p2']);
    expect(domain.stateInvariants).toHaveLength(1);
  });

  it('reads both non-fluents forms and every instance form', () => {
    const text = `
      non-fluents nf1 { domain = d; objects { o : {a}; }; non-fluents { K(a) = 2.0; ~F; G(a); }; }
      non-fluents nf2 { domain = d; non-fluents K(a) = 1; ; }
      instance i1 { domain = d; non-fluents = nf1; init-state { x(a) = 3; }; max-nondef-actions = pos-inf; horizon = pos-inf; discount = 0.9; }
      instance i2 { domain = d; horizon = terminate-when (x(a) > 2); discount = 1.0; }
      instance i3 { domain = d; objects { o : {a}; }; non-fluents { K(a) = 1.0; }; init-state { go; }; terminal = x(a) > 2; discount = 1.0; }
      instance i4 { domain = d; max-nondef-actions = 2; horizon = 7; discount = 1.0; }
    `;
    const parsed = parseRddlText({ name: 'i.rddl', text });
    expect(parsed.diagnostics).toEqual([]);
    const [nf1, nf2, i1, i2, i3, i4] = parsed.file.blocks as [
      NonFluentsBlock,
      NonFluentsBlock,
      InstanceBlock,
      InstanceBlock,
      InstanceBlock,
      InstanceBlock,
    ];
    expect(nf1.assignments.map((a) => [a.name, a.value])).toEqual([
      ['K', { kind: 'real', value: 2 }],
      ['F', { kind: 'bool', value: false }],
      ['G', { kind: 'bool', value: true }],
    ]);
    expect(nf2.assignments).toHaveLength(1);
    expect(i1).toMatchObject({
      nonFluents: 'nf1',
      maxNondefActions: 'pos-inf',
      horizon: { kind: 'pos-inf' },
      discount: 0.9,
    });
    expect(i2.horizon.kind).toBe('terminate-when');
    expect(i3.horizon.kind).toBe('terminal');
    expect(i3.nonFluentAssignments).toHaveLength(1);
    expect(i4).toMatchObject({ maxNondefActions: 2, horizon: { kind: 'steps', steps: 7 } });
  });

  it('accepts an integer discount but warns that rddlsim does not', () => {
    const parsed = parseRddlText({
      name: 'i.rddl',
      text: 'instance i { domain = d; horizon = 2; discount = 1; }',
    });
    expect(parsed.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: 'rddlsim requires a real number here: write 1.0',
      }),
    ]);
  });

  it("reads pyRDDLGym's non-fluents block without its non-fluents section, warning that rddlsim does not", () => {
    const parsed = parseRddlText({
      name: 'nf.rddl',
      text: [
        'non-fluents bare { domain = d; }',
        'non-fluents listed { domain = d; objects { cell : { c1, c2 }; }; }',
        'non-fluents full { domain = d; non-fluents { K = 2.0; }; }',
      ].join('\n'),
    });
    const [bare, listed, full] = parsed.file.blocks as NonFluentsBlock[];
    expect(bare).toMatchObject({
      kind: 'non-fluents',
      name: 'bare',
      domain: 'd',
      objects: [],
      assignments: [],
    });
    expect(listed!.objects.map((o) => o.objects.map((x) => x.name))).toEqual([['c1', 'c2']]);
    expect(listed!.assignments).toEqual([]);
    expect(full!.assignments).toHaveLength(1);
    const message =
      "rddlsim requires a 'non-fluents { ... };' section here, with at least one value (pyRDDLGym reads the block without it)";
    // Each warning at the closing brace of its block; the complete block gets none.
    expect(parsed.diagnostics).toEqual([
      { severity: 'warning', message, location: expect.objectContaining({ line: 1, column: 32 }) },
      { severity: 'warning', message, location: expect.objectContaining({ line: 2, column: 66 }) },
    ]);
  });
});

describe('lexical rules', () => {
  it('keeps - and a final prime in names, and skips // comments', () => {
    expect(parseExpr("REBOOT-PROB + running'(?c-1) // comment")).toBe("(+ REBOOT-PROB running'(?c-1))");
  });

  it('refuses reserved words as names', () => {
    expect(firstError('domain d { types { level : object; }; }')).toMatchObject({
      line: 1,
      column: 20,
      message: "expected '}' but found 'level' ('level' is a reserved word and cannot be used as a name)",
    });
  });

  it('explains block comments and exponents instead of failing obscurely', () => {
    expect(firstError('/* no */ domain d { reward = 0; }').message).toBe(
      'RDDL has only // line comments (rddlsim cannot read /* ... */)',
    );
    expect(firstError('domain d { reward = 1e3; }')).toMatchObject({
      column: 21,
      message: 'RDDL has no exponent notation: write 1e3 as a plain number (e.g. 1000.0)',
    });
    expect(firstError('domain d { reward = !a; }').message).toBe("unexpected '!': RDDL writes negation as ~");
  });
});

describe('syntax errors', () => {
  it('lists what may begin a required list: a pvariable argument', () => {
    expect(firstError('domain d { reward = SIZE(2.5); }')).toMatchObject({
      column: 26,
      message:
        "expected at least one of 'Discrete', a name, a variable (?x), an enum value (@v), '$' or '_' but found '2.5'",
    });
  });

  it("reads pyRDDLGym's argmax_, argmin_, Discrete_ and UnnormDiscrete_ as a pvariable's argument", () => {
    const parsed = parseRddlText({
      name: 'e.rddl',
      text: 'domain d { reward = F(Discrete_{?i : t} [P(?i)], argmax_{?o : t} W(?o), ?x) + G(UnnormDiscrete_{?i : t} P(?i)); }',
    });
    expect(parsed.diagnostics).toEqual([]);
    const reward = (parsed.file.blocks[0] as DomainBlock).reward as Extract<Expr, { kind: 'binary' }>;
    const f = reward.left as Extract<Expr, { kind: 'pvar' }>;
    expect(f.args.map((a) => (a.kind === 'expr' ? `expr ${a.expr.kind}` : a.kind))).toEqual([
      'expr distribution',
      'expr aggregation',
      'variable',
    ]);
    expect((reward.right as Extract<Expr, { kind: 'pvar' }>).args[0]!.kind).toBe('expr');
    // A fluent that happens to be named argmax is still read as the fluent.
    const named = parseRddlText({
      name: 'n.rddl',
      text: 'domain d { pvariables { argmax : { non-fluent, real, default = 1.0 }; }; reward = argmax; }',
    });
    expect(named.diagnostics).toEqual([]);
  });

  it('points where a missing semicolon belongs', () => {
    expect(firstError('domain d {\n  reward = a + b\n}')).toMatchObject({
      line: 2,
      column: 17,
      message: "expected ';' but found '}'",
    });
  });

  it('says what was expected at the end of the text', () => {
    expect(firstError('domain d { reward = (a + b')).toMatchObject({
      line: 1,
      column: 27,
      message: "expected ')' but found the end of the text",
    });
  });

  it('lists the alternatives when several fit', () => {
    const error = firstError('domain d { reward = a + ; }');
    expect(error.message).toMatch(/^expected .*a variable.*but found ';'$/);
    expect(error.column).toBe(25);
  });

  it('reports an unknown block keyword', () => {
    expect(firstError('domian d { }')).toMatchObject({
      line: 1,
      column: 1,
      message: "expected 'domain', 'non-fluents' or 'instance' but found 'domian'",
    });
  });

  it('recovers and keeps the blocks it could read', () => {
    const parsed = parseRddlText({
      name: 'x.rddl',
      text: 'domain d { reward = ; }\ninstance i { domain = d; horizon = 2; discount = 1.0; }',
    });
    expect(parsed.diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThan(0);
    expect(parsed.file.blocks.map((b) => b.kind)).toContain('instance');
  });

  it('never overflows on deep nesting', () => {
    const deep = `domain d { reward = ${'('.repeat(20000)}1${')'.repeat(20000)}; }`;
    const parsed = parseRddlText({ name: 'deep.rddl', text: deep });
    expect(parsed.diagnostics[0]!.message).toContain('nested too deeply');
  });
});
