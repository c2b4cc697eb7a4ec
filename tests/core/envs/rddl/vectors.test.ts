/**
 * RDDL2 vector-valued fluents with scalar members, Multinomial and Dirichlet. The figures under rddlsim's
 * semantics are what rddlsim's own simulator printed for this domain (seed 5, no-op policy).
 */
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { GroundFluent, RddlSource } from '../../../../src/core/envs/rddl/api';
import { expectLoadError, testSources } from './fixtures';

const VOTES: RddlSource = {
  name: 'votes.rddl',
  text: `domain votes_mdp {
  types {
    party : {@red, @green, @blue};
    booth : object;
    tally : [party] <? : int>;
    shares : [party] <? : real>;
    pair : <@lo : int, @hi : real>;
  };
  pvariables {
    VOTERS(booth) : { non-fluent, int, default = 10 };
    counted(booth) : { state-fluent, tally, default = < ? : 0 > };
    mood : { state-fluent, shares, default = < @red : 0.2, @green : 0.3, @blue : 0.5 > };
    span : { state-fluent, pair, default = < @lo : 1, @hi : 2.5 > };
    campaign : { action-fluent, bool, default = false };
  };
  cpfs {
    counted'(?b) = Multinomial(party, VOTERS(?b), @red : mood.@red, @green : mood.@green, @blue : otherwise);
    mood' = Dirichlet(party, 2.0);
    span' = < @lo : span.@lo + 1, @hi : span.@hi * 2.0 >;
  };
  reward = sum_{?b : booth} (counted(?b).@red - counted(?b).@blue) + span.@lo;
}
non-fluents votes_nf {
  domain = votes_mdp;
  objects { booth : {north, south}; };
  non-fluents { VOTERS(south) = 25; };
}
instance votes_inst {
  domain = votes_mdp;
  non-fluents = votes_nf;
  horizon = 4;
  discount = 1.0;
}
`,
};

const byName = (fluents: GroundFluent[]) =>
  new Map(fluents.map((f) => [`${f.name}(${f.args.join(',')})`, f]));
const memberValues = (fluent: GroundFluent | undefined) => fluent?.members?.map((m) => m.value);

