/**
 * The course server's application: the outstanding-first scheduler, run-level errors as messages, abandons,
 * ratings, the per-action transactions around a crash, and the real server's bugs with and without
 * `faithfulBugs`.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ENV_SETTINGS,
  EnvironmentCrash,
  type AisysEnvironmentClass,
  type JsonValue,
} from '../../../../src/core/envs/aisys/api';
import { NIM_CLASS } from '../../../../src/core/envs/aisys/nim';
import { AisysServer, HttpProblem } from '../../../../src/core/protocols/aisys/server';
import type { AisysAction, AisysRequest } from '../../../../src/core/protocols/aisys/messages';
import { Rng } from '../../../../src/core/random';
import { PROBE_CLASS } from './probe-env';

/** A counter environment: percept = count, action n adds n, a run ends when the count reaches 3. */
const COUNTER: AisysEnvironmentClass = {
  id: 'counter',
  label: 'Counter',
  create: (config) => ({
    settings: {
      ...DEFAULT_ENV_SETTINGS,
      minRunsForFullyEvaluated: 3,
      canAbandonRuns: true,
      ...(config as object),
    },
    newRun: () => 0,
    percept: (run) => run.state,
    act(action, run) {
      if (typeof action !== 'number') return { ok: false, message: 'numbers only' };
      if (action === 99) throw new EnvironmentCrash('RuntimeError', 'boom');
      const count = (run.state as number) + action;
      return count >= 3
        ? { ok: true, state: count, outcome: count }
        : { ok: true, state: count, message: `now ${count}` };
    },
    abandonOutcome: () => -1,
  }),
};

function setUp({ faithfulBugs = true, settings = {} as Record<string, JsonValue> } = {}) {
  const server = new AisysServer({ faithfulBugs, randomForRun: (id) => new Rng(id) });
  server.makeEnvironment('c', COUNTER, settings);
  server.makeAgent('c', 'ann', 'pw');
  server.makeAgent('c', 'bob', 'pw');
  const act = (
    actions: [string, number, number][] = [],
    { agent = 'ann', parallel = true, abandon = [] as string[] } = {},
  ) =>
    server.act('c', {
      agent,
      pwd: 'pw',
      actions: actions.map(([run, actNo, action]): AisysAction => ({ run, act_no: actNo, action })),
      parallel_runs: parallel,
      to_abandon: abandon,
      client: '',
    } satisfies AisysRequest);
  return { server, act };
}

const asked = (response: { action_requests: { run: string; act_no: number }[] }) =>
  response.action_requests.map((r) => `${r.run}#${r.act_no}`);

describe('the scheduler', () => {
  it('starts N runs with global ids and asks for all of them', () => {
    const { act } = setUp();
    const first = act();
    expect(asked(first)).toEqual(['1#0', '2#0', '3#0', '4#0', '5#0']);
    expect(first.active_runs).toEqual(['1', '2', '3', '4', '5']);
    // Another agent's runs continue the same numbering.
    expect(asked(act([], { agent: 'bob' }))).toEqual(['6#0', '7#0', '8#0', '9#0', '10#0']);
  });

  it('asks only for outstanding runs, and starts none, until every one is answered', () => {
    const { act } = setUp();
    act();
    const partly = act([
      ['1', 0, 1],
      ['2', 0, 1],
      ['3', 0, 1],
    ]);
    expect(asked(partly)).toEqual(['4#0', '5#0']);
    expect(partly.active_runs).toEqual(['1', '2', '3', '4', '5']);
    expect(asked(act())).toEqual(['4#0', '5#0']);
    const rest = act([
      ['4', 0, 1],
      ['5', 0, 1],
    ]);
    expect(asked(rest)).toEqual(['1#1', '2#1', '3#1', '4#1', '5#1']);
  });

  it('replaces finished runs only once nothing is outstanding', () => {
    const { act } = setUp();
    act();
    const finished = act([
      ['1', 0, 3],
      ['2', 0, 1],
      ['3', 0, 1],
      ['4', 0, 1],
      ['5', 0, 1],
    ]);
    expect(finished.finished_runs).toEqual({ '1': 3 });
    expect(asked(finished)).toEqual(['2#1', '3#1', '4#1', '5#1', '6#0']);
  });

  it('without parallel runs asks for one run: the lowest outstanding, then the lowest unfinished', () => {
    const { act } = setUp();
    act();
    expect(asked(act([], { parallel: false }))).toEqual(['1#0']);
    // All five stay outstanding: they are served lowest id first.
    expect(asked(act([['1', 0, 1]], { parallel: false }))).toEqual(['2#0']);
    for (const run of ['2', '3', '4']) act([[run, 0, 1]], { parallel: false });
    const last = act([['5', 0, 1]], { parallel: false });
    // Nothing outstanding any more: the lowest-id run again, and no new run.
    expect(asked(last)).toEqual(['1#1']);
    expect(asked(act([['1', 1, 1]], { parallel: false }))).toEqual(['1#2']);
  });

  it('keeps runs forever: a new session first gets the old requests, with their action numbers', () => {
    const { act } = setUp();
    act();
    act([['1', 0, 1]]);
    const resumed = act();
    expect(asked(resumed)).toEqual(['2#0', '3#0', '4#0', '5#0']);
  });
});

