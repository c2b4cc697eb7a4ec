/**
 * Steps per second of the MASSim scenario with trivial agents (random move or skip), computing every
 * agent's percept every step as the server must, on the contest's two sample shapes, next to the real
 * server's rate measured separately on this kind of machine (~43 and ~23 steps/s). Baselines in the same
 * run: the same loop without percepts (the world alone), with percept objects, and with the objects turned
 * into JSON text by `JSON.stringify` (what a server sends); against them the percepts written as JSON
 * phrases (what the emulated host records) and those phrases joined into the same text.
 *
 * The machine is shared, so besides the wall-clock rate (median batch) the table gives steps per second of
 * this process's CPU time over the same batches, which other processes' load does not lower.
 */
import type { MassimAction, MassimSimConfig } from '../../src/core/envs/massim/api';
import { createSimulation, sampleSimConfig } from '../../src/core/envs/massim/index';
import { Rng } from '../../src/core/random';
import { PhraseList } from '../../src/core/transcript/store/phrases';
import { measureRate, printTable } from '../lib';

const SHAPES: { label: string; config: MassimSimConfig; realServerStepsPerSecond: number }[] = [
  { label: '2x20 agents, 70x70', config: sampleSimConfig('small'), realServerStepsPerSecond: 43 },
  { label: '2x40 agents, 100x100', config: sampleSimConfig('large'), realServerStepsPerSecond: 23 },
];

const DIRECTIONS = ['n', 's', 'e', 'w'];
const STEPS_PER_BATCH = 200;
type PerceptMode = 'none' | 'objects' | 'stringify' | 'phrases' | 'phrase-text';

const MODES: [string, PerceptMode][] = [
  ['world only (baseline)', 'none'],
  ['percept objects', 'objects'],
  ['percepts as JSON.stringify text (baseline)', 'stringify'],
  ['percepts as JSON phrases', 'phrases'],
  ['percepts as JSON phrases joined to text', 'phrase-text'],
];

/** Batches of steps on one simulation long enough for all of them (map generation is not timed). */
function makeRunner(config: MassimSimConfig, mode: PerceptMode) {
  const rng = new Rng(99);
  const sim = createSimulation({ ...config, steps: 1_000_000 }, { seed: 1 });
  const phrases = new PhraseList();
  let characters = 0;
  let percepts = 0;
  let steps = 0;
  let cpuMicros = 0;
  const perceive = (agent: string) => {
    switch (mode) {
      case 'objects':
        sim.requestActionPercept(agent);
        return;
      case 'stringify':
        characters += JSON.stringify(sim.requestActionPercept(agent)).length;
        percepts++;
        return;
      case 'phrases':
        phrases.clear();
        sim.writeRequestActionPercept(agent, phrases);
        return;
      case 'phrase-text':
        phrases.clear();
        sim.writeRequestActionPercept(agent, phrases);
        // Reading a character makes the engine flatten the joined text, as sending it would.
        characters += phrases.text().charCodeAt(0);
        return;
    }
  };
  const batch = () => {
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < STEPS_PER_BATCH; i++) {
      if (mode !== 'none') for (const agent of sim.agents) perceive(agent);
      const actions = new Map<string, MassimAction>();
      for (const agent of sim.agents) {
        const move = rng.nextInt(4) !== 0;
        actions.set(
          agent,
          move ? { type: 'move', p: [DIRECTIONS[rng.nextInt(4)]!] } : { type: 'skip', p: [] },
        );
      }
      sim.step(actions);
    }
    const cpu = process.cpuUsage(cpuStart);
    cpuMicros += cpu.user + cpu.system;
    steps += STEPS_PER_BATCH;
  };
  return {
    batch,
    meanCharacters: () => characters / percepts,
    stepsPerCpuSecond: () => steps / (cpuMicros / 1e6),
  };
}

export default async function () {
  // Compile the hot code before anything is measured, so the first row does not pay for it.
  for (const shape of SHAPES)
    for (const [, mode] of MODES) for (let i = 0; i < 2; i++) makeRunner(shape.config, mode).batch();
  const rows: (string | number)[][] = [
    ['setup', 'steps/s (wall)', 'x real server', 'steps/CPU-s', 'x real server', 'x JSON.stringify (CPU)'],
  ];
  const sizes: (string | number)[][] = [['setup', 'characters/agent/step', 'KiB/step (all agents)']];
  for (const shape of SHAPES) {
    const cpuRates = new Map<PerceptMode, number>();
    const shapeRows: (string | number)[][] = [];
    for (const [what, mode] of MODES) {
      const runner = makeRunner(shape.config, mode);
      const rate = await measureRate(`${shape.label}: ${what}`, STEPS_PER_BATCH, runner.batch, {
        warmup: 2,
        repeats: 7,
      });
      const perCpuSecond = runner.stepsPerCpuSecond();
      cpuRates.set(mode, perCpuSecond);
      shapeRows.push([
        rate.label,
        rate.opsPerSecond,
        `${(rate.opsPerSecond / shape.realServerStepsPerSecond).toFixed(0)}x`,
        perCpuSecond,
        `${(perCpuSecond / shape.realServerStepsPerSecond).toFixed(0)}x`,
      ]);
      if (mode === 'stringify') {
        const agents = shape.config.agentsPerTeam * 2;
        sizes.push([
          shape.label,
          runner.meanCharacters(),
          ((runner.meanCharacters() * agents) / 1024).toFixed(0),
        ]);
      }
    }
    const baseline = cpuRates.get('stringify')!;
    for (const row of shapeRows) {
      const mode = MODES.find(([what]) => String(row[0]).endsWith(what))![1];
      row.push(`${(cpuRates.get(mode)! / baseline).toFixed(1)}x`);
      rows.push(row);
    }
    rows.push([
      `${shape.label}: real server (measured separately, wall)`,
      shape.realServerStepsPerSecond,
      '1x',
      '',
      '',
      '',
    ]);
  }
  printTable('MASSim steps/s with random move/skip agents', rows);
  printTable('MASSim percept size (JSON text)', sizes);
}
