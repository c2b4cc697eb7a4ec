/**
 * The side-by-side view of one seed (Compare's "Find where they differ"): what it costs beyond the
 * evaluation. For an rddlsim session of many rounds and a MASSim match, each played by two policies that
 * part early, through the code the page runs: the protocol's episode player as a worker runs it, without
 * recording (the evaluation's baseline) and recording the transcripts (the replay), then, as the page does
 * on its main thread, reading both transcripts with the protocol's reader and lining them up
 * (`sideBySide`). Prints times, messages per second, and each figure's ratio to the unrecorded episodes.
 *
 * Then what the page feels: the longest time its main thread is blocked (the event loop's longest delay,
 * as Node's `monitorEventLoopDelay` sees it: the counterpart of the browser's longest task) while the view
 * opens every session of the seed, reading and lining up in this thread (as the page used to) and in a
 * worker thread (`SideBySideSessions`, as the page now does: the transcripts go over and the summaries come
 * back in slices through the same structured clone a Web Worker uses). Also for a contest-size MASSim
 * match (2 x 20 agents, 750 steps; `BENCH_SIDE_BY_SIDE_CONTEST=0` leaves it out).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { quickMassimConfig } from '../../src/core/envs/massim/index';
import { PolicyRuntime } from '../../src/core/policy/runtime';
import type {
  EpisodeOutcome,
  EpisodePlayer,
  EpisodePolicy,
} from '../../src/core/protocols/evaluation-contract';
import { createMassimEpisodePlayer } from '../../src/core/protocols/massim/evaluation';
import { createRddlsimEpisodePlayer } from '../../src/core/protocols/rddlsim/evaluation';
import { findProtocol } from '../../src/core/protocols/registry';
import { sideBySide, SideBySideSessions, type SideBySideThread } from '../../src/state/side-by-side';
import type { FromSideBySideThread } from '../../src/core/evaluation/side-by-side-thread';
import { alignTranscripts, type AlignmentSide } from '../../src/core/evaluation/transcript-alignment';
import type { Transcript } from '../../src/core/transcript/model';
import { formatNumber, measureRate, printTable } from '../lib';

const OPTIONS = { warmup: 1, repeats: 3 };

interface Case {
  name: string;
  protocol: string;
  player: () => EpisodePlayer;
  settings: unknown;
  rounds: number;
  policies: [string, string];
  /** Only the main-thread figures (the episodes take long). */
  mainThreadOnly?: boolean;
}

const RDDLSIM_ROUNDS = Number(process.env.BENCH_SIDE_BY_SIDE_ROUNDS ?? 30);
const SKIP = "export function act() {\n  return { type: 'skip', p: [] };\n}\n";

const CASES: Case[] = [
  {
    name: `rddlsim network_admin, ${RDDLSIM_ROUNDS} rounds`,
    protocol: 'rddlsim',
    player: createRddlsimEpisodePlayer,
    settings: { example: 'network_admin' },
    rounds: RDDLSIM_ROUNDS,
    policies: [
      'export function act() {\n  return null;\n}\n',
      "export function act(o: Observation): Actions {\n  return o.turn % 4 === 0 ? { name: 'reboot', args: ['server'] } : null;\n}\n",
    ],
  },
  {
    name: 'MASSim 2 x 10 agents, 200 steps (two matches)',
    protocol: 'massim',
    player: createMassimEpisodePlayer,
    settings: {
      config: quickMassimConfig({ agentsPerTeam: 10, steps: 200, width: 40, height: 40 }),
      opponent: { code: SKIP, language: 'ts', level: 'policy', fileName: 'opponent.ts' },
    },
    rounds: 2,
    policies: [
      SKIP,
      "export function act(percept: Percept, agent: Agent): Action {\n  return agent.step < 10 ? { type: 'skip', p: [] } : { type: 'move', p: ['n'] };\n}\n",
    ],
  },
  ...(process.env.BENCH_SIDE_BY_SIDE_CONTEST === '0'
    ? []
    : [
        {
          name: 'MASSim contest size: 2 x 20 agents, 750 steps (two matches)',
          protocol: 'massim',
          player: createMassimEpisodePlayer,
          settings: {
            config: quickMassimConfig({ agentsPerTeam: 20, steps: 750, width: 70, height: 70 }),
            opponent: { code: SKIP, language: 'ts', level: 'policy', fileName: 'opponent.ts' },
          },
          rounds: 2,
          policies: [
            SKIP,
            "export function act(percept: Percept, agent: Agent): Action {\n  return agent.step < 10 ? { type: 'skip', p: [] } : { type: 'move', p: ['n'] };\n}\n",
          ],
          mainThreadOnly: true,
        } satisfies Case,
      ]),
];

/** The side-by-side thread in a Node worker thread (TypeScript loaded through tsx, as the bench runs). */
function workerThread(): SideBySideThread {
  const url = new URL('./side-by-side-thread.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`,
    { eval: true },
  );
  return {
    post: (message) => worker.postMessage(message),
    listen(handlers) {
      worker.on('message', (message: FromSideBySideThread) => handlers.message(message));
      worker.on('error', (error) => handlers.exit(error.message));
    },
    terminate: () => void worker.terminate(),
  };
}

interface Blocking {
  label: string;
  ms: number;
  longestMs: number;
}

