/**
 * RDDL2 vectors of vectors: struct members that are structs (`body : <@pos : point, @vel : point>`),
 * vectors indexed by objects whose members are vectors, `.@a.@b` reads, nested literals, defaults,
 * init-state values and action texts. Each scalar leaf is one slot, listed as `@pos.@x`.
 */
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { GroundFluent } from '../../../../src/core/envs/rddl/api';
import { completionsAt } from '../../../../src/core/envs/rddl/language';
import { formatFluentValue } from '../../../../src/core/protocols/rddlsim/wire-fluents';
import { expectLoadError, testSources } from './fixtures';

const TYPES = `drone : object;
    point : <@x : real, @y : real>;
    body : <@pos : point, @vel : point>;
    squad : [drone] <? : point>;`;

const DRONES = testSources({
  types: TYPES,
  pvariables: `    b : { state-fluent, body, default = < @pos : < @x : 0.0, @y : 1.0 >, @vel : < ? : 0.5 > > };
    formation : { state-fluent, squad, default = < ? : < @x : 0.0, @y : 0.0 > > };
    push : { action-fluent, point, default = < ? : 0.0 > };
    wind : { action-fluent, body, default = < ? : < ? : 0.0 > > };`,
  cpfs: `    b' = < @pos : b.@pos + b.@vel + wind.@pos, @vel : b.@vel + push + wind.@vel >;
    formation' = < $d1 : b.@pos, $d2 : formation.$d1 >;`,
  reward: '(sum_{?d : drone} [formation.?d.@x]) + b.@pos.@y',
  instance:
    'objects { drone : {d1, d2}; }; init-state { formation = < $d1 : < @x : 3.0, @y : 4.0 >, $d2 : < ? : 9.0 > >; };',
});

const byName = (fluents: GroundFluent[]) =>
  new Map(fluents.map((f) => [`${f.name}(${f.args.join(',')})`, f]));