describe('vector-valued fluents', () => {
  const model = loadRddl([VOTES]);

  it('start from their defaults (< ? : v > for every member, or each member named)', () => {
    const state = byName(model.createSimulator({ seed: 1 }).stateFluents());
    expect(state.get('counted(north)')).toMatchObject({
      value: '< @red: 0, @green: 0, @blue: 0 >',
      valueType: 'vector',
      members: [
        { label: '@red', value: 0, valueType: 'int' },
        { label: '@green', value: 0, valueType: 'int' },
        { label: '@blue', value: 0, valueType: 'int' },
      ],
    });
    expect(memberValues(state.get('mood()'))).toEqual([0.2, 0.3, 0.5]);
    expect(state.get('span()')!.members).toEqual([
      { label: '@lo', value: 1, valueType: 'int' },
      { label: '@hi', value: 2.5, valueType: 'real' },
    ]);
  });

  it("draw Multinomial and Dirichlet exactly as rddlsim does under rddlsim's semantics", () => {
    const simulator = model.createSimulator({ seed: 5, rddlsimQuirks: true, generator: 'rddlsim' });
    const rewards: number[] = [];
    const seen: Map<string, GroundFluent>[] = [];
    for (let step = 0; step < 4; step++) {
      const outcome = simulator.step([]);
      if (outcome.kind !== 'ok') throw new Error(JSON.stringify(outcome));
      rewards.push(outcome.reward);
      seen.push(byName(simulator.stateFluents()));
    }
    // What rddlsim's simulator printed.
    expect(rewards).toEqual([2, -2, 28, 12]);
    expect(seen.map((state) => memberValues(state.get('counted(north)')))).toEqual([
      [3, 2, 5],
      [7, 3, 0],
      [6, 0, 4],
      [1, 8, 1],
    ]);
    expect(seen.slice(0, 3).map((state) => memberValues(state.get('counted(south)')))).toEqual([
      [7, 7, 11],
      [18, 4, 3],
      [11, 5, 9],
    ]);
    expect(memberValues(seen[0]!.get('mood()'))).toEqual([
      0.8123491682795866, 0.08340349795172508, 0.10424733376868842,
    ]);
    expect(memberValues(seen[1]!.get('mood()'))).toEqual([
      0.5666584643370342, 0.12715334998959404, 0.30618818567337186,
    ]);
    // rddlsim's Gamma uses FastMath, which may differ in the last bits.
    const third = memberValues(seen[2]!.get('mood()')) as number[];
    [0.11175418354596907, 0.7215048956364757, 0.16674092081755526].forEach((x, i) =>
      expect(third[i]).toBeCloseTo(x, 12),
    );
    expect(memberValues(seen[2]!.get('span()'))).toEqual([4, 20]);
  });

  it('give Multinomial counts that add up to the count, with the cases’ probabilities', () => {
    const simulator = model.createSimulator({ seed: 3 });
    const totals = [0, 0, 0];
    const n = 4000;
    for (let i = 0; i < n; i++) {
      // The first step of a round draws the counts with the default mood: 0.2, 0.3, 0.5.
      simulator.reset();
      simulator.step([]);
      const south = memberValues(byName(simulator.stateFluents()).get('counted(south)')) as number[];
      expect(south.reduce((a, b) => a + b, 0)).toBe(25);
      south.forEach((c, j) => (totals[j]! += c));
    }
    [0.2, 0.3, 0.5].forEach((p, j) => {
      const sd = Math.sqrt((25 * p * (1 - p)) / n);
      expect(Math.abs(totals[j]! / n - 25 * p)).toBeLessThan(5 * sd);
    });
  });

  it('give Dirichlet members that are positive and sum to 1, each 1/3 on average for a symmetric alpha', () => {
    const simulator = model.createSimulator({ seed: 11 });
    const sums = [0, 0, 0];
    const n = 4000;
    for (let i = 0; i < n; i++) {
      simulator.step([]);
      const mood = memberValues(byName(simulator.stateFluents()).get('mood()')) as number[];
      expect(mood.every((x) => x > 0)).toBe(true);
      expect(mood.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      mood.forEach((x, j) => (sums[j]! += x));
      if ((i + 1) % 4 === 0) simulator.reset();
    }
    // Dirichlet(2, 2, 2): each member has mean 1/3 and variance (1/3)(2/3)/7.
    const sd = Math.sqrt(2 / 9 / 7 / n);
    for (const sum of sums) expect(Math.abs(sum / n - 1 / 3)).toBeLessThan(5 * sd);
  });

  it('read members with a variable bound to the index type and with a named object member', () => {
    const simulator = loadRddl(
      testSources({
        types: 'obj : object; side : {@left, @right}; load : [side] <? : real>; slots : [obj] <? : bool>;',
        pvariables: `    weight : { state-fluent, load, default = < @left : 1.5, @right : 2.0 > };
    open : { state-fluent, slots, default = < ? : false > };
    total : { interm-fluent, real };`,
        cpfs: `    total = sum_{?s : side} weight.?s;
    weight' = < @left : weight.@left + total, @right : weight.@right >;
    open' = < $o1 : true, $o2 : open.$o1, $o3 : false >;`,
        reward: 'total',
      }),
    ).createSimulator({ seed: 1 });
    const first = simulator.step([]);
    expect(first).toMatchObject({ kind: 'ok', reward: 3.5 });
    const state = byName(simulator.stateFluents());
    expect(memberValues(state.get('weight()'))).toEqual([5, 2]);
    expect(memberValues(state.get('open()'))).toEqual([true, false, false]);
    simulator.step([]);
    expect(memberValues(byName(simulator.stateFluents()).get('open()'))).toEqual([true, true, false]);
  });

  it('read a member named by a fluent at run time, and vector non-fluents', () => {
    const simulator = loadRddl(
      testSources({
        types: 'obj : object; side : {@left, @right}; load : [side] <? : int>;',
        pvariables: `    LIMIT : { non-fluent, load, default = < ? : 1 > };
    pick : { state-fluent, side, default = @left };
    got : { state-fluent, int, default = 0 };`,
        cpfs: `    pick' = if (pick == @left) then @right else @left;
    got' = LIMIT.(pick);`,
        instance: 'objects { obj : {o1}; }; non-fluents { LIMIT = < @left : 3, @right : 8 >; };',
      }),
    ).createSimulator({ seed: 1 });
    const got = () => byName(simulator.stateFluents()).get('got()')!.value;
    simulator.step([]);
    expect(got()).toBe(3);
    simulator.step([]);
    expect(got()).toBe(8);
  });

  it('add vectors member by member and compare them whole, as rddlsim does', () => {
    const simulator = loadRddl(
      testSources({
        types: 'obj : object; pair : <@lo : int, @hi : real>;',
        pvariables: `    span : { state-fluent, pair, default = < @lo : 1, @hi : 2.5 > };
    moved : { state-fluent, bool, default = false };
    back : { state-fluent, bool, default = true };`,
        cpfs: `    span' = span + < @lo : 1, @hi : 0.5 > - < @lo : 0, @hi : 0.25 >;
    moved' = span ~= span.default;
    back' = (span == < @lo : 1, @hi : 2.5 >);`,
      }),
    ).createSimulator({ seed: 1 });
    const state = () => byName(simulator.stateFluents());
    simulator.step([]);
    expect(memberValues(state().get('span()'))).toEqual([2, 2.75]);
    expect(state().get('moved()')!.value).toBe(false);
    expect(state().get('back()')!.value).toBe(true);
    simulator.step([]);
    expect(memberValues(state().get('span()'))).toEqual([3, 3]);
    expect(state().get('moved()')!.value).toBe(true);
    expect(state().get('back()')!.value).toBe(false);
  });

  it('read a vector-valued action at its default, and compare a set one with it', () => {
    const simulator = loadRddl(
      testSources({
        types: 'obj : object; step : <@dx : real, @dy : real>;',
        pvariables: `    move : { action-fluent, step, default = < @dx : 0.5, @dy : -1.0 > };
    x : { state-fluent, real, default = 0.0 };`,
        cpfs: "    x' = x + move.@dx - move.@dy;",
        sections: '  action-preconditions { ~(move ~= move.default); };',
      }),
    ).createSimulator({ seed: 1 });
    expect(simulator.step([])).toMatchObject({ kind: 'ok' });
    expect(byName(simulator.stateFluents()).get('x()')!.value).toBe(1.5);
    expect(simulator.step([{ name: 'move', args: [], value: '< @dx : 1.0, @dy : 0.0 >' }])).toMatchObject({
      kind: 'illegal',
      illegal: { reason: 'action-precondition' },
    });
    // The default written out is the default: allowed, and x moves by 0.5 + 1.0 again.
    expect(simulator.step([{ name: 'move', args: [], value: '< @dy: -1.0, @dx: 0.5 >' }])).toMatchObject({
      kind: 'ok',
    });
    expect(byName(simulator.stateFluents()).get('x()')!.value).toBe(3);
  });

  describe('set vector-valued actions (rovers moving by < @dx, @dy >)', () => {
    const model = loadRddl(
      testSources({
        types: 'rover : object; motion : <@dx : real, @dy : int>;',
        pvariables: `    move(rover) : { action-fluent, motion, default = < @dx : 0.0, @dy : 0 > };
    x(rover) : { state-fluent, real, default = 0.0 };
    y(rover) : { state-fluent, int, default = 0 };`,
        cpfs: `    x'(?r) = x(?r) + move(?r).@dx;
    y'(?r) = y(?r) + move(?r).@dy;`,
        reward: 'sum_{?r : rover}[x(?r) + y(?r)]',
        instance: 'objects { rover : {r1, r2}; };',
        maxNondef: 'max-nondef-actions = 1;',
      }),
    );
    const positions = (sim: ReturnType<typeof model.createSimulator>) =>
      sim.stateFluents().map((f) => `${f.name}(${f.args.join()})=${f.value}`);

    it('applies each member to its grounding only, as written by rddlsim (< @dx: 1.5, @dy: -2 >)', () => {
      const simulator = model.createSimulator({ seed: 1 });
      expect(simulator.step([{ name: 'move', args: ['r2'], value: '< @dx: 1.5, @dy: -2 >' }])).toMatchObject({
        kind: 'ok',
      });
      expect(positions(simulator)).toEqual(
        expect.arrayContaining(['x(r1)=0', 'x(r2)=1.5', 'y(r1)=0', 'y(r2)=-2']),
      );
      // The next step starts from the default again; a left-out member keeps the default's value.
      simulator.step([{ name: 'move', args: ['$r1'], value: '< @dy: 3 >' }]);
      expect(positions(simulator)).toEqual(
        expect.arrayContaining(['x(r1)=0', 'x(r2)=1.5', 'y(r1)=3', 'y(r2)=-2']),
      );
    });

    it('counts a vector equal to the default as no action, and others toward max-nondef-actions', () => {
      const simulator = model.createSimulator({ seed: 1 });
      const both = [
        { name: 'move', args: ['r1'], value: '< @dx: 1.0, @dy: 0 >' },
        { name: 'move', args: ['r2'], value: '< @dx: 0.0, @dy: 0 >' },
      ];
      expect(simulator.step(both)).toMatchObject({ kind: 'ok' });
      expect(positions(simulator)).toEqual(expect.arrayContaining(['x(r1)=1', 'x(r2)=0']));
      both[1]!.value = '< @dx: 0.0, @dy: 1 >';
      expect(simulator.step(both)).toMatchObject({
        kind: 'illegal',
        illegal: { reason: 'max-nondef-actions' },
      });
    });

    it('names what is wrong with a vector value', () => {
      const simulator = model.createSimulator({ seed: 1 });
      expect(simulator.step([{ name: 'move', args: ['r1'], value: 1 }])).toMatchObject({
        kind: 'error',
        message: expect.stringContaining("'move' is a vector (motion): its value is written <"),
      });
      expect(simulator.step([{ name: 'move', args: ['r1'], value: '< @dz: 1.0 >' }])).toMatchObject({
        kind: 'error',
        message: '\'move\' has no member "@dz" (its members: @dx, @dy)',
      });
      expect(simulator.step([{ name: 'move', args: ['r1'], value: '< @dx: 1.0, @dy: 0.5 >' }])).toMatchObject(
        {
          kind: 'error',
          message: '\'move.@dy\' takes an int, not "0.5"',
        },
      );
    });
  });

  it('set a vector in init-state', () => {
    const simulator = loadRddl(
      testSources({
        types: 'obj : object; side : {@left, @right}; load : [side] <? : int>;',
        pvariables: '    weight(obj) : { state-fluent, load, default = < ? : 0 > };',
        cpfs: "    weight'(?o) = weight(?o);",
        instance: 'objects { obj : {o1, o2}; }; init-state { weight(o2) = < @left : 4, @right : 7 >; };',
      }),
    ).createSimulator({ seed: 1 });
    const state = byName(simulator.stateFluents());
    expect(memberValues(state.get('weight(o1)'))).toEqual([0, 0]);
    expect(memberValues(state.get('weight(o2)'))).toEqual([4, 7]);
  });

  it('report a Multinomial negative probability as Discrete does, and a Dirichlet alpha out of range', () => {
    const simulator = loadRddl(
      testSources({
        types: 'obj : object; side : {@left, @right}; counts : [side] <? : int>; mix : [side] <? : real>;',
        pvariables: `    n : { state-fluent, counts, default = < ? : 0 > };
    m : { state-fluent, mix, default = < ? : 0.5 > };
    alpha : { state-fluent, real, default = 1.0 };`,
        cpfs: `    n' = Multinomial(side, 3, @left : 1.2, @right : otherwise);
    m' = Dirichlet(side, alpha);
    alpha' = alpha - 1.0;`,
      }),
    ).createSimulator({ seed: 1 });
    const first = simulator.step([]);
    expect(first).toMatchObject({
      kind: 'ok',
      notices: [{ kind: 'negative-probability', location: { line: 9, column: 10 } }],
    });
    expect(memberValues(byName(simulator.stateFluents()).get('n()'))).toEqual([3, 0]);
    expect(simulator.step([])).toMatchObject({
      kind: 'error',
      message: 'Dirichlet alpha 0.0 must be positive',
      location: { line: 10, column: 10 },
    });
  });

  it('locate what cannot be simulated', () => {
    const load = (cpfs: string, reward = '0') =>
      expectLoadError(() =>
        loadRddl(
          testSources({
            types: 'obj : object; side : {@left, @right}; load : [side] <? : real>;',
            pvariables: `    weight : { state-fluent, load, default = < ? : 1.0 > };
    x : { state-fluent, real, default = 0.0 };`,
            cpfs,
            reward,
          }),
        ),
      );
    expect(load("    weight' = weight;\n    x' = weight.@middle;").format()).toBe(
      'domain.rddl:9:17: @middle is not a member of load (@left, @right)',
    );
    expect(load("    weight' = weight;\n    x' = weight;").format()).toBe(
      "domain.rddl:9:10: 'x' is real, but its cpf gives load",
    );
    expect(load("    weight' = weight;\n    x' = Dirichlet(side, 1.0);").format()).toBe(
      "domain.rddl:9:10: 'x' is real, but its cpf gives a vector over side",
    );
    expect(load("    weight' = weight.@left;\n    x' = x;").format()).toMatch(
      /^domain\.rddl:8:15: not yet supported in simulation: this vector expression/,
    );
  });
});
