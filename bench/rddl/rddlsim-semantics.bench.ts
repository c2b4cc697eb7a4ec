/**
 * Two RDDL capabilities measured through `loadRddl` and `step`, as users run them:
 *
 * - Loading under rddlsim's semantics replays rddlsim's fluent ordering walk for cpfs that re-bind a
 *   variable. A relay domain whose interm fluent re-binds `?l` (`exists_{?l}[exists_{?l}[go(?r, ?l)]]`)
 *   is loaded with `rddlsimQuirks` and without (the baseline, same run) at growing sizes; the ratio is
 *   what the replay adds to a load.
 * - Under rddlsim's semantics, random interm fluents are drawn in the order of rddlsim's dependency graph,
 *   which loading rebuilds (every cpf's parents, Java hash order of the ground names, a depth-first sort),
 *   and round k of a session evaluates them k times. A network of stations with random interm fluents is
 *   loaded with `rddlsimQuirks` and without (the baseline), and played in rounds 1 and 3 of a session.
 * - Vector-valued actions: rovers moving by `< @dx, @dy >`, one rover set per step from the text form,
 *   against the same domain with two scalar actions `dx(?r)`, `dy(?r)` (the baseline) set the same way.
 */
import { loadRddl } from '../../src/core/envs/rddl';
import type { GroundAction } from '../../src/core/envs/rddl/api';
import { measureRate, printTable } from '../lib';

function relay(runners: number, spots: number): string {
  const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
  return `domain relay {
  types { runner : object; spot : object; };
  pvariables {
    at(runner, spot) : { state-fluent, bool, default = false };
    go(runner, spot) : { action-fluent, bool, default = false };
    moving(runner) : { interm-fluent, bool, level = 1 };
  };
  cpfs {
    moving(?r) = exists_{?l : spot}[exists_{?l : spot}[go(?r, ?l)]];
    at'(?r, ?l) = if (moving(?r)) then go(?r, ?l) else at(?r, ?l);
  };
  reward = sum_{?r : runner}[moving(?r)];
}
instance relay_inst {
  domain = relay;
  objects { runner : {${names('r', runners).join(', ')}}; spot : {${names('s', spots).join(', ')}}; };
  max-nondef-actions = pos-inf;
  horizon = 40;
  discount = 1.0;
}
`;
}

function stations(count: number): string {
  const names = Array.from({ length: count }, (_, i) => `st${(i * 7919) % 100_003}`);
  const links = names.map((name, i) => `LINK(${name}, ${names[(i + 1) % count]!});`).join(' ');
  return `domain net {
  types { station : object; };
  pvariables {
    LINK(station, station) : { non-fluent, bool, default = false };
    up(station) : { state-fluent, bool, default = true };
    spike(station) : { interm-fluent, real };
    fault(station) : { interm-fluent, bool };
  };
  cpfs {
    spike(?s) = Uniform(0.0, 1.0) + (if (up(?s)) then 0.0 else 0.5);
    fault(?s) = Bernoulli(0.05 + 0.1 * (sum_{?t : station} [LINK(?t, ?s) * (spike(?t) > 0.9)]));
    up'(?s) = up(?s) ^ ~fault(?s) | Bernoulli(0.2);
  };
  reward = sum_{?s : station} [up'(?s)];
}
instance net_inst { domain = net; objects { station : {${names.join(', ')}}; };
  non-fluents { ${links} }; horizon = 40; discount = 1.0; }
`;
}

function rovers(count: number, vector: boolean): string {
  const names = Array.from({ length: count }, (_, i) => `r${i + 1}`).join(', ');
  return `domain rovers {
  types { rover : object; motion : <@dx : real, @dy : real>; };
  pvariables {
    ${
      vector
        ? 'move(rover) : { action-fluent, motion, default = < @dx : 0.0, @dy : 0.0 > };'
        : `dx(rover) : { action-fluent, real, default = 0.0 };
    dy(rover) : { action-fluent, real, default = 0.0 };`
    }
    x(rover) : { state-fluent, real, default = 0.0 };
    y(rover) : { state-fluent, real, default = 0.0 };
  };
  cpfs {
    x'(?r) = x(?r) + ${vector ? 'move(?r).@dx' : 'dx(?r)'};
    y'(?r) = y(?r) + ${vector ? 'move(?r).@dy' : 'dy(?r)'};
  };
  reward = sum_{?r : rover}[x(?r) + y(?r)];
}
instance rovers_inst { domain = rovers; objects { rover : {${names}}; }; max-nondef-actions = 2; horizon = 40; discount = 1.0; }
`;
}