describe('vectors of vectors', () => {
  const model = loadRddl(DRONES);

  it('start from nested defaults and init-state values, one member per leaf, printed nested', () => {
    const state = byName(model.createSimulator({ seed: 1 }).stateFluents());
    const b = state.get('b()')!;
    expect(b.members).toEqual([
      { label: '@pos.@x', value: 0, valueType: 'real' },
      { label: '@pos.@y', value: 1, valueType: 'real' },
      { label: '@vel.@x', value: 0.5, valueType: 'real' },
      { label: '@vel.@y', value: 0.5, valueType: 'real' },
    ]);
    expect(b.value).toBe('< @pos: < @x: 0, @y: 1 >, @vel: < @x: 0.5, @y: 0.5 > >');
    // On the wire the members are written as Java writes doubles, nested as rddlsim's toString nests.
    expect(formatFluentValue(b)).toBe('< @pos: < @x: 0.0, @y: 1.0 >, @vel: < @x: 0.5, @y: 0.5 > >');
    expect(state.get('formation()')!.members!.map((m) => [m.label, m.value])).toEqual([
      ['d1.@x', 3],
      ['d1.@y', 4],
      ['d2.@x', 9],
      ['d2.@y', 9],
    ]);
    expect(formatFluentValue(state.get('formation()')!)).toBe(
      '< $d1: < @x: 3.0, @y: 4.0 >, $d2: < @x: 9.0, @y: 9.0 > >',
    );
  });

  it('compute nested literals, add nested members whole, and read leaves with .@a.@b and .?d.@x', () => {
    const simulator = model.createSimulator({ seed: 1 });
    // Reward over s: formation d1.x + d2.x + b.pos.y = 3 + 9 + 1.
    expect(simulator.step([])).toMatchObject({ kind: 'ok', reward: 13 });
    let state = byName(simulator.stateFluents());
    expect(state.get('b()')!.members!.map((m) => m.value)).toEqual([0.5, 1.5, 0.5, 0.5]);
    expect(state.get('formation()')!.members!.map((m) => m.value)).toEqual([0, 1, 3, 4]);
    expect(simulator.step([{ name: 'push', args: [], value: '< @x: 1.0, @y: -0.5 >' }])).toMatchObject({
      kind: 'ok',
      reward: 0 + 3 + 1.5,
    });
    state = byName(simulator.stateFluents());
    expect(state.get('b()')!.members!.map((m) => m.value)).toEqual([1, 2, 1.5, 0]);
    expect(state.get('formation()')!.members!.map((m) => m.value)).toEqual([0.5, 1.5, 0, 1]);
  });

  it("play the same under rddlsim's semantics, and compare nested vectors whole", () => {
    const quirks = loadRddl(DRONES, { rddlsimQuirks: true }).createSimulator({
      seed: 1,
      rddlsimQuirks: true,
      generator: 'rddlsim',
    });
    const plain = model.createSimulator({ seed: 1 });
    for (let step = 0; step < 3; step++) {
      const push = [{ name: 'push', args: [], value: `< @x: ${step}.5, @y: 0.0 >` }];
      expect(quirks.step(push)).toEqual(plain.step(push));
      expect(quirks.stateFluents()).toEqual(plain.stateFluents());
    }
    const compare = loadRddl(
      testSources({
        types: TYPES,
        pvariables: `    b : { state-fluent, body, default = < ? : < ? : 0.0 > > };
    still : { state-fluent, bool, default = false };
    same : { state-fluent, bool, default = false };`,
        cpfs: `    b' = < @pos : b.@pos + b.@vel, @vel : < @x : 1.0, @y : 0.0 > >;
    still' = (b == b.default);
    same' = (b.@pos ~= b.@vel);`,
        instance: 'objects { drone : {d1}; };',
      }),
    ).createSimulator({ seed: 1 });
    const flags = () =>
      compare
        .stateFluents()
        .filter((f) => f.valueType === 'bool')
        .map((f) => f.value);
    compare.step([]);
    expect(flags()).toEqual([true, false]);
    compare.step([]);
    expect(flags()).toEqual([false, true]);
  });

  it('set a nested action member from its nested text; the default written out is no action', () => {
    const simulator = model.createSimulator({ seed: 1 });
    const gust = { name: 'wind', args: [], value: '< @vel: < @y: 2.0 >, @pos: < @x: 1.5 > >' };
    expect(simulator.step([gust])).toMatchObject({ kind: 'ok' });
    expect(
      byName(simulator.stateFluents())
        .get('b()')!
        .members!.map((m) => m.value),
    ).toEqual([2, 1.5, 0.5, 2.5]);
    const resolved = model.createSimulator({ seed: 1 }).step([
      { name: 'wind', args: [], value: '< ? : < ? : 0.0 > >' },
      { name: 'push', args: [], value: '< @x: 0.0, @y: 0.0 >' },
    ]);
    expect(resolved).toMatchObject({ kind: 'ok' });
    expect(simulator.step([{ name: 'wind', args: [], value: '< @vel: 2.0 >' }])).toMatchObject({
      kind: 'error',
      message: '\'wind\' has no member "@vel" (its members: @pos.@x, @pos.@y, @vel.@x, @vel.@y)',
    });
    expect(simulator.step([{ name: 'wind', args: [], value: '< @vel: < @x: 1.0 >' }])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^'wind': expected , or > at character/),
    });
  });

  it('count nested action values toward max-nondef-actions only when they differ from the default', () => {
    const model = loadRddl(
      testSources({
        types: TYPES,
        pvariables: `    b : { state-fluent, body, default = < ? : < ? : 0.0 > > };
    wind : { action-fluent, body, default = < ? : < ? : 0.0 > > };
    push : { action-fluent, bool, default = false };`,
        cpfs: "    b' = b + wind;",
        instance: 'objects { drone : {d1}; };',
        maxNondef: 'max-nondef-actions = 1;',
      }),
    );
    const simulator = model.createSimulator({ seed: 1 });
    const calm = { name: 'wind', args: [], value: '< @pos: < @x: 0.0, @y: 0.0 >, @vel: < ? : 0.0 > >' };
    expect(simulator.step([calm, { name: 'push', args: [], value: true }])).toMatchObject({ kind: 'ok' });
    const gust = { name: 'wind', args: [], value: '< @vel: < @x: 0.25 > >' };
    expect(simulator.step([gust, { name: 'push', args: [], value: true }])).toMatchObject({
      kind: 'illegal',
      illegal: { reason: 'max-nondef-actions' },
    });
  });

  it('locate what is wrong with a nested vector', () => {
    const load = (cpfs: string) =>
      expectLoadError(() =>
        loadRddl(
          testSources({
            types: TYPES,
            pvariables: `    b : { state-fluent, body, default = < ? : < ? : 0.0 > > };
    x : { state-fluent, real, default = 0.0 };`,
            cpfs,
            instance: 'objects { drone : {d1}; };',
          }),
        ),
      ).format();
    expect(load("    b' = b;\n    x' = b.@pos;")).toBe(
      "domain.rddl:12:12: 'b.@pos' is a vector: read one member (b(...).@pos.@x)",
    );
    expect(load("    b' = b;\n    x' = b.@pos.@z;")).toBe(
      'domain.rddl:12:17: @pos.@z is not a member of body (@pos.@x, @pos.@y, @vel.@x, @vel.@y)',
    );
    expect(load("    b' = < @pos : b.@vel, @vel : b.@pos.@x >;\n    x' = x;")).toBe(
      'domain.rddl:11:34: member @vel is a vector here (with member @x), but this gives a scalar',
    );
  });

  it('locate a member computed at run time, which a vector of vectors cannot have yet', () => {
    const error = expectLoadError(() =>
      loadRddl(
        testSources({
          types: TYPES,
          pvariables: `    f : { state-fluent, squad, default = < ? : < ? : 0.0 > > };
    at : { state-fluent, drone, default = d1 };
    x : { state-fluent, real, default = 0.0 };`,
          cpfs: "    f' = f;\n    at' = at;\n    x' = f.(at).@x;",
          instance: 'objects { drone : {d1}; };',
        }),
      ),
    );
    expect(error.format()).toBe(
      'domain.rddl:14:13: not yet supported in simulation: a computed member of a vector of vectors',
    );
  });

  it('reject a vector type that contains itself, at the fluent', () => {
    const error = expectLoadError(() =>
      loadRddl(
        testSources({
          types: 'obj : object; loop : <@a : real, @next : loop>;',
          pvariables: '    l : { state-fluent, loop, default = < ? : 0.0 > };',
          cpfs: "    l' = l;",
        }),
      ),
    );
    expect(error.message).toContain("vector type 'loop' contains itself (loop > loop)");
  });

  it('are offered in the editor: member labels complete after @, with the vector types naming them', () => {
    const domain = DRONES[0]!;
    const cut = domain.text.indexOf('b.@pos.@y') + 'b.@pos.@'.length;
    const before = domain.text.slice(0, cut);
    const line = before.split('\n').length;
    const column = cut - before.lastIndexOf('\n');
    const items = completionsAt(DRONES, domain.name, { line, column }).items;
    expect(
      items.filter((i) => ['@pos', '@vel', '@x', '@y'].includes(i.label)).map((i) => [i.label, i.detail]),
    ).toEqual([
      ['@x', 'member of point'],
      ['@y', 'member of point'],
      ['@pos', 'member of body'],
      ['@vel', 'member of body'],
    ]);
  });
});
