import { describe, expect, it } from 'vitest';
import { NETWORK_ADMIN } from '../../../../../src/core/envs/rddl/examples/network-admin';
import { exampleSources } from '../../../../../src/core/envs/rddl/examples';
import {
  completionsAt,
  diagnose,
  foldingRanges,
  hoverAt,
  RDDL_KEYWORDS,
  RDDL_MONARCH,
} from '../../../../../src/core/envs/rddl/language';

const sources = exampleSources(NETWORK_ADMIN);
const DOMAIN = 'network_admin.rddl';
const lines = NETWORK_ADMIN.domain.split('\n');

/** Position of the first occurrence of `needle` on a line containing `lineHint`, plus an offset. */
function at(lineHint: string, needle: string, offset = 0): { line: number; column: number } {
  const line = lines.findIndex((l) => l.includes(lineHint) && l.includes(needle));
  if (line < 0) throw new Error(`no line with ${lineHint}`);
  return { line: line + 1, column: lines[line]!.indexOf(needle) + 1 + offset };
}

/** The texts with `insert` typed at the position. */
function typed(position: { line: number; column: number }, insert: string) {
  const edited = [...lines];
  const l = edited[position.line - 1]!;
  edited[position.line - 1] = l.slice(0, position.column - 1) + insert + l.slice(position.column - 1);
  return {
    sources: [{ name: DOMAIN, text: edited.join('\n') }, sources[1]!],
    position: { line: position.line, column: position.column + insert.length },
  };
}

describe('completion', () => {
  it('offers fluents, primed state fluents, functions and distributions in a cpf', () => {
    const { sources: edited, position } = typed(at("running'(?c) =", "running'(?c) ="), 'reb');
    const result = completionsAt(edited, DOMAIN, position);
    const labels = result.items.map((i) => i.label);
    expect(labels).toEqual(
      expect.arrayContaining(['reboot', 'running', "running'", 'LINK', 'Bernoulli', 'abs', 'if']),
    );
    expect(result.replaceFrom.column).toBe(position.column - 3);
    const reboot = result.items.find((i) => i.label === 'reboot')!;
    expect(reboot).toMatchObject({ kind: 'fluent', detail: 'action-fluent bool (computer)' });
    expect(reboot.documentation).toContain('The action: reboot a computer.');
  });

  it('offers the variables in scope after ?', () => {
    const { sources: edited, position } = typed(at('SPREAD * [sum_{?d', 'LINK(?d'), '?');
    const labels = completionsAt(edited, DOMAIN, position).items.map((i) => `${i.label}:${i.detail}`);
    expect(labels).toEqual(expect.arrayContaining(['?c:computer', '?d:computer']));
  });

  it('offers types after ?x :', () => {
    const position = at('SPREAD * [sum_{?d', 'computer');
    const labels = completionsAt(sources, DOMAIN, position).items.map((i) => i.label);
    expect(labels).toEqual(['computer']);
  });

  it('offers objects after $ and enum values after @', () => {
    const { sources: edited, position } = typed(at('reward =', 'reward = ', 9), '$');
    expect(completionsAt(edited, DOMAIN, position).items.map((i) => i.label)).toContain('$server');
  });

  it('offers fluent kinds and range types in declarations', () => {
    const kinds = typed(at('running(computer) :', '{ state-fluent', 1), '');
    expect(completionsAt(kinds.sources, DOMAIN, kinds.position).items.map((i) => i.label)).toContain(
      'observ-fluent',
    );
    const ranges = typed(at('running(computer) :', ' bool,'), '');
    expect(completionsAt(ranges.sources, DOMAIN, ranges.position).items.map((i) => i.label)).toEqual([
      'computer',
      'bool',
      'int',
      'real',
    ]);
  });

  it('offers block templates outside blocks', () => {
    const text = '\n';
    const result = completionsAt([{ name: 'new.rddl', text }], 'new.rddl', { line: 1, column: 1 });
    expect(result.items.map((i) => i.label)).toEqual(['domain', 'non-fluents', 'instance']);
  });

  it('offers non-fluents in a non-fluents list and objects as arguments', () => {
    const instance = sources[1]!.text.split('\n');
    const line = instance.findIndex((l) => l.includes('LINK(server, printer)')) + 1;
    const list = completionsAt(sources, 'network_admin_inst.rddl', { line, column: 5 });
    expect(list.items.map((i) => i.label)).toEqual(['LINK', 'BASE-FAILURE', 'SPREAD', 'REBOOT-COST']);
    const args = completionsAt(sources, 'network_admin_inst.rddl', { line, column: 10 });
    expect(args.items.map((i) => i.label)).toContain('printer');
  });
});

