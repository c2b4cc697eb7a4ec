/**
 * Cycles per second of the scavenger world with 12 scavengers (scenario C) and 21 x 11 legend
 * observations; the target is 1,000 cycles/s through the protocol. Baselines in the same run: the world
 * alone with random moves (no observation), then with every observation computed. Against them: the
 * whole protocol in memory (GAMA side and API side joined, every frame encoded and parsed) with random
 * moves as a plain function, the same recorded in a transcript, and `protoplay run gama` in this process
 * with the `greedy` sample (compiled by the policy runtime) and with a policy file in a worker thread.
 * Random moves never tag, so all twelve ask every cycle (requests/s counts the requests actually made).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommandLine } from '../../cli/command-line/dispatch';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import {
  SCAVENGER_ACTIONS,
  ScavengerWorld,
  findScavengerScenario,
  observe,
  observationWindow,
} from '../../src/core/envs/scavenger';
import { playGamaEpisodes } from '../../src/core/protocols/gama';
import { Rng } from '../../src/core/random';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { measureRate, printTable, type Rate } from '../lib';

const SCENARIO = findScavengerScenario('C')!;
const CYCLES = 1000;
const WINDOW = observationWindow();

/** A random policy that never tags: with tags most scavengers sit in time-out and nobody asks. */
const MOVES = SCAVENGER_ACTIONS.filter((action) => action !== 'tag');

function worldBatch(withObservations: boolean): () => void {
  return () => {
    const rng = new Rng(1);
    const world = new ScavengerWorld(SCENARIO, { seed: 1, maxCycles: CYCLES });
    while (!world.ended) {
      for (const scavenger of world.scavengers) {
        if (!world.isActive(scavenger.index)) continue;
        if (withObservations) observe(world, scavenger.index, WINDOW);
        world.takeReward(scavenger.index);
        world.act(scavenger.index, MOVES[rng.nextInt(MOVES.length)]!);
      }
      world.endCycle();
    }
  };
}

function protocolBatch(record: boolean): () => Promise<void> {
  return async () => {
    const rng = new Rng(1);
    await playGamaEpisodes({
      simulation: { scenario: SCENARIO, seed: 1, maxCycles: CYCLES },
      decide: () => MOVES[rng.nextInt(MOVES.length)]!,
      episodes: 1,
      ...(record ? { recorder: new TranscriptRecorder({ protocol: 'gama' }) } : {}),
    });
  };
}

/** Requests one batch makes: every cycle, each scavenger not in time-out asks once (and once more at the end). */
const requestsPerBatch = new Map<string, number>();

function commandBatch(label: string, policy: string, cwd: string, cycles: number): () => Promise<void> {
  return async () => {
    let output = '';
    const code = await runCommandLine(
      ['run', 'gama', '--scenario', 'C', '--policy', policy, '--cycles', String(cycles), '--json'],
      PROTOCOL_COMMANDS,
      { io: { stdout: { write: (text: string) => (output += text) }, stderr: { write: () => true }, cwd } },
    );
    if (code !== 0) throw new Error(`run gama exited with ${code}`);
    const [episode] = JSON.parse(output).episodes as {
      cycles: number;
      scavengers: { timeOutCycles: number }[];
    }[];
    const requests = episode!.scavengers.reduce((sum, s) => sum + episode!.cycles - s.timeOutCycles + 1, 0);
    requestsPerBatch.set(label, requests);
  };
}

export default async function () {
  const dir = await mkdtemp(join(tmpdir(), 'gama-bench-'));
  await writeFile(
    join(dir, 'wanderer.ts'),
    `const MOVES = ['idle', 'move_ahead', 'move_right', 'move_left', 'move_back', 'face_right', 'face_left'] as const;
export function act(observation: number[][], reward: number, scavenger: unknown, context: { random(): number }) {
  return MOVES[Math.floor(context.random() * MOVES.length)];
}\n`,
  );
  const rates: Rate[] = [];
  try {
    const steady = { warmup: 3, repeats: 7 };
    rates.push(await measureRate('world only, random moves (baseline)', CYCLES, worldBatch(false), steady));
    rates.push(await measureRate('world + 21x11 observations (baseline)', CYCLES, worldBatch(true), steady));
    rates.push(
      await measureRate('protocol in memory, policy a function', CYCLES, protocolBatch(false), steady),
    );
    rates.push(await measureRate('protocol in memory, recorded', CYCLES, protocolBatch(true), steady));
    const sample = 'run gama --policy greedy (sample, in-process)';
    const sampleBatch = commandBatch(sample, 'greedy', dir, CYCLES);
    rates.push(await measureRate(sample, CYCLES, sampleBatch, { warmup: 2, repeats: 5 }));
    // A worker thread answers each request over a message channel: fewer cycles keep the batch short.
    const file = 'run gama --policy file.ts (worker thread)';
    const fileBatch = commandBatch(file, 'wanderer.ts', dir, 200);
    rates.push(await measureRate(file, 200, fileBatch, { warmup: 1, repeats: 3 }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const baseline = rates[0]!.opsPerSecond;
  printTable('GAMA scavengers, scenario C (12 scavengers), 21x11 legend observations', [
    ['', 'cycles/s', 'requests/s', 'vs world only', 'target 1,000 cycles/s'],
    ...rates.map((rate) => [
      rate.label,
      rate.opsPerSecond,
      (rate.opsPerSecond * (requestsPerBatch.get(rate.label) ?? 12 * rate.ops)) / rate.ops,
      `${(rate.opsPerSecond / baseline).toFixed(3)}x`,
      rate.opsPerSecond >= 1000 ? 'met' : 'not met',
    ]),
  ]);
}