describe('run-level problems are messages', () => {
  it('reports unknown runs, other agents runs, wrong action numbers and refusals, and keeps the run outstanding', () => {
    const { act } = setUp();
    act();
    act([], { agent: 'bob' });
    const response = act([
      ['999', 0, 1],
      ['abc', 0, 1],
      ['6', 0, 1],
      ['1', 4, 1],
      ['2', 0, 'x' as unknown as number],
      ['003', 0, 1],
    ]);
    expect(response.messages).toEqual([
      { content: 'Invalid run id', run: '999', type: 'error' },
      { content: 'Invalid run id', run: 'abc', type: 'error' },
      { content: 'This run does not belong to your agent', run: '6', type: 'error' },
      {
        content: 'Wrong action number 4 (the action might have been for an earlier action request)',
        run: '1',
        type: 'error',
      },
      { content: 'numbers only', run: '2', type: 'error' },
      { content: 'now 1', run: '003', type: 'info' },
    ]);
    // Runs 1, 2, 4 and 5 are still waiting for their first action.
    expect(asked(response)).toEqual(['1#0', '2#0', '4#0', '5#0']);
  });

  it('answers a rejection without a message with the server text', () => {
    const server = new AisysServer({ randomForRun: (id) => new Rng(id) });
    server.makeEnvironment('p', PROBE_CLASS, {});
    server.makeAgent('p', 'a', 'pw');
    const request = (actions: AisysAction[]) =>
      server.act('p', { agent: 'a', pwd: 'pw', actions, parallel_runs: true, to_abandon: [], client: '' });
    request([]);
    expect(request([{ run: '1', act_no: 0, action: 'jump' }]).messages).toEqual([
      { content: "unknown action 'jump'", run: '1', type: 'error' },
    ]);
  });
});

describe('authentication and request-level errors', () => {
  it('checks the environment, the agent, the password, the lock, and abandoning, in that order', () => {
    const { server } = setUp();
    const fail = (envId: string, request: Partial<AisysRequest>) => {
      try {
        server.act(envId, {
          agent: 'ann',
          pwd: 'pw',
          actions: [],
          parallel_runs: true,
          to_abandon: [],
          client: '',
          ...request,
        });
      } catch (error) {
        return error instanceof HttpProblem ? `${error.status} ${error.description}` : String(error);
      }
      return 'accepted';
    };
    expect(fail('nope', { pwd: 'wrong' })).toBe('400 No such environment nope');
    expect(fail('c', { agent: 'zed' })).toBe('401 unknown agent');
    expect(fail('c', { pwd: 'wrong' })).toBe('401 wrong password');
    server.agents.get('c/ann')!.active = false;
    expect(fail('c', {})).toBe('401 the agent is not active');
    server.agents.get('c/ann')!.active = true;
    server.makeEnvironment('p', PROBE_CLASS, {});
    server.makeAgent('p', 'ann', 'pw');
    expect(fail('p', { to_abandon: ['1'] })).toBe('400 This environment does not support abandoning runs');
  });
});

