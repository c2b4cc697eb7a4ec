/**
 * rddlsim orders the fluents before it simulates, walking every cpf with one shared variable table; a nested
 * quantifier that re-binds a variable erases it, and a later read stops rddlsim ("Could not derive legal
 * fluent ordering"). The domains here were run on rddlsim's own simulator: convoy with two trucks fails on
 * blocked(t1) reading ?l in at(?t, ?l); with one truck, and relay, it plays; derived fails on d(o1).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import { expectLoadError } from './fixtures';

const dir = join(import.meta.dirname, 'rebinding');
const source = (file: string) => [{ name: file, text: readFileSync(join(dir, file), 'utf8') }];

function play(file: string, instance: string, quirks: boolean): number {
  const model = loadRddl(source(file), { instance, rddlsimQuirks: quirks });
  const simulator = model.createSimulator({ seed: 3, rddlsimQuirks: quirks });
  let total = 0;
  for (let i = 0; i < 5; i++) {
    const outcome = simulator.step([]);
    if (outcome.kind !== 'ok') throw new Error(`step ${i}: ${outcome.kind}`);
    total += outcome.reward;
  }
  return total;
}

describe("rddlsim's fluent ordering under quirks", () => {
  it('fails to load where rddlsim exits: the cpf, its grounding, the variable and the read', () => {
    const error = expectLoadError(() =>
      loadRddl(source('convoy.rddl'), { instance: 'convoy_two_trucks', rddlsimQuirks: true }),
    );
    expect(error.message).toContain('collecting the parents of blocked(t1), it reads ?l in at(?t, ?l)');
    expect(error.message).toContain('Could not derive legal fluent ordering');
    expect(error.location).toMatchObject({ source: 'convoy.rddl', line: 12 });
    const line = readFileSync(join(dir, 'convoy.rddl'), 'utf8').split('\n')[11]!;
    expect(line.slice(error.location!.column - 1).startsWith('at(?t, ?l)')).toBe(true);
  });

  it('fails the same way when a model loaded for the default semantics makes a quirks simulator', () => {
    const model = loadRddl(source('convoy.rddl'), { instance: 'convoy_two_trucks' });
    const error = expectLoadError(() => model.createSimulator({ seed: 1, rddlsimQuirks: true }));
    expect(error.message).toContain('blocked(t1)');
  });

  it('plays the same domain with ordinary scoping by default', () => {
    // Nobody drives: no truck is blocked, each of the two earns 1 per step.
    expect(play('convoy.rddl', 'convoy_two_trucks', false)).toBe(10);
  });

  it('orders the one-truck instance, as rddlsim does (?t ~= ?u is false before ?l is read again)', () => {
    expect(play('convoy.rddl', 'convoy_one_truck', true)).toBe(5);
    expect(play('convoy.rddl', 'convoy_one_truck', false)).toBe(5);
  });

  it('plays a re-binding whose outer variable is not read afterwards, under both semantics', () => {
    expect(play('relay.rddl', 'relay_two', true)).toBe(0);
    expect(play('relay.rddl', 'relay_two', false)).toBe(0);
    const model = loadRddl(source('relay.rddl'), { rddlsimQuirks: true });
    const simulator = model.createSimulator({ seed: 1, rddlsimQuirks: true });
    const outcome = simulator.step([{ name: 'go', args: ['r1', 's3'], value: true }]);
    expect(outcome).toMatchObject({ kind: 'ok', reward: 1 });
    expect(
      simulator
        .stateFluents()
        .filter((f) => f.value === true)
        .map((f) => f.args.join(',')),
    ).toEqual(['r1,s3', 'r2,s2']);
  });

  it('walks derived fluents too, as rddlsim orders them with the interm ones', () => {
    const error = expectLoadError(() => loadRddl(source('derived.rddl'), { rddlsimQuirks: true }));
    expect(error.message).toContain('collecting the parents of d(o1), it reads ?p in seen(?p)');
    expect(play('derived.rddl', 'ti', false)).toBe(0);
  });
});
