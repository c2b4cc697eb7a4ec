/**
 * The cost of `semantics: 'massim'` (the real server's `java.util.Random` in its order) against Protoplay's
 * own generator, measured in the same run: raw draws (`nextInt(bound)` with a bound that makes Java's
 * rejection loop work, and `nextDouble`), creating a simulation (map generation: the cave automaton's
 * random fill is one draw per cell) and stepping it with random move/skip agents with every percept built,
 * on the contest's two sample shapes.
 *
 * The machine is shared: each pair is warmed up first, then measured in alternating batches, and rates are
 * per second of this process's CPU time (median batch), which other processes' load does not lower.
 */
import type { MassimAction, MassimSemantics, MassimSimConfig } from '../../src/core/envs/massim/api';
import { createSimulation, sampleSimConfig } from '../../src/core/envs/massim/index';
import { JavaRandom } from '../../src/core/java/random';
import { Rng } from '../../src/core/random';
import { median, printTable } from '../lib';

const DRAWS = 1_000_000;
const STEPS = 100;
const DIRECTIONS = ['n', 's', 'e', 'w'];
const SHAPES: [string, MassimSimConfig][] = [
  ['2x20 agents, 70x70', sampleSimConfig('small')],
  ['2x40 agents, 100x100', sampleSimConfig('large')],
];

function draws(random: { nextInt(bound: number): number; nextFloat(): number }) {
  let sink = 0;
  return () => {
    for (let i = 0; i < DRAWS / 2; i++) sink += random.nextInt(1_073_741_825) + random.nextFloat();
    return sink;
  };
}

function steps(config: MassimSimConfig, semantics: MassimSemantics) {
  const policy = new Rng(5);
  return () => {
    const sim = createSimulation({ ...config, steps: STEPS }, { seed: 1, semantics });
    while (!sim.isFinished) {
      const actions = new Map<string, MassimAction>();
      for (const agent of sim.agents) {
        sim.requestActionPercept(agent);
        actions.set(
          agent,
          policy.nextInt(4) === 0
            ? { type: 'skip', p: [] }
            : { type: 'move', p: [DIRECTIONS[policy.nextInt(4)]!] },
        );
      }
      sim.step(actions);
    }
  };
}

/** CPU seconds of one call. */
function cpuSeconds(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

export default function () {
  const rows: (string | number)[][] = [['what', 'per CPU-second', 'x protoplay (same run)']];
  const pair = (label: string, unit: number, protoplay: () => unknown, massim: () => unknown) => {
    for (let i = 0; i < 3; i++) {
      protoplay();
      massim();
    }
    const times: [number[], number[]] = [[], []];
    for (let i = 0; i < 9; i++) {
      times[0].push(cpuSeconds(protoplay));
      times[1].push(cpuSeconds(massim));
    }
    const [base, java] = times.map((list) => unit / median(list)) as [number, number];
    rows.push([`${label}, protoplay (baseline)`, base, '1.0x']);
    rows.push([`${label}, massim`, java, `${(java / base).toFixed(2)}x`]);
  };
  pair('draws (nextInt + nextFloat)', DRAWS, draws(new Rng(1)), draws(new JavaRandom(1)));
  for (const [label, config] of SHAPES) {
    pair(
      `new simulation ${label}`,
      1,
      () => createSimulation(config, { seed: 1 }),
      () => createSimulation(config, { seed: 1, semantics: 'massim' }),
    );
    pair(
      `steps with percepts ${label} (its creation included)`,
      STEPS,
      steps(config, 'protoplay'),
      steps(config, 'massim'),
    );
  }
  printTable("MASSim: the real server's random numbers (massim) against Protoplay's (protoplay)", rows);
}