describe('abandons', () => {
  it('come first, count the abandon outcome, and warn', () => {
    const { act } = setUp();
    act();
    const response = act([['2', 0, 1]], { abandon: ['1'] });
    expect(response.messages[0]).toEqual({
      content: 'Run abandoned (as requested by client)',
      run: '1',
      type: 'warning',
    });
    expect(response.finished_runs).toEqual({ '1': -1 });
    expect(response.active_runs).toEqual(['2', '3', '4', '5']);
  });

  it('count a finished run again with the faithful bugs, and refuse it without them', () => {
    for (const faithfulBugs of [true, false]) {
      const { server, act } = setUp({ faithfulBugs });
      act();
      act([['1', 0, 3]]);
      const again = act([], { abandon: ['1'] });
      if (faithfulBugs) {
        expect(again.finished_runs).toEqual({ '1': -1 });
        expect(server.results.get('c/ann')!.totalRuns).toBe(2);
      } else {
        expect(again.finished_runs).toEqual({});
        expect(again.messages).toEqual([
          { content: 'This run has already finished', run: '1', type: 'error' },
        ]);
        expect(server.results.get('c/ann')!.totalRuns).toBe(1);
      }
    }
  });

  it('let an action on the run abandoned in the same request count it twice (faithful bugs)', () => {
    const { server, act } = setUp();
    act();
    const response = act([['1', 0, 3]], { abandon: ['1'] });
    expect(response.finished_runs).toEqual({ '1': 3 });
    expect(server.results.get('c/ann')!.totalRuns).toBe(2);
  });
});

describe('ratings', () => {
  it('average the last N outcomes; the best moves only once fully evaluated', () => {
    const { server, act } = setUp();
    act();
    const finish = (run: string, actNo: number, action: number) =>
      act([[run, actNo, action]], { parallel: false });
    finish('1', 0, 5); // outcome 5
    finish('2', 0, 3); // outcome 3
    let results = server.results.get('c/ann')!;
    expect(results).toMatchObject({ totalRuns: 2, fullyEvaluated: false, bestRating: 0, currentRating: 4 });
    finish('3', 0, 4); // outcome 4: fully evaluated at 3 runs
    results = server.results.get('c/ann')!;
    expect(results).toMatchObject({ totalRuns: 3, fullyEvaluated: true, bestRating: 4, currentRating: 4 });
    finish('4', 0, 3); // window of 3: 3, 4, 3
    results = server.results.get('c/ann')!;
    expect(results.currentRating).toBeCloseTo(10 / 3);
    expect(results.bestRating).toBe(4);
  });

  it('keep the lowest with the min objective', () => {
    const { server, act } = setUp({ settings: { ratingObjective: 'min', initialRating: 100 } });
    act();
    for (const [run, outcome] of [
      ['1', 9],
      ['2', 3],
      ['3', 3],
      ['4', 3],
    ] as const)
      act([[run, 0, outcome]], { parallel: false });
    expect(server.results.get('c/ann')).toMatchObject({ bestRating: 3, currentRating: 3 });
  });
});

describe('a crash', () => {
  it('keeps the actions before it and loses the response', () => {
    const { server, act } = setUp();
    act();
    expect(() =>
      act([
        ['1', 0, 1],
        ['2', 0, 99],
        ['3', 0, 1],
      ]),
    ).toThrow(EnvironmentCrash);
    expect(server.runs.get(1)!.history).toHaveLength(1);
    expect(server.runs.get(2)!.history).toHaveLength(0);
    expect(server.runs.get(3)!.history).toHaveLength(0);
    expect(asked(act())).toEqual(['2#0', '3#0', '4#0', '5#0']);
  });
});

describe('finished runs', () => {
  it('reach the environment again with the faithful bugs, and are refused without them', () => {
    const nim = (faithfulBugs: boolean) => {
      const server = new AisysServer({ faithfulBugs, randomForRun: (id) => new Rng(id) });
      server.makeEnvironment('n', NIM_CLASS, { strong: true, random_start: false });
      server.makeAgent('n', 'a', 'pw');
      const request = (actions: AisysAction[]) =>
        server.act('n', { agent: 'a', pwd: 'pw', actions, parallel_runs: false, to_abandon: [], client: '' });
      request([]);
      // Perfect play from 10 wins in three moves; then one action too many.
      let actNo = 0;
      while (!server.runs.get(1)!.finished) {
        const { remaining } = server.runs.get(1)!.state as { remaining: number };
        request([{ run: '1', act_no: actNo++, action: remaining % 4 || 1 }]);
      }
      return request([{ run: '1', act_no: actNo, action: 1 }]).messages;
    };
    expect(nim(true)).toEqual([
      { content: 'You tried to take 1 objects, but only 0 are remaining', run: '1', type: 'error' },
    ]);
    expect(nim(false)).toEqual([{ content: 'This run has already finished', run: '1', type: 'error' }]);
  });
});
