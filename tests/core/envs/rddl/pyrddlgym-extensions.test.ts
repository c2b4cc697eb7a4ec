/**
 * What pyRDDLGym's RDDL adds that Protoplay reads: the `termination { ... };` block (the round ends after
 * the step into a state where any condition holds, and otherwise at the horizon; rddlsim does not reserve
 * the word, so a fluent may still be called `termination`), and the functions `fmod` and `hypot`.
 */
import { describe, expect, it } from 'vitest';
import { checkRddl, loadRddl } from '../../../../src/core/envs/rddl';
import { expectLoadError, testSources } from './fixtures';

const counter = (termination: string, extra = '') =>
  testSources({
    pvariables: `    count : { state-fluent, int, default = 0 };
    LIMIT : { non-fluent, int, default = 3 };
    fast : { action-fluent, bool, default = false };${extra}`,
    cpfs: "    count' = count + (if (fast) then 2 else 1);",
    reward: 'count',
    sections: `  termination {
${termination}
  };`,
  });

describe('termination blocks', () => {
  it('end the round in the first state where a condition holds, before the horizon', () => {
    const simulator = loadRddl(counter('    count >= LIMIT;\n    count < 0;')).createSimulator({ seed: 1 });
    const terminated = () => {
      const outcome = simulator.step([]);
      if (outcome.kind !== 'ok') throw new Error(JSON.stringify(outcome));
      return outcome.terminated;
    };
    expect([terminated(), terminated(), terminated()]).toEqual([false, false, true]);
    simulator.reset();
    expect(simulator.step([{ name: 'fast', args: [], value: true }])).toMatchObject({ terminated: false });
    expect(simulator.step([{ name: 'fast', args: [], value: true }])).toMatchObject({ terminated: true });
  });

  it('leave the horizon in force when no condition holds', () => {
    const simulator = loadRddl(counter('    count < 0;')).createSimulator({ seed: 1 });
    const ends: boolean[] = [];
    for (let step = 0; step < 10; step++) {
      const outcome = simulator.step([]);
      ends.push(outcome.kind === 'ok' && outcome.terminated);
    }
    expect(ends.indexOf(true)).toBe(9);
  });

  it('must be boolean, over the state only, and located', () => {
    expect(expectLoadError(() => loadRddl(counter('    count + 1;'))).format()).toBe(
      'domain.rddl:13:5: a constraint must be a boolean expression, not int',
    );
    const diagnostics = checkRddl(counter('    fast;'));
    expect(diagnostics.map((d) => `${d.location?.line}: ${d.message}`)).toEqual([
      '13: action fluents cannot be read in the termination condition',
    ]);
  });

  it('do not reserve the word: a fluent may be called termination', () => {
    const simulator = loadRddl(
      testSources({
        pvariables: '    termination : { state-fluent, bool, default = false };',
        cpfs: "    termination' = true;",
      }),
    ).createSimulator({ seed: 1 });
    expect(simulator.step([])).toMatchObject({ kind: 'ok', terminated: false });
  });
});

describe("pyRDDLGym's functions", () => {
  it('fmod keeps the sign of x as C does, hypot is the Euclidean norm', () => {
    const simulator = loadRddl(
      testSources({
        pvariables: `    x : { state-fluent, real, default = -7.5 };
    r : { state-fluent, real, default = 0.0 };
    h : { state-fluent, real, default = 0.0 };`,
        cpfs: `    x' = x + 1.0;
    r' = fmod[x - 0.5, 2.0 + 0.0];
    h' = hypot[x + 4.5, 4];`,
      }),
    ).createSimulator({ seed: 1 });
    simulator.step([]);
    const value = (name: string) => simulator.stateFluents().find((f) => f.name === name)!.value;
    expect(value('r')).toBe(-0);
    expect(value('h')).toBe(5);
    simulator.step([]);
    expect(value('r')).toBe(-1);
  });
});

/** ln n! by summation, independent of the simulator's approximation. */
const logFactorial = (n: number) => {
  let sum = 0;
  for (let k = 2; k <= n; k++) sum += Math.log(k);
  return sum;
};

describe("pyRDDLGym's gamma and lngamma", () => {
  const sources = testSources({
    pvariables: `    x : { state-fluent, real, default = 0.5 };
    g : { state-fluent, real, default = 0.0 };
    lg : { state-fluent, real, default = 0.0 };
    k : { state-fluent, int, default = 0 };`,
    cpfs: `    x' = x + 0.5;
    g' = gamma[x];
    lg' = lngamma[x * 200];
    k' = round[gamma[5]] + round[lngamma[1]];`,
  });

  it('compute Γ(x) and ln Γ(x) for x > 0, folded when constant', () => {
    const simulator = loadRddl(sources).createSimulator({ seed: 1 });
    const value = (name: string) => simulator.stateFluents().find((f) => f.name === name)!.value as number;
    simulator.step([]); // x = 0.5
    expect(value('g')).toBeCloseTo(Math.sqrt(Math.PI), 13);
    expect(value('lg')).toBeCloseTo(logFactorial(99), 9); // lngamma[100]
    expect(value('k')).toBe(24);
    simulator.step([]); // x = 1
    expect(value('g')).toBeCloseTo(1, 13);
    simulator.step([]); // x = 1.5
    expect(value('g')).toBeCloseTo(Math.sqrt(Math.PI) / 2, 13);
    expect(value('lg')).toBeCloseTo(logFactorial(299), 9); // lngamma[300]
  });

  it('stop a step with a located error at x <= 0, as pyRDDLGym does', () => {
    const simulator = loadRddl(
      testSources({
        pvariables: `    x : { state-fluent, real, default = 1.0 };
    g : { state-fluent, real, default = 0.0 };`,
        cpfs: `    x' = x - 1;
    g' = gamma[x];`,
      }),
    ).createSimulator({ seed: 1 });
    expect(simulator.step([])).toMatchObject({ kind: 'ok' });
    expect(simulator.step([])).toMatchObject({
      kind: 'error',
      message: 'lngamma and gamma take x > 0 (as pyRDDLGym), not 0',
      location: { source: 'domain.rddl', line: 9, column: 10 },
    });
    expect(
      expectLoadError(() =>
        loadRddl(
          testSources({
            pvariables: '    g : { state-fluent, real, default = 0.0 };',
            cpfs: "    g' = gamma[1, 2];",
          }),
        ),
      ).format(),
    ).toBe('domain.rddl:7:10: gamma[...] takes 1 argument, not 2');
  });
});