describe('hover', () => {
  it("shows a fluent's declaration and its comment", () => {
    const hover = hoverAt(sources, DOMAIN, at('reward =', 'running', 2))!;
    expect(hover.contents[0]).toBe(
      '```rddl\nrunning(computer) : { state-fluent, bool, default = true };\n```',
    );
    expect(hover.contents[1]).toContain('a state fluent');
    expect(hover.contents[2]).toBe('The state: which computers are running.');
  });

  it('explains primed fluents, types, variables and distributions', () => {
    expect(hoverAt(sources, DOMAIN, at("running'(?c) =", "running'"))!.contents[1]).toContain('primed');
    expect(hoverAt(sources, DOMAIN, at('SPREAD * [sum_{?d', 'computer'))!.contents).toEqual([
      '```rddl\ncomputer : object;\n```',
      'values: server, desk1, desk2, desk3, desk4, laptop1, laptop2, printer',
    ]);
    expect(hoverAt(sources, DOMAIN, at('SPREAD * [sum_{?d', '?d'))!.contents[0]).toBe(
      '```rddl\n?d : computer\n```',
    );
    expect(hoverAt(sources, DOMAIN, at('else Bernoulli', 'Bernoulli'))!.contents).toEqual([
      '```rddl\nBernoulli(p)\n```',
      'true with probability p (p must be in [0, 1])',
    ]);
  });

  it("explains pyRDDLGym's distributions and argmax, except where a fluent has the name", () => {
    const text = `domain g {
  types { obj : object; };
  pvariables {
    Beta(obj) : { non-fluent, real, default = 0.5 };
    x : { state-fluent, real, default = 0.0 };
    best : { state-fluent, obj, default = $o1 };
  };
  cpfs {
    x' = Gumbel(0, 1) + Beta($o1);
    best' = argmax_{?o : obj} Beta(?o);
  };
  reward = x;
}
`;
    const own = [{ name: 'g.rddl', text }];
    const position = (line: number, needle: string) => ({
      line,
      column: text.split('\n')[line - 1]!.indexOf(needle) + 1,
    });
    expect(hoverAt(own, 'g.rddl', position(9, 'Gumbel'))!.contents).toEqual([
      '```rddl\nGumbel(location, scale)\n```',
      'a real (pyRDDLGym; not in rddlsim)',
    ]);
    expect(hoverAt(own, 'g.rddl', position(9, 'Beta'))!.contents[0]).toBe(
      '```rddl\nBeta(obj) : { non-fluent, real, default = 0.5 };\n```',
    );
    expect(hoverAt(own, 'g.rddl', position(10, 'argmax'))!.contents[1]).toMatch(
      /^the value of the one variable whose body is largest/,
    );
  });

  it("explains pyRDDLGym's Discrete_{?v : t} and UnnormDiscrete forms", () => {
    const text = `domain u {
  types { color : {@red, @blue}; };
  pvariables {
    W(color) : { non-fluent, real, default = 1.0 };
    c : { state-fluent, color, default = @red };
    d : { state-fluent, color, default = @red };
  };
  cpfs {
    c' = UnnormDiscrete_{?v : color} W(?v);
    d' = Discrete_{?v : color} (0.5);
  };
  reward = 0;
}
`;
    const own = [{ name: 'u.rddl', text }];
    const position = (line: number, needle: string) => ({
      line,
      column: text.split('\n')[line - 1]!.indexOf(needle) + 1,
    });
    const unnorm = hoverAt(own, 'u.rddl', position(9, 'UnnormDiscrete'))!.contents;
    expect(unnorm[0]).toBe(
      '```rddl\nUnnormDiscrete(type, @v1 : w1, ...)  or  UnnormDiscrete_{?v : type} w(?v)\n```',
    );
    expect(unnorm[1]).toMatch(/probability weight \/ sum of the weights/);
    expect(hoverAt(own, 'u.rddl', position(10, 'Discrete'))!.contents[0]).toContain(
      'Discrete_{?v : type} p(?v)',
    );
    expect(hoverAt(own, 'u.rddl', position(9, '?v'))!.contents[0]).toBe('```rddl\n?v : color\n```');
  });

  it("explains and offers pyRDDLGym's multivariate draws and matrix operations", () => {
    const text = `domain m {
  types { dim : {@x, @y}; };
  pvariables {
    MU(dim) : { non-fluent, real, default = 0.0 };
    C(dim, dim) : { non-fluent, real, default = 1.0 };
    v(dim) : { state-fluent, real, default = 0.0 };
    inv(dim, dim) : { state-fluent, real, default = 0.0 };
    d : { state-fluent, real, default = 0.0 };
  };
  cpfs {
    v'(?d) = MultivariateNormal[?d](MU(_), C(_, _));
    inv'(?r, ?c) = pinverse[row=?r, col=?c][C(?r, ?c)];
    d' = det_{?r : dim, ?c : dim} C(?r, ?c);
  };
  reward = 0;
}
`;
    const own = [{ name: 'm.rddl', text }];
    const position = (line: number, needle: string) => ({
      line,
      column: text.split('\n')[line - 1]!.indexOf(needle) + 1,
    });
    expect(hoverAt(own, 'm.rddl', position(11, 'MultivariateNormal'))!.contents[0]).toBe(
      '```rddl\nMultivariateNormal[?v](mean(_), cov(_, _))\n```',
    );
    expect(hoverAt(own, 'm.rddl', position(12, 'pinverse'))!.contents[1]).toMatch(/Moore–Penrose/);
    expect(hoverAt(own, 'm.rddl', position(13, 'det'))!.contents[1]).toMatch(/^det_\{\?r : t1, \?c : t2\}/);
    const items = completionsAt(own, 'm.rddl', { line: 13, column: 10 }).items;
    const byLabel = (label: string) => items.find((i) => i.label === label);
    expect(byLabel('MultivariateStudent')?.insertText).toBe(
      'MultivariateStudent[?${1:v}](${2:mean}(_), ${3:sigma}(_, _), ${4:df})',
    );
    expect(byLabel('cholesky')?.insertText).toBe('cholesky[row=?${1:r}, col=?${2:c}][$0]');
    expect(byLabel('inverse')?.detail).toBe('inverse[row=?r, col=?c][M(?r, ?c)]');
    expect(byLabel('det_')?.kind).toBe('keyword');
  });

  it('returns nothing on punctuation', () => {
    expect(hoverAt(sources, DOMAIN, at('reward =', '='))).toBeUndefined();
  });
});

