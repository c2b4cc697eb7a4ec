/**
 * rddlsim's quirks: off by default (the language's semantics), reproduced with `rddlsimQuirks`. The
 * frequencies expected under quirks are those measured on the real server (research §2.9, 200k samples
 * of the shared quirk_mdp domain).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRddl, RDDLSIM_QUIRKS } from '../../../../src/core/envs/rddl';
import { CONFORMANCE_DIR } from './shared-files';
import { expectLoadError, testSources } from './fixtures';

function frequencies(quirks: boolean, steps = 40_000): Map<string, Map<string, number>> {
  const text = readFileSync(join(CONFORMANCE_DIR, 'testdomains', 'quirk_mdp.rddl'), 'utf8');
  const simulator = loadRddl([{ name: 'quirk_mdp.rddl', text }]).createSimulator({
    seed: 9,
    rddlsimQuirks: quirks,
  });
  const counts = new Map<string, Map<string, number>>();
  for (let i = 0; i < steps; i++) {
    simulator.step([]);
    for (const f of simulator.stateFluents()) {
      const byValue = counts.get(f.name) ?? new Map<string, number>();
      const key = `${f.value}:${f.valueType}`;
      byValue.set(key, (byValue.get(key) ?? 0) + 1 / steps);
      counts.set(f.name, byValue);
    }
  }
  return counts;
}

describe('double sampling under ^, | and *', () => {
  const tolerance = 0.015;

  it('reproduces rddlsim: Bernoulli(.5) ^ true is true 25%, | false 75%, * 5.0 gives false half the time', () => {
    const counts = frequencies(true);
    expect(counts.get('a')!.get('true:bool')!).toBeCloseTo(0.25, 1);
    expect(Math.abs(counts.get('a')!.get('true:bool')! - 0.25)).toBeLessThan(tolerance);
    expect(Math.abs(counts.get('o')!.get('true:bool')! - 0.75)).toBeLessThan(tolerance);
    expect(Math.abs(counts.get('m')!.get('false:bool')! - 0.5)).toBeLessThan(tolerance);
    expect(Math.abs(counts.get('m')!.get('5:real')! - 0.25)).toBeLessThan(tolerance);
    expect(Math.abs(counts.get('m')!.get('0:real')! - 0.25)).toBeLessThan(tolerance);
    expect(Math.abs(counts.get('s')!.get('2:int')! - 0.25)).toBeLessThan(tolerance);
  });

  it('samples once without quirks', () => {
    const counts = frequencies(false);
    expect(Math.abs(counts.get('a')!.get('true:bool')! - 0.5)).toBeLessThan(tolerance);
    expect(Math.abs(counts.get('o')!.get('true:bool')! - 0.5)).toBeLessThan(tolerance);
    expect(Math.abs(counts.get('m')!.get('5:real')! - 0.5)).toBeLessThan(tolerance);
    expect(counts.get('m')!.has('false:bool')).toBe(false);
  });
});

describe('other quirks', () => {
  const model = loadRddl(
    testSources({
      types: 'obj : object; md : {@a, @b};',
      pvariables: `    mode : { state-fluent, md, default = @b };
    hit : { state-fluent, int, default = 0 };
    seen(obj) : { state-fluent, bool, default = false };`,
      cpfs: `    mode' = mode;
    hit' = switch (mode) { default : 0, case @b : 1 };
    seen'(?o) = true;`,
      instance: 'objects { obj : {o1, o2}; }; init-state { seen(o1); seen(o2); };',
    }),
  );
  const rebinding = loadRddl(
    testSources({
      pvariables: `    seen(obj) : { state-fluent, bool, default = false };
    out : { state-fluent, bool, default = false };`,
      cpfs: `    seen'(?o) = true;
    out' = exists_{?o : obj} [seen(?o) ^ (exists_{?o : obj} seen(?o)) ^ seen(?o)];`,
      instance: 'objects { obj : {o1, o2}; }; init-state { seen(o1); seen(o2); };',
    }),
  );

  it('takes a leading switch default only with quirks', () => {
    const correct = model.createSimulator({ seed: 1 });
    correct.step([]);
    expect(correct.stateFluents().find((f) => f.name === 'hit')!.value).toBe(1);
    const quirky = model.createSimulator({ seed: 1, rddlsimQuirks: true });
    quirky.step([]);
    expect(quirky.stateFluents().find((f) => f.name === 'hit')!.value).toBe(0);
  });

  it('scopes re-bound variables, or fails as rddlsim does when it orders the fluents', () => {
    const correct = rebinding.createSimulator({ seed: 1 });
    expect(correct.step([]).kind).toBe('ok');
    expect(correct.stateFluents().find((f) => f.name === 'out')!.value).toBe(true);
    // rddlsim reads the erased ?o (the last seen(?o)) while it collects the parents of out'.
    const error = expectLoadError(() => rebinding.createSimulator({ seed: 1, rddlsimQuirks: true }));
    expect(error.message).toContain("collecting the parents of out', it reads ?o in seen(?o)");
    expect(error.location).toMatchObject({ line: 9, column: 73 });
  });

  it('describes every quirk in a paragraph', () => {
    expect(RDDLSIM_QUIRKS.map((q) => q.id)).toEqual([
      'double-sampling',
      'times-returns-zero-operand',
      'single-term-aggregation',
      'switch-default-anywhere',
      'shadowed-variables',
      'state-invariants-ignored',
    ]);
    for (const quirk of RDDLSIM_QUIRKS) expect(quirk.explanation.length).toBeGreaterThan(150);
  });
});