/** Runs `work` while watching the event loop: wall time and the longest block of this thread. */
async function blocking(label: string, work: () => Promise<unknown>): Promise<Blocking> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const start = performance.now();
  // Starts in a task of its own, as a click would.
  await new Promise<void>((resolve, reject) => setTimeout(() => work().then(() => resolve(), reject), 0));
  const ms = performance.now() - start;
  // The delay of the last block is recorded when the loop next turns.
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  return { label, ms, longestMs: histogram.max / 1e6 };
}

/** Opens every session of the seed, as the view does: here, then in a worker; the median of `repeats`. */
async function mainThread(
  name: string,
  protocol: NonNullable<ReturnType<typeof findProtocol>>,
  transcripts: [Transcript[], Transcript[]],
  repeats: number,
): Promise<void> {
  const sessions = Math.max(transcripts[0].length, transcripts[1].length);
  const runs = async (label: string, work: () => Promise<unknown>) => {
    const all: Blocking[] = [];
    for (let k = 0; k < repeats; k++) all.push(await blocking(label, work));
    all.sort((x, y) => x.longestMs - y.longestMs);
    return all[Math.floor(repeats / 2)]!;
  };
  const here = await runs('reading and lining up on the main thread (before)', async () => {
    for (let session = 0; session < sessions; session++) sideBySide(protocol, transcripts, session);
  });
  const inWorker = await runs('in a worker (SideBySideSessions, as the page now)', async () => {
    const read = new SideBySideSessions(protocol, transcripts, workerThread);
    await read.firstDiffering();
    for (let session = 0; session < sessions; session++) await read.session(session);
    read.dispose();
  });
  const messages = transcripts.flat().reduce((n, t) => n + t.messages.length, 0);
  printTable(`${name}: the main thread while every session opens (${formatNumber(messages)} messages)`, [
    ['way', 'wall ms', 'longest block ms', 'x before (longest block)'],
    ...[here, inWorker].map((b) => [b.label, b.ms, b.longestMs, b.longestMs / here.longestMs]),
  ]);
}

function policy(player: EpisodePlayer, code: string, seed: number): EpisodePolicy {
  const runtime = player.policyRuntime?.() ?? new PolicyRuntime();
  return {
    load: (context) =>
      Promise.resolve(
        runtime.load({ code, language: 'ts', level: 'policy', fileName: 'policy.ts', seed, context }),
      ),
    call: (hook, args) => runtime.call(hook, args, {}),
  };
}

async function playBoth(c: Case, record: boolean): Promise<[EpisodeOutcome, EpisodeOutcome]> {
  const outcomes: EpisodeOutcome[] = [];
  for (const code of c.policies) {
    const player = c.player();
    player.prepare(c.settings);
    const outcome = await player.play(
      { settings: c.settings, seed: 1, rounds: c.rounds, trace: false, record },
      policy(player, code, 1),
    );
    if (outcome.fault || outcome.error) throw new Error(outcome.fault?.message ?? outcome.error);
    outcomes.push(outcome);
  }
  return [outcomes[0]!, outcomes[1]!];
}

export default async function bench(): Promise<void> {
  for (const c of CASES) {
    const protocol = findProtocol(c.protocol)!;
    const [a, b] = await playBoth(c, true);
    const transcripts: [Transcript[], Transcript[]] = [a.transcripts!, b.transcripts!];
    await mainThread(c.name, protocol, transcripts, c.mainThreadOnly ? 1 : 3);
    if (c.mainThreadOnly) continue;
    const messages = transcripts.flat().reduce((n, t) => n + t.messages.length, 0);
    const sessions = transcripts[0].length;
    const read = (transcript: Transcript): AlignmentSide => {
      const reader = protocol.createReader();
      reader.append(transcript.messages, transcript.annotations);
      return { summaries: reader.messages, messages: transcript.messages };
    };
    const sides = transcripts.map((list) => list.map(read));
    let differences = 0;
    const rates = [
      await measureRate('both episodes, unrecorded (baseline)', messages, () => playBoth(c, false), OPTIONS),
      await measureRate('both episodes, recorded (the replay)', messages, () => playBoth(c, true), OPTIONS),
      await measureRate('reading both transcripts', messages, () => transcripts.flat().map(read), OPTIONS),
      await measureRate(
        'lining them up (alignTranscripts)',
        messages,
        () => {
          differences = 0;
          for (let session = 0; session < sessions; session++)
            differences += alignTranscripts(sides[0]![session]!, sides[1]![session]!, 'c2s').differences
              .length;
        },
        OPTIONS,
      ),
      await measureRate(
        'reading and lining up (sideBySide, as the page)',
        messages,
        () => {
          for (let session = 0; session < sessions; session++) sideBySide(protocol, transcripts, session);
        },
        OPTIONS,
      ),
    ];
    const base = rates[0]!;
    printTable(
      `${c.name}: ${formatNumber(messages)} messages on both sides, ${formatNumber(differences)} differences`,
      [
        ['step', 'ms (median)', 'CPU ms', 'messages/s', 'x baseline time'],
        ...rates.map((rate) => [
          rate.label,
          rate.seconds * 1000,
          (rate.cpuSeconds ?? 0) * 1000,
          rate.opsPerSecond,
          rate.seconds / base.seconds,
        ]),
      ],
    );
  }
}
