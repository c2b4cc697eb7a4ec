import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { GroundAction } from '../../../../src/core/envs/rddl/api';
import { testSources } from './fixtures';

const model = loadRddl(
  testSources({
    types: 'obj : object; md : {@off, @on};',
    pvariables: `    on(obj) : { state-fluent, bool, default = false };
    budget : { state-fluent, int, default = 3 };
    mode : { state-fluent, md, default = @off };
    switch-on(obj) : { action-fluent, bool, default = false };
    spend : { action-fluent, int, default = 0 };
    nudge : { action-fluent, real, default = 0 };
    set-mode : { action-fluent, md, default = @off };`,
    cpfs: `    on'(?o) = on(?o) | switch-on(?o);
    budget' = budget - spend;
    mode' = set-mode;`,
    reward: 'sum_{?o : obj} on(?o) + budget',
    sections: `  action-preconditions { spend <= budget; };
  state-action-constraints { spend >= 0; };`,
    maxNondef: 'max-nondef-actions = 2;',
    horizon: 'horizon = 3;',
  }),
);

const turnOn = (name: string, ...args: string[]): GroundAction => ({ name, args, value: true });

describe('applying actions as rddlsim does', () => {
  it('matches names case-insensitively with - read as _, and ignores $ before objects', () => {
    const simulator = model.createSimulator({ seed: 1 });
    expect(simulator.step([turnOn('SWITCH_ON', '$o2')])).toMatchObject({ kind: 'ok' });
    expect(
      simulator
        .stateFluents()
        .filter((f) => f.name === 'on')
        .map((f) => f.value),
    ).toEqual([false, true, false]);
  });

  it('drops values equal to the default without counting them', () => {
    const simulator = model.createSimulator({ seed: 1 });
    const actions: GroundAction[] = [
      { name: 'switch-on', args: ['o1'], value: false },
      { name: 'spend', args: [], value: 0 },
      turnOn('switch-on', 'o1'),
      turnOn('switch-on', 'o2'),
    ];
    expect(simulator.step(actions)).toMatchObject({ kind: 'ok' });
  });

  it('counts entries whose arguments name nothing, without applying them', () => {
    const simulator = model.createSimulator({ seed: 1 });
    const outcome = simulator.step([
      turnOn('switch-on', 'o9'),
      turnOn('switch-on', 'o1', 'o2'),
      turnOn('switch-on', 'o1'),
    ]);
    expect(outcome).toMatchObject({
      kind: 'illegal',
      illegal: { reason: 'max-nondef-actions', detail: '3 non-default actions, but max-nondef-actions is 2' },
    });
    const legal = model.createSimulator({ seed: 1 });
    expect(legal.step([turnOn('switch-on', 'o9')])).toMatchObject({ kind: 'ok' });
    expect(
      legal
        .stateFluents()
        .filter((f) => f.name === 'on')
        .every((f) => f.value === false),
    ).toBe(true);
  });

  it('counts every duplicate entry', () => {
    const simulator = model.createSimulator({ seed: 1 });
    const outcome = simulator.step([
      turnOn('switch-on', 'o1'),
      turnOn('switch-on', 'o1'),
      turnOn('switch-on', 'o1'),
    ]);
    expect(outcome.kind).toBe('illegal');
  });

  it('uses the count the host gives', () => {
    const simulator = model.createSimulator({ seed: 1 });
    expect(simulator.step([], { nondefaultCount: 5 })).toMatchObject({ kind: 'illegal' });
  });

  it('counts a real action whose default is written as an int, as rddlsim compares with Java equals', () => {
    const simulator = model.createSimulator({ seed: 1 });
    const nudges = [0, 0, 0].map((value) => ({ name: 'nudge', args: [], value }));
    expect(simulator.step(nudges)).toMatchObject({
      kind: 'illegal',
      illegal: { reason: 'max-nondef-actions' },
    });
  });

  it('stores an enum value written without @, which then equals no enum value', () => {
    const simulator = model.createSimulator({ seed: 1 });
    simulator.step([{ name: 'set-mode', args: [], value: 'on' }]);
    expect(simulator.stateFluents().find((f) => f.name === 'mode')).toMatchObject({ value: 'on' });
    simulator.step([{ name: 'set-mode', args: [], value: '@on' }]);
    expect(simulator.stateFluents().find((f) => f.name === 'mode')).toMatchObject({
      value: '@on',
      valueType: 'enum',
    });
  });

  it('refuses names that are not action fluents', () => {
    const simulator = model.createSimulator({ seed: 1 });
    expect(simulator.step([turnOn('explode')])).toEqual({
      kind: 'error',
      message: "unknown action 'explode'",
    });
    expect(simulator.step([turnOn('on', 'o1')])).toEqual({
      kind: 'error',
      message: "'on' is a state-fluent, not an action fluent",
    });
  });
});

describe('checks before a step', () => {
  it('refuses a false action precondition, with its text and location', () => {
    const simulator = model.createSimulator({ seed: 1 });
    const outcome = simulator.step([{ name: 'spend', args: [], value: 4 }]);
    expect(outcome).toMatchObject({
      kind: 'illegal',
      illegal: {
        reason: 'action-precondition',
        detail: 'action precondition is false: spend <= budget (line 18)',
        location: { source: 'domain.rddl', line: 18 },
      },
    });
    expect(simulator.stateFluents().find((f) => f.name === 'budget')!.value).toBe(3);
  });

  it('refuses a false state-action constraint', () => {
    const simulator = model.createSimulator({ seed: 1 });
    expect(simulator.step([{ name: 'spend', args: [], value: -1 }])).toMatchObject({
      kind: 'illegal',
      illegal: { reason: 'state-action-constraint' },
    });
  });
});