export default async function run(): Promise<void> {
  const loadRows: (string | number)[][] = [
    ['runners x spots', 'load ms (language)', 'load ms (rddlsim, walk replayed)', 'ratio'],
  ];
  for (const [runners, spots] of [
    [10, 10],
    [50, 50],
    [100, 100],
  ] as const) {
    const sources = [{ name: 'relay.rddl', text: relay(runners, spots) }];
    const plain = await measureRate('language', 1, () => loadRddl(sources), { warmup: 1, repeats: 5 });
    const quirks = await measureRate('rddlsim', 1, () => loadRddl(sources, { rddlsimQuirks: true }), {
      warmup: 1,
      repeats: 5,
    });
    loadRows.push([
      `${runners} x ${spots}`,
      plain.seconds * 1000,
      quirks.seconds * 1000,
      `${(quirks.seconds / plain.seconds).toFixed(2)}x`,
    ]);
  }
  printTable('Loading a domain that re-binds a variable, with and without the ordering replay', loadRows);

  const intermRows: (string | number)[][] = [
    [
      'stations',
      'load ms (language)',
      'load ms (rddlsim, graph rebuilt)',
      'ratio',
      'steps/s (rddlsim, round 1)',
      'steps/s (rddlsim, round 3)',
      'ratio',
    ],
  ];
  for (const count of [10, 100, 300]) {
    const sources = [{ name: 'net.rddl', text: stations(count) }];
    const plain = await measureRate('language', 1, () => loadRddl(sources), { warmup: 1, repeats: 3 });
    const quirks = await measureRate('rddlsim', 1, () => loadRddl(sources, { rddlsimQuirks: true }), {
      warmup: 1,
      repeats: 3,
    });
    const model = loadRddl(sources, { rddlsimQuirks: true });
    const steps = Math.max(200, Math.round(200_000 / count));
    const rate = async (round: number) => {
      const sim = model.createSimulator({ seed: 1, rddlsimQuirks: true, generator: 'rddlsim' });
      for (let r = 0; r < round; r++) sim.reset();
      return measureRate(`round ${round}`, steps, () => {
        for (let i = 0; i < steps; i++) sim.step([]);
      });
    };
    const first = await rate(1);
    const third = await rate(3);
    intermRows.push([
      count,
      plain.seconds * 1000,
      quirks.seconds * 1000,
      `${(quirks.seconds / plain.seconds).toFixed(2)}x`,
      first.opsPerSecond,
      third.opsPerSecond,
      `${(third.opsPerSecond / first.opsPerSecond).toFixed(2)}x`,
    ]);
  }
  printTable(
    "Random interm fluents under rddlsim's semantics: loading (its graph rebuilt) and round 3 of a session (interm fluents evaluated 3 times)",
    intermRows,
  );

  const stepRows: (string | number)[][] = [
    ['rovers', 'steps/s (2 scalar actions)', 'steps/s (1 vector action)', 'ratio'],
  ];
  const STEPS = 20_000;
  for (const count of [10, 100]) {
    const scalar = loadRddl([{ name: 'rovers.rddl', text: rovers(count, false) }]).createSimulator({
      seed: 1,
    });
    const vector = loadRddl([{ name: 'rovers.rddl', text: rovers(count, true) }]).createSimulator({
      seed: 1,
    });
    const scalarActions: GroundAction[][] = [];
    const vectorActions: GroundAction[][] = [];
    for (let i = 0; i < count; i++) {
      const args = [`r${i + 1}`];
      scalarActions.push([
        { name: 'dx', args, value: 0.5 },
        { name: 'dy', args, value: -0.5 },
      ]);
      vectorActions.push([{ name: 'move', args, value: '< @dx: 0.5, @dy: -0.5 >' }]);
    }
    const play = (sim: typeof scalar, actions: GroundAction[][]) => () => {
      sim.reset();
      for (let i = 0; i < STEPS; i++) {
        if (i % 40 === 0) sim.reset();
        sim.step(actions[i % count]!);
      }
    };
    const base = await measureRate('scalar', STEPS, play(scalar, scalarActions));
    const vec = await measureRate('vector', STEPS, play(vector, vectorActions));
    stepRows.push([
      count,
      base.opsPerSecond,
      vec.opsPerSecond,
      `${(vec.opsPerSecond / base.opsPerSecond).toFixed(2)}x`,
    ]);
  }
  printTable('Steps setting a vector-valued action from its text, against two scalar actions', stepRows);
}
