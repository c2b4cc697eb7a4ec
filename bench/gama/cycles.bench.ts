/**
 * Cycles per second of the scavenger world with 12 scavengers (scenario C) and 21 x 11 legend
 * observations; the target is 1,000 cycles/s through the protocol. Baselines in the same run: the world
 * alone with random moves (no observation), then with every observation computed. Against them: the
 * whole protocol in memory (GAMA side and API side joined, every frame encoded and parsed) with random
 * moves as a plain function, the same recorded in a transcript, and `protoplay run gama` in this process
 * with the `greedy` sample (compiled by the policy runtime) and with a policy file in a worker thread (the
 * episodes played in the thread beside the policy, a chunk of cycles per round trip). Before that path, a
 * policy file in a thread answered each request over a message channel; that path (still the API side's
 * own, as `serve gama` plays it) is measured in the same run for comparison.
 * Random moves never tag, so all twelve ask every cycle (requests/s counts the requests actually made).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommandLine } from '../../cli/command-line/dispatch';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import { prepareGamaPolicy } from '../../cli/protocols/gama/policies';
import { playInThread } from '../../cli/protocols/gama/run';
import { loadPolicyFile } from '../../cli/policy/policy-file';
import { GAMA_CHUNK_SLACK_MS } from '../../src/core/protocols/gama/chunked-play';
import {
  SCAVENGER_ACTIONS,
  ScavengerWorld,
  findScavengerScenario,
  observe,
  observationWindow,
} from '../../src/core/envs/scavenger';
import { gamaProtocol, playGamaEpisodes } from '../../src/core/protocols/gama';
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

/** A policy file loaded once in a worker thread that answers each request over a message channel. */
async function roundTripBatch(cwd: string, cycles: number) {
  const policy = await prepareGamaPolicy('wanderer.ts', {
    cwd,
    seed: 1,
    budgetMs: 1000,
    onPolicyError: 'stop',
  });
  return {
    batch: async () => {
      await playGamaEpisodes({
        simulation: { scenario: SCENARIO, seed: 1, maxCycles: cycles },
        decide: policy.decide,
        episodes: 1,
      });
    },
    dispose: () => policy.dispose(),
  };
}

/** A policy file loaded once in a worker thread, the episodes played in the thread beside it. */
async function inThreadBatch(cwd: string, cycles: number, record: boolean) {
  const loaded = await loadPolicyFile('wanderer.ts', {
    cwd,
    seed: 1,
    protocol: gamaProtocol,
    budgetMs: 1000 + GAMA_CHUNK_SLACK_MS,
  });
  return {
    batch: async () => {
      const fault = await playInThread(loaded.supervisor, {
        plan: {
          simulation: { scenario: SCENARIO, seed: 1, maxCycles: cycles },
          episodes: 1,
          record,
          recordWorld: false,
          budgetMs: 1000,
          onPolicyError: 'stop',
          fileName: 'wanderer.ts',
        },
        recorder: record ? new TranscriptRecorder({ protocol: 'gama' }) : undefined,
        signal: { aborted: false },
        onEpisodeEnd: () => undefined,
      });
      if (fault) throw new Error(fault);
    },
    dispose: () => loaded.supervisor.dispose(),
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
    // The thread is started and the policy loaded once, outside the measure: only the play counts.
    // A round trip per request is slow: fewer cycles keep the batch short.
    const roundTrip = await roundTripBatch(dir, 200);
    const before = 'policy file in a worker thread, a round trip per request (before)';
    rates.push(await measureRate(before, 200, roundTrip.batch, { warmup: 1, repeats: 3 }));
    roundTrip.dispose();
    for (const record of [false, true]) {
      const inThread = await inThreadBatch(dir, CYCLES, record);
      const label = `policy file, the episodes in its worker thread${record ? ', recorded' : ''}`;
      rates.push(await measureRate(label, CYCLES, inThread.batch, { warmup: 1, repeats: 5 }));
      inThread.dispose();
    }
    // The whole command, the thread's start and the policy's compiling included.
    const file = 'run gama --policy file.ts (the whole command)';
    const fileBatch = commandBatch(file, 'wanderer.ts', dir, CYCLES);
    rates.push(await measureRate(file, CYCLES, fileBatch, { warmup: 1, repeats: 3 }));
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