describe('folding', () => {
  it('folds multi-line braces and comment runs', () => {
    const ranges = foldingRanges('// a\n// b\ndomain d {\n  types {\n    t : object;\n  };\n}\n');
    expect(ranges).toEqual([
      { startLine: 1, endLine: 2, kind: 'comment' },
      { startLine: 3, endLine: 7 },
      { startLine: 4, endLine: 6 },
    ]);
  });
});

describe('highlighting data and diagnostics', () => {
  it('lists keywords but not distributions as keywords', () => {
    expect(RDDL_KEYWORDS).toContain('state-fluent');
    expect(RDDL_KEYWORDS).not.toContain('Bernoulli');
    expect(RDDL_MONARCH.distributions).toContain('Normal');
    const identifier = RDDL_MONARCH.tokenizer.root!.find(([, action]) => typeof action === 'object')![0];
    expect("REBOOT-PROB running'".match(new RegExp(identifier.source, 'g'))).toEqual([
      'REBOOT-PROB',
      "running'",
    ]);
  });

  it('reports problems as the user types', () => {
    const { sources: edited } = typed(at('reward =', 'reward = ', 9), 'runing + ');
    expect(diagnose(edited).map((d) => d.message)).toEqual([
      "unknown fluent 'runing' (did you mean running?)",
    ]);
  });
});
