/**
 * What rddlsim's simulator runs although the types do not fit (it checks no types): an int fluent holding
 * objects used as an argument, an int interm fluent given a real, a cpf head with fewer parameters than its
 * fluent, and a non-fluent set under a misspelt enum value. By default each is a located error that says
 * rddlsim runs it; under rddlsim's semantics each loads with a located warning and runs as rddlsim does.
 * The domain's round reward, 23.5 on every seed, was measured on rddlsim's own simulator.
 */
import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../../src/core/errors';
import { checkRddl, loadRddl } from '../../../../src/core/envs/rddl';
import { RELAY_ACC_RDDL } from './fixtures';

const text = RELAY_ACC_RDDL;
const sources = [{ name: 'relay_acc.rddl', text }];

describe('constructs rddlsim runs although their types do not fit', () => {
  it('are located errors by default, each saying that rddlsim and --semantics rddlsim run it', () => {
    const problems = checkRddl(sources).filter((d) => d.severity === 'error');
    const at = (line: number) => problems.filter((d) => d.location.line === line);
    expect(at(8)[0]?.message).toMatch(/default of 'NEXT' must be an integer, but the object c1 was given/);
    expect(at(17).map((d) => d.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/argument 1 of 'W' must be a cell, but 'NEXT' gives int/),
        expect.stringMatching(/'half' is int, but its cpf gives real/),
      ]),
    );
    expect(at(19)[0]?.message).toMatch(/'noise' takes 1 parameter, but its cpf has 0/);
    expect(problems).toHaveLength(5);
    for (const problem of problems) expect(problem.message).toContain('--semantics rddlsim');
    let thrown: unknown;
    try {
      loadRddl(sources);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProtoplayError);
    expect((thrown as ProtoplayError).format()).toMatch(/^relay_acc\.rddl:8:\d+: .*--semantics rddlsim/);
  });

  it('report a misspelt enum value among non-fluent arguments by default, saying rddlsim runs it', () => {
    // The same texts with a domain the checker accepts, so that the instance is grounded.
    const typed = text
      .replace('int, default = c1', 'cell, default = c1')
      .replace('{ interm-fluent, int,', '{ interm-fluent, real,')
      .replace("noise' =", "noise'(?c) =");
    const problems = checkRddl([{ name: 'relay_acc.rddl', text: typed }]);
    expect(problems.map((d) => [d.location.line, d.location.column, d.severity])).toEqual([
      [31, 14, 'error'],
    ]);
    expect(problems[0]!.message).toMatch(
      /'@gren' is not a value of type phase .*did you mean @green.*--semantics rddlsim/,
    );
  });

  const model = loadRddl(sources, { rddlsimQuirks: true });

  it("load under rddlsim's semantics with a warning at each place", () => {
    const warnings = model.warnings.map((w) => [w.location.line, w.message]);
    expect(warnings).toEqual([
      [8, expect.stringMatching(/'NEXT' is declared int .* holding objects of type cell/)],
      [17, expect.stringMatching(/'half' is int, but its cpf gives real: .* simulated as real/)],
      [19, expect.stringMatching(/'noise' takes 1 parameter, but its cpf has 0: .* each grounding/)],
      [31, expect.stringMatching(/'@gren' is not a value of type phase .* no effect/)],
    ]);
  });

  it("are the same warnings in the editor's check under rddlsim's semantics, and no errors", () => {
    const checked = checkRddl(sources, { rddlsimSemantics: true });
    expect(checked.filter((d) => d.severity === 'error')).toEqual([]);
    expect(checked.map((d) => [d.severity, d.location.line, d.message])).toEqual(
      model.warnings.map((w) => ['warning', w.location.line, w.message]),
    );
  });

  it("report rddlsim's fluent ordering failure as an error only under rddlsim's semantics", () => {
    // An aggregation re-binding ?c, then ?c read again: rddlsim's ordering walk loses ?c and its server exits.
    const shadowing = text
      .replace('int, default = c1', 'cell, default = c1')
      .replace('{ interm-fluent, int,', '{ interm-fluent, real,')
      .replace("noise' =", "noise'(?c) =")
      .replace("load'(?c) = load(NEXT(?c)) + half(?c) + 1;", "load'(?c) = (sum_{?c : cell} W(?c)) + W(?c);")
      .replace('FLOW(c1, @gren);', '');
    const files = [{ name: 'relay_acc.rddl', text: shadowing }];
    expect(checkRddl(files).filter((d) => d.severity === 'error')).toEqual([]);
    const errors = checkRddl(files, { rddlsimSemantics: true }).filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.location.line).toBe(18);
  });

  for (const generator of ['protoplay', 'rddlsim'] as const) {
    it(`run as rddlsim evaluates them (generator ${generator})`, () => {
      const simulator = model.createSimulator({ seed: 3, rddlsimQuirks: true, generator });
      // Step 1: loads are 0, only FLOW(c2, @green) counts; the misspelt FLOW(c1, @gren) is read by nothing.
      expect(simulator.step([])).toMatchObject({ kind: 'ok', reward: 1 });
      // half = W(NEXT(c)) / 2 keeps its real: 1.5, 1.5, 0.5 (NEXT(c1) is the default object c1).
      expect(simulator.internalFluents().map((f) => [f.name, f.args, f.value])).toEqual([
        ['half', ['c1'], 1.5],
        ['half', ['c2'], 1.5],
        ['half', ['c3'], 0.5],
      ]);
      const loads = simulator.stateFluents().filter((f) => f.name === 'load');
      expect(loads.map((f) => f.value)).toEqual([2.5, 2.5, 1.5]);
      // Each grounding of noise draws its own Normal.
      const noise = simulator.stateFluents().filter((f) => f.name === 'noise');
      expect(noise).toHaveLength(3);
      expect(new Set(noise.map((f) => f.value)).size).toBe(3);
      expect(simulator.step([])).toMatchObject({ kind: 'ok', reward: 7.5 });
      expect(simulator.step([])).toMatchObject({ kind: 'ok', reward: 15, terminated: true });
    });
  }
});