describe('which constraint actions break in a given state (illegalIn)', () => {
  /** The simulator's state as a policy's observation gives it: `name` or `name(arg1,arg2)`. */
  const valuesOf = (simulator: ReturnType<typeof model.createSimulator>) =>
    Object.fromEntries(
      simulator
        .stateFluents()
        .map((f) => [f.args.length ? `${f.name}(${f.args.join(',')})` : f.name, f.value] as const),
    );
  const spend = (value: number): GroundAction => ({ name: 'spend', args: [], value });

  it('checks the actions in the state the values give, and leaves the simulator as it was', () => {
    const simulator = model.createSimulator({ seed: 1 });
    const state = valuesOf(simulator);
    expect(state).toMatchObject({ budget: 3, mode: '@off', 'on(o1)': false });
    // A budget of 1 in the given state: spending 2 breaks the precondition there, not in the simulator's.
    expect(simulator.illegalIn!({ ...state, budget: 1 }, [spend(2)])).toEqual({
      reason: 'action-precondition',
      detail: 'action precondition is false: spend <= budget (line 18)',
      location: expect.objectContaining({ source: 'domain.rddl', line: 18 }) as unknown,
    });
    expect(simulator.illegalIn!(state, [spend(2)])).toBeUndefined();
    expect(simulator.illegalIn!(state, [spend(-1)])).toMatchObject({ reason: 'state-action-constraint' });
    expect(
      simulator.illegalIn!(state, [turnOn('switch-on', 'o1'), turnOn('switch-on', 'o2'), spend(1)]),
    ).toMatchObject({ reason: 'max-nondef-actions' });
    expect(simulator.illegalIn!(state, [spend(1)], { nondefaultCount: 3 })).toMatchObject({
      reason: 'max-nondef-actions',
    });
    // The simulator's own state and actions are untouched: spending 2 of its budget of 3 leaves 1.
    expect(simulator.step([spend(2)])).toMatchObject({ kind: 'ok' });
    expect(valuesOf(simulator)).toMatchObject({ budget: 1 });
  });

  it('tells nothing when the values do not give the whole state', () => {
    const simulator = model.createSimulator({ seed: 1 });
    const { budget: _budget, ...withoutBudget } = valuesOf(simulator);
    // Spending 4 breaks the precondition in the initial state (budget 3): it is not told without it.
    expect(simulator.illegalIn!({ ...withoutBudget, budget: 3 }, [spend(4)])).toMatchObject({
      reason: 'action-precondition',
    });
    expect(simulator.illegalIn!(withoutBudget, [spend(4)])).toBeUndefined();
    expect(simulator.illegalIn!({ ...withoutBudget, budget: 'three' }, [spend(4)])).toBeUndefined();
    expect(
      simulator.illegalIn!({ ...withoutBudget, budget: 3, mode: '@sideways' }, [spend(4)]),
    ).toBeUndefined();
    expect(simulator.illegalIn!({ ...withoutBudget, budget: 3, 'on(o1)': 1 }, [spend(4)])).toBeUndefined();
  });
});

describe('rounds', () => {
  it('reports the end of the round at the horizon and restarts on reset', () => {
    const simulator = model.createSimulator({ seed: 1 });
    // The sum's body extends to the end: sum_{?o} (on(?o) + budget), over the state before the step.
    expect(simulator.step([{ name: 'spend', args: [], value: 1 }])).toMatchObject({
      kind: 'ok',
      reward: 9,
      terminated: false,
    });
    expect(simulator.step([])).toMatchObject({ reward: 6, terminated: false });
    expect(simulator.step([])).toMatchObject({ reward: 6, rewardType: 'int', terminated: true });
    simulator.reset();
    expect(simulator.stateFluents().find((f) => f.name === 'budget')!.value).toBe(3);
    expect(simulator.step([])).toMatchObject({ terminated: false });
  });

  it('replays the same trajectory from the same seed, and another from another seed', () => {
    const noisy = loadRddl(
      testSources({
        pvariables: '    x(obj) : { state-fluent, real, default = 0.0 };',
        cpfs: "    x'(?o) = x(?o) + Normal(0, 1);",
        reward: 'sum_{?o : obj} x(?o)',
      }),
    );
    const trajectory = (seed: number) => {
      const simulator = noisy.createSimulator({ seed });
      return Array.from({ length: 5 }, () => {
        const outcome = simulator.step([]);
        return outcome.kind === 'ok' ? outcome.reward : NaN;
      });
    };
    expect(trajectory(4)).toEqual(trajectory(4));
    expect(trajectory(4)).not.toEqual(trajectory(5));
  });
});

describe('state invariants', () => {
  const invariantModel = loadRddl(
    testSources({
      pvariables: `    n : { state-fluent, int, default = 0 };
    grow : { action-fluent, bool, default = false };`,
      cpfs: "    n' = n + grow;",
      sections: '  state-invariants { n <= 1; };',
    }),
  );

  it('reports a broken invariant after the step', () => {
    const simulator = invariantModel.createSimulator({ seed: 1 });
    expect(simulator.step([turnOn('grow')]).kind).toBe('ok');
    const outcome = simulator.step([turnOn('grow')]);
    expect(outcome).toMatchObject({
      kind: 'error',
      message: 'state invariant is false in the new state: n <= 1 (line 11)',
    });
  });

  it('ignores invariants with rddlsim quirks, as its server does', () => {
    const simulator = invariantModel.createSimulator({ seed: 1, rddlsimQuirks: true });
    simulator.step([turnOn('grow')]);
    expect(simulator.step([turnOn('grow')]).kind).toBe('ok');
  });
});
