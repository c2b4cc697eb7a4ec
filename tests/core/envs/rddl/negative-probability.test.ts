/**
 * A Discrete whose case probabilities go below zero: rddlsim only checks that they sum to 1 and samples on
 * (one uniform draw, each probability subtracted in turn, the first case that takes it below zero wins),
 * so a negative entry moves the mass of the cases before it onto the cases after it. Protoplay samples the
 * same way under both semantics and reports a notice located at the expression.
 */
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import { RandomSource } from '../../../../src/core/envs/rddl/distributions';
import { testSources } from './fixtures';

/** A generator that returns the given uniforms in turn. */
function scripted(...uniforms: number[]): RandomSource {
  let next = 0;
  return new RandomSource({ nextDouble: () => uniforms[next++]! });
}

describe('Discrete with a negative probability', () => {
  it('draws as rddlsim does: the first case whose running subtraction goes below zero', () => {
    const probabilities = new Float64Array([-0.25, 0.5, 0.75]);
    const negatives: number[] = [];
    // u + 0.25 - 0.5 < 0 iff u < 0.25: case 1; otherwise u + 0.25 - 0.5 - 0.75 < 0 always: case 2.
    expect(scripted(0.1).discrete(probabilities, 3, (p) => negatives.push(p))).toBe(1);
    expect(scripted(0.2499).discrete(probabilities, 3)).toBe(1);
    expect(scripted(0.25).discrete(probabilities, 3)).toBe(2);
    expect(scripted(0.99).discrete(probabilities, 3)).toBe(2);
    expect(negatives).toEqual([-0.25]);
    // A negative last case: the first case takes every draw below 1.05.
    expect(scripted(0.999).discrete(new Float64Array([1.05, -0.05]), 2)).toBe(0);
  });

  it('still refuses probabilities that do not sum to 1', () => {
    expect(() => scripted(0.5).discrete(new Float64Array([-0.1, 0.5]), 2)).toThrow(
      'Discrete probabilities sum to 0.4, not 1',
    );
  });

  // `worn` is 1 from the first step on, so @low's probability is (1.0 - 1) - 0.05 = -0.05 from the second.
  const sources = testSources({
    types: 'obj : object; quality : {@low, @mid, @high};',
    pvariables: `    worn : { state-fluent, real, default = 0.0 };
    grade : { state-fluent, quality, default = @mid };`,
    cpfs: `    worn' = 1.0;
    grade' = Discrete(quality, @low : (1.0 - worn) - 0.05, @mid : 0.5, @high : otherwise);`,
    horizon: 'horizon = 40;',
  });
  const model = loadRddl(sources);

  for (const semantics of [
    { name: 'by default', options: {} },
    { name: "under rddlsim's semantics", options: { rddlsimQuirks: true, generator: 'rddlsim' as const } },
  ]) {
    it(`samples on ${semantics.name}, with a notice located at the Discrete`, () => {
      const simulator = model.createSimulator({ seed: 7, ...semantics.options });
      const first = simulator.step([]);
      // worn was 0: probabilities 0.95, 0.5, -0.45 (otherwise); the notice names the negative one.
      expect(first).toMatchObject({ kind: 'ok', notices: [{ kind: 'negative-probability' }] });
      const grades: Record<string, number> = {};
      let noticed = 0;
      for (let step = 2; step <= 40; step++) {
        const outcome = simulator.step([]);
        expect(outcome.kind).toBe('ok');
        if (outcome.kind !== 'ok') return;
        expect(outcome.notices).toHaveLength(1);
        const notice = outcome.notices![0]!;
        expect(notice.message).toMatch(/^Discrete probability -0\.05\d* is negative/);
        expect(notice.location).toMatchObject({ source: 'domain.rddl', line: 9, column: 14 });
        noticed++;
        const grade = simulator.stateFluents().find((f) => f.name === 'grade')!.value as string;
        grades[grade] = (grades[grade] ?? 0) + 1;
      }
      expect(noticed).toBe(39);
      // -0.05, 0.5, 0.55: @low is never drawn (u + 0.05 is never below 0), @mid below 0.45, @high above.
      expect(grades['@low']).toBeUndefined();
      expect(grades['@mid']! + grades['@high']!).toBe(39);
      expect(grades['@mid']).toBeGreaterThan(0);
      expect(grades['@high']).toBeGreaterThan(0);
    });
  }

  it("draws what rddlsim's own simulator drew (seed 7, rewards 1 for @high)", () => {
    const scored = loadRddl(
      testSources({
        types: 'obj : object; quality : {@low, @mid, @high};',
        pvariables: `    worn : { state-fluent, real, default = 0.0 };
    grade : { state-fluent, quality, default = @mid };`,
        cpfs: `    worn' = 1.0;
    grade' = Discrete(quality, @low : (1.0 - worn) - 0.05, @mid : 0.5, @high : otherwise);`,
        reward: 'if (grade == @high) then 1 else 0',
        horizon: 'horizon = 40;',
      }),
    ).createSimulator({ seed: 7, rddlsimQuirks: true, generator: 'rddlsim' });
    const rewards = Array.from({ length: 40 }, () => {
      const outcome = scored.step([]);
      return outcome.kind === 'ok' ? outcome.reward : NaN;
    });
    // rddlsim's rddl.sim.Simulator on the same domain and instance, seed 7, no-op policy.
    expect(rewards.join('')).toBe('0000101110000100111001011101110100111100');
  });

  it('reports nothing when every probability is in range', () => {
    const fine = loadRddl(
      testSources({
        types: 'obj : object; quality : {@low, @high};',
        pvariables: '    grade : { state-fluent, quality, default = @low };',
        cpfs: "    grade' = Discrete(quality, @low : 0.3, @high : otherwise);",
      }),
    ).createSimulator({ seed: 1 });
    const outcome = fine.step([]);
    expect(outcome.kind).toBe('ok');
    expect('notices' in outcome).toBe(false);
  });
});
