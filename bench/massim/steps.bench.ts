/**
 * Steps per second of the MASSim scenario with trivial agents (random move or skip), computing every
 * agent's percept every step as the server must, on the contest's two sample shapes, next to the real
 * server's rate measured on this kind of machine (research: ~43 and ~23 steps/s). Baseline in the same
 * run: the same loop without percepts, so the cost of percepts is visible. Also the percept size.
 */
import type { MassimAction, MassimSimConfig, MassimSimulation } from '../../src/core/envs/massim/api';
import { createSimulation, sampleSimConfig } from '../../src/core/envs/massim/index';
import { Rng } from '../../src/core/random';
import { measureRate, printTable } from '../lib';

const SHAPES: { label: string; config: MassimSimConfig; realServerStepsPerSecond: number }[] = [
  { label: '2x20 agents, 70x70', config: sampleSimConfig('small'), realServerStepsPerSecond: 43 },
  { label: '2x40 agents, 100x100', config: sampleSimConfig('large'), realServerStepsPerSecond: 23 },
];

const DIRECTIONS = ['n', 's', 'e', 'w'];
const STEPS_PER_BATCH = 200;

/** Runs batches of steps on one simulation long enough for every batch (map generation is not timed). */
function makeRunner(config: MassimSimConfig, percepts: 'none' | 'objects' | 'json') {
  const rng = new Rng(99);
  const sim: MassimSimulation = createSimulation({ ...config, steps: 1_000_000 }, { seed: 1 });
  let bytes = 0;
  let perceptCount = 0;
  const batch = () => {
    for (let i = 0; i < STEPS_PER_BATCH; i++) {
      for (const agent of sim.agents) {
        if (percepts === 'objects') sim.requestActionPercept(agent);
        else if (percepts === 'json') {
          bytes += JSON.stringify(sim.requestActionPercept(agent)).length;
          perceptCount++;
        }
      }
      const actions = new Map<string, MassimAction>();
      for (const agent of sim.agents) {
        actions.set(
          agent,
          rng.nextInt(4) === 0 ? { type: 'skip', p: [] } : { type: 'move', p: [DIRECTIONS[rng.nextInt(4)]!] },
        );
      }
      sim.step(actions);
    }
  };
  return { batch, meanBytes: () => bytes / perceptCount };
}

export default async function () {
  const rows: (string | number)[][] = [['setup', 'steps/s', 'x real server', 'share of step']];
  const sizes: (string | number)[][] = [
    ['setup', 'percept JSON bytes / agent / step', 'per step (all agents)'],
  ];
  for (const shape of SHAPES) {
    const without = await measureRate(
      `${shape.label}, no percepts`,
      STEPS_PER_BATCH,
      makeRunner(shape.config, 'none').batch,
    );
    const objects = await measureRate(
      `${shape.label}, percepts`,
      STEPS_PER_BATCH,
      makeRunner(shape.config, 'objects').batch,
    );
    const json = makeRunner(shape.config, 'json');
    const serialised = await measureRate(
      `${shape.label}, percepts + JSON text`,
      STEPS_PER_BATCH,
      json.batch,
      options,
    );
    for (const rate of [without, objects, serialised]) {
      rows.push([
        rate.label,
        rate.opsPerSecond,
        `${(rate.opsPerSecond / shape.realServerStepsPerSecond).toFixed(0)}x`,
        `${((without.opsPerSecond / rate.opsPerSecond) * 100).toFixed(0)}% world`,
      ]);
    }
    rows.push([`${shape.label}, real server (research)`, shape.realServerStepsPerSecond, '1x', '']);
    const agents = shape.config.agentsPerTeam * 2;
    sizes.push([shape.label, json.meanBytes(), `${((json.meanBytes() * agents) / 1024).toFixed(0)} KiB`]);
  }
  printTable('MASSim steps/s, random move/skip agents (baseline: the same loop without percepts)', rows);
  printTable('MASSim percept size', sizes);
}
