/**
 * Steps per second of whole emulated MASSim matches on the contest's two sample shapes (2 x 20 agents on
 * 70 x 70, 2 x 40 on 100 x 100): the emulated server, one agent connection per agent with its protocol
 * machine, the transcript store recording every message and the world after every step, and trivial team
 * policies, next to the real massim_2022 server's ~43 and ~23 steps/s (trivial agents, this kind of
 * machine). Target: 50 times the real server.
 *
 * Rows, all measured in this run:
 * - world only: the scenario stepping with the same moves, no percepts (the ceiling);
 * - serving loop, JSON.stringify path: every agent's request-action built as an object, turned into text by
 *   `JSON.stringify` and recorded in a plain transcript, the agents' actions too (what serving cost before
 *   percepts were written as phrases), without connections or policies;
 * - serving loop, phrase path: the same with request-actions written as phrases into a transcript store;
 * - whole match, policies in-process: the policy reads percept objects built from the world;
 * - whole match, policies in worker threads, one message per team and step, with percepts crossing as
 *   phrase numbers (the protocol's way), as wire text, or as structured-clone objects;
 * - floors, without any server: the two team workers asked once per step with nothing to read (the cost of
 *   handing a step to two threads and back), and the same with each worker parsing its team's
 *   request-actions of that step (texts recorded from the same match and handed over before timing) with
 *   `JSON.parse`. They bound what any design giving policies percept objects in worker threads can do on
 *   this machine (see docs/massim-performance.md, "Limits");
 * - a bound for overlapping the reading with the writing: the host writes each request-action as phrases
 *   into the transcript store and its phrase numbers into shared memory at once, one policy thread for both
 *   teams spins on a shared counter and reads each percept as it comes, the host records the actions and
 *   the world after every step; no connections, no protocol machines. Not the product's path: what the
 *   route could give at most here.
 *
 * The last column counts the percepts the policies read over a row's runs and the sum of their energies:
 * the same figures in every row with policies show that each way delivered every percept, intact.
 *
 * Rates count the steps only (from the first step to the last; map generation and logins excluded). The
 * machine is shared, so next to wall-clock rates the table gives steps per second of this process's CPU
 * time (all its threads: workers and garbage collection included), which other processes lower much less;
 * each as the median and the best of a few runs (the best being the run the machine disturbed least).
 */
import { Worker } from 'node:worker_threads';
import type { MassimAction, MassimServerConfig, MassimStepPercept } from '../../src/core/envs/massim/api';
import { createSimulation, sampleMassimConfig } from '../../src/core/envs/massim/index';
import {
  createTeamDecide,
  type MassimDecide,
  type MassimDecisionRequest,
} from '../../src/core/protocols/massim/client';
import { serializeMassimMessage } from '../../src/core/protocols/massim/messages';
import { RequestActionWriter } from '../../src/core/protocols/massim/outgoing';
import type { MassimAct, MassimPolicyAction } from '../../src/core/protocols/massim/policy-api';
import { MassimRecording } from '../../src/core/protocols/massim/recording';
import { MassimMatchRunner } from '../../src/core/protocols/massim/runner';
import {
  batchedTeamDecide,
  type MassimTeamBatch,
  type MassimTeamBatchReply,
} from '../../src/core/protocols/massim/team-batch';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { TranscriptStore } from '../../src/core/transcript/store/store';
import { MassimWorldPacker } from '../../src/core/protocols/massim/world-packer';
import { formatNumber, printTable } from '../lib';
import type { ObjectBatch, PolicyReads, TeamWorkerMessage } from './team-worker';

const SHAPES = [
  { label: '2x20, 70x70', index: 0, steps: 300, realServer: 43 },
  { label: '2x40, 100x100', index: 1, steps: 200, realServer: 23 },
] as const;
/** Timed runs per row, after the warm-up. */
const RUNS = 5;
/**
 * Steps each row first plays untimed. The engine keeps compiling the hot code of the host and of the policy
 * threads for about two thousand steps (whole 2 x 20 matches ran about twice as fast from the ninth match
 * of a process on as in its first); a server serves match after match, so the timed runs measure it warm. The first run's
 * rate is printed too.
 */
const WARM_UP_STEPS = 2_400;

const directions = ['n', 'e', 's', 'w'] as const;
/** What the in-process policies read. */
const inProcessReads: PolicyReads = { percepts: 0, energy: 0 };
const wander: MassimAct = (percept, agent) => {
  const energy = percept.energy;
  inProcessReads.percepts++;
  inProcessReads.energy += energy;
  return { type: 'move', p: [directions[(agent.step + agent.name.length + energy) % 4]!] };
};

function sampleSimulation(index: 0 | 1, steps: number): MassimServerConfig {
  const config = sampleMassimConfig();
  return {
    ...config,
    server: { ...config.server, waitBetweenSimulations: 0 },
    match: [{ ...config.match[index]!, steps }],
  };
}

/** Wall and CPU time of the steps of one run. */
interface Timing {
  wallMs: number;
  cpuMs: number;
  steps: number;
}

/** Runs a whole match, timing from its first step to its end. */
async function timeMatch(config: MassimServerConfig, teams: Record<string, MassimDecide>): Promise<Timing> {
  let started: { wall: number; cpu: NodeJS.CpuUsage } | undefined;
  let steps = 0;
  const runner = new MassimMatchRunner({
    config,
    teams,
    seed: 1,
    recordWorld: true,
    onHostEvent: (event) => {
      if (event.kind === 'simulation-start') started = { wall: performance.now(), cpu: process.cpuUsage() };
      if (event.kind === 'step') steps++;
    },
  });
  await runner.run();
  const cpu = process.cpuUsage(started!.cpu);
  return { wallMs: performance.now() - started!.wall, cpuMs: (cpu.user + cpu.system) / 1000, steps };
}

/** The scenario alone, or with every request-action served and recorded the old or the new way. */
function timeLoop(config: MassimServerConfig, mode: 'world' | 'stringify' | 'phrases'): Timing {
  const simulation = createSimulation(config.match[0]!, { seed: 1, teams: config.teams });
  const recorder = new TranscriptRecorder({ protocol: 'massim', now: () => 0 });
  const recording = new MassimRecording(new TranscriptStore({ protocol: 'massim' }), () => 0);
  const writer = new RequestActionWriter();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let id = 0;
  while (!simulation.isFinished) {
    const step = simulation.currentStep;
    const header = { step, id: id++, time: 1_763_760_000_000 + step, deadline: 1_763_760_004_000 + step };
    const actions = new Map<string, MassimAction>();
    for (const agent of simulation.agents) {
      const action = { type: 'move', p: [directions[(step + agent.length) % 4]!] };
      actions.set(agent, action);
      if (mode === 'world') continue;
      const actionText = serializeMassimMessage({ type: 'action', content: { id: header.id, ...action } });
      if (mode === 'stringify') {
        const percept = simulation.requestActionPercept(agent);
        recorder.text(
          agent,
          's2c',
          serializeMassimMessage({ type: 'request-action', content: { ...header, percept } }),
        );
        recorder.text(agent, 'c2s', actionText);
      } else {
        recording.phrased(
          agent,
          's2c',
          (out) => writer.write(out, header, (inner) => simulation.writeRequestActionPercept(agent, inner)),
          'nul',
        );
        recording.plainAction(agent, actionText, { id: header.id, ...action }, 'nul');
      }
    }
    simulation.step(actions);
  }
  const cpu = process.cpuUsage(cpuStart);
  return {
    wallMs: performance.now() - start,
    cpuMs: (cpu.user + cpu.system) / 1000,
    steps: simulation.steps,
  };
}

/** Every team's request-action texts of a whole simulation played with the benchmark's moves. */
function recordTexts(config: MassimServerConfig): { team: string; agents: string[]; texts: string[][] }[] {
  const simulation = createSimulation(config.match[0]!, { seed: 1, teams: config.teams });
  const teams = simulation.teams.map((team) => ({
    team: team.name,
    agents: [...team.agents],
    texts: [] as string[][],
  }));
  let id = 0;
  while (!simulation.isFinished) {
    const step = simulation.currentStep;
    const header = { step, id: id++, time: 1_763_760_000_000 + step, deadline: 1_763_760_004_000 + step };
    for (const team of teams)
      team.texts.push(
        team.agents.map((agent) =>
          serializeMassimMessage({
            type: 'request-action',
            content: { ...header, percept: simulation.requestActionPercept(agent) },
          }),
        ),
      );
    simulation.step(
      new Map(
        simulation.agents.map((agent) => [
          agent,
          { type: 'move', p: [directions[(step + agent.length) % 4]!] },
        ]),
      ),
    );
  }
  return teams;
}

/** A floor: no server, only the two team workers asked once per step (reading the percepts or not). */
async function timeFloor(workers: TeamWorker[], steps: number, parse: boolean): Promise<Timing> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (let step = 0; step < steps; step++)
    await Promise.all(workers.map((worker) => worker.floor(step, parse)));
  const cpu = process.cpuUsage(cpuStart);
  return { wallMs: performance.now() - start, cpuMs: (cpu.user + cpu.system) / 1000, steps };
}

/** The shared buffers of the ring bound (the policy thread's side is ring-worker.ts). */
export interface RingBuffers {
  /**
   * Counters: [0] requests written in all, [1] requests answered in all, [2] phrases published, [3] 1 to
   * stop, [4] requests written before this step (request slots count from there), [5] percepts read and
   * [6] the sum of their energies (written by the policy thread).
   */
  control: SharedArrayBuffer;
  /** Per slot: agent number, start and end in `phrases`. */
  requests: SharedArrayBuffer;
  /** The step's requests' phrase numbers. */
  phrases: SharedArrayBuffer;
  /** Every phrase's text, one after another (UTF-16), and where each ends. */
  texts: SharedArrayBuffer;
  textEnds: SharedArrayBuffer;
  /** Per slot: the direction (0-3) of the move answered. */
  actions: SharedArrayBuffer;
}

/** The ring bound for one shape: its policy thread, and runs of whole simulations through it. */
class RingBound {
  readonly #config: MassimServerConfig;
  readonly #agents: string[];
  readonly #worker: Worker;
  readonly #buffers: RingBuffers;
  readonly #store = new TranscriptStore({ protocol: 'massim', packers: [new MassimWorldPacker()] });
  readonly #recording = new MassimRecording(this.#store, () => 0);
  readonly #writer = new RequestActionWriter();
  #published = 0;
  #textEnd = 0;
  #written = 0;
  #id = 0;
  readonly ready: Promise<void>;

  constructor(config: MassimServerConfig) {
    this.#config = config;
    this.#agents = [...createSimulation(config.match[0]!, { seed: 1, teams: config.teams }).agents];
    const slots = this.#agents.length;
    this.#buffers = {
      control: new SharedArrayBuffer(4 * 8),
      requests: new SharedArrayBuffer(4 * 3 * slots),
      phrases: new SharedArrayBuffer(4 * 1024 * slots),
      texts: new SharedArrayBuffer(2 * (1 << 24)),
      textEnds: new SharedArrayBuffer(4 * (1 << 21)),
      actions: new SharedArrayBuffer(4 * slots),
    };
    const url = new URL('./ring-worker.ts', import.meta.url).href;
    this.#worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`,
      { eval: true, workerData: { buffers: this.#buffers, agents: this.#agents } },
    );
    this.ready = new Promise((resolve) => this.#worker.once('message', () => resolve()));
  }

  /** One whole simulation, timed. */
  run(): Timing {
    const control = new Int32Array(this.#buffers.control);
    const requests = new Int32Array(this.#buffers.requests);
    const phrases = new Int32Array(this.#buffers.phrases);
    const texts = new Uint16Array(this.#buffers.texts);
    const textEnds = new Int32Array(this.#buffers.textEnds);
    const answers = new Int32Array(this.#buffers.actions);
    const agents = this.#agents;
    const store = this.#store;
    const recording = this.#recording;
    const simulation = createSimulation(this.#config.match[0]!, { seed: 1, teams: this.#config.teams });
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    while (!simulation.isFinished) {
      const step = simulation.currentStep;
      const id = this.#id++;
      const header = { step, id, time: 1_763_760_000_000 + step, deadline: 1_763_760_004_000 + step };
      const stepBase = this.#written;
      Atomics.store(control, 4, stepBase);
      let offset = 0;
      for (let slot = 0; slot < agents.length; slot++) {
        const agent = agents[slot]!;
        const index = recording.phrased(
          agent,
          's2c',
          (out) =>
            this.#writer.write(out, header, (inner) => simulation.writeRequestActionPercept(agent, inner)),
          'nul',
        );
        const count = store.copyPhrases(index, phrases, offset);
        if (count < 0) throw new Error('the ring holds too few phrase numbers for a step');
        requests[3 * slot] = slot;
        requests[3 * slot + 1] = offset;
        requests[3 * slot + 2] = offset += count;
        const book = store.phrases;
        if (book.size > this.#published) {
          for (let phrase = this.#published; phrase < book.size; phrase++) {
            const text = book.text(phrase);
            if (this.#textEnd + text.length > texts.length)
              throw new Error('the ring holds too little phrase text');
            for (let k = 0; k < text.length; k++) texts[this.#textEnd++] = text.charCodeAt(k);
            textEnds[phrase] = this.#textEnd;
          }
          this.#published = book.size;
          Atomics.store(control, 2, this.#published);
        }
        Atomics.store(control, 0, ++this.#written);
      }
      store.packPending();
      const actions = new Map<string, MassimAction>();
      for (let slot = 0; slot < agents.length; slot++) {
        while (Atomics.load(control, 1) <= stepBase + slot) {
          // spin: the policy thread answers within microseconds
        }
        const direction = directions[answers[slot]!]!;
        const action = { type: 'move', p: [direction] };
        actions.set(agents[slot]!, action);
        recording.plainAction(
          agents[slot]!,
          `{"type":"action","content":{"id":${id},"type":"move","p":["${direction}"]}}`,
          { id, ...action },
          'nul',
        );
      }
      simulation.step(actions);
      recording.annotate(
        'world',
        { kind: 'snapshot', simulation: 0, world: simulation.snapshot() },
        undefined,
        { packLater: true },
      );
    }
    const cpu = process.cpuUsage(cpuStart);
    return {
      wallMs: performance.now() - start,
      cpuMs: (cpu.user + cpu.system) / 1000,
      steps: simulation.steps,
    };
  }

  /** What the policy thread read so far (it counts in the control buffer). */
  get reads(): PolicyReads {
    const control = new Int32Array(this.#buffers.control);
    return { percepts: Atomics.load(control, 5), energy: Atomics.load(control, 6) };
  }

  /** Counts reads from zero again (between runs, while the policy thread has nothing to answer). */
  forgetReads(): void {
    const control = new Int32Array(this.#buffers.control);
    Atomics.store(control, 5, 0);
    Atomics.store(control, 6, 0);
  }

  /** Stops the policy thread. */
  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.#worker.once('exit', resolve));
    Atomics.store(new Int32Array(this.#buffers.control), 3, 1);
    await exited;
  }
}

/** A worker thread running the team policy, and a transport posting it batches. */
class TeamWorker {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, (reply: MassimTeamBatchReply) => void>();
  #sequence = 0;

  constructor() {
    // Worker threads do not inherit the TypeScript loader: register it, then load the worker's module.
    const url = new URL('./team-worker.ts', import.meta.url).href;
    this.#worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`,
      { eval: true },
    );
    this.ready = new Promise((resolve) => this.#worker.once('message', () => resolve()));
    this.#worker.on(
      'message',
      (message: 'ready' | { sequence: number; reply: MassimTeamBatchReply; reads: PolicyReads }) => {
        if (message === 'ready') return;
        this.reads.percepts += message.reads.percepts;
        this.reads.energy += message.reads.energy;
        this.#waiting.get(message.sequence)!(message.reply);
        this.#waiting.delete(message.sequence);
      },
    );
  }

  /** What the worker's policy read so far. */
  readonly reads: PolicyReads = { percepts: 0, energy: 0 };

  /** Resolves once the worker has loaded its modules (loading is not measured). */
  readonly ready: Promise<void>;

  post(
    message: Omit<TeamWorkerMessage, 'sequence'>,
    transfer: ArrayBuffer[] = [],
  ): Promise<MassimTeamBatchReply> {
    return new Promise((resolve) => {
      const sequence = ++this.#sequence;
      this.#waiting.set(sequence, resolve);
      this.#worker.postMessage({ ...message, sequence }, transfer);
    });
  }

  /** Hands the worker its team's request-action texts of every step, for the floor rows. */
  preload(agents: string[], texts: string[][]): void {
    this.#worker.postMessage({ preload: { agents, texts } } satisfies TeamWorkerMessage);
  }

  /** One floor step: the worker answers its agents, parsing the step's preloaded texts or not. */
  floor(step: number, parse: boolean): Promise<MassimTeamBatchReply> {
    return this.post({ floor: { step, parse } });
  }

  /** Percepts as phrase numbers (the protocol's batches). */
  phrases(): MassimDecide {
    return batchedTeamDecide((batch) => this.post({ batch }, [batch.phrases.buffer as ArrayBuffer]));
  }

  /** Percepts as wire text: the same batches, without the frames that let them go as phrases. */
  texts(): MassimDecide {
    const decide = batchedTeamDecide((batch: MassimTeamBatch) => this.post({ batch }));
    return (request) => decide(withoutFrame(request));
  }

  /** Percepts as objects, structured-cloned into the worker. */
  objects(): MassimDecide {
    return batchByMicrotask(async (requests) => {
      const objects: ObjectBatch = {
        team: requests[0]!.team,
        teamAgents: requests[0]!.teamAgents,
        requests: requests.map(({ agent, step, id, deadline, percept, simulation }) => ({
          agent,
          step,
          id,
          deadline,
          percept,
          simulation,
        })),
      };
      return (await this.post({ objects })).actions;
    });
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

function withoutFrame(request: MassimDecisionRequest): MassimDecisionRequest {
  const { team, agent, teamAgents, step, id, deadline, text, simulation } = request;
  return {
    team,
    agent,
    teamAgents,
    step,
    id,
    deadline,
    text,
    simulation,
    get percept(): MassimStepPercept {
      return request.percept;
    },
  };
}

/** Gathers the decisions asked together into one call. */
function batchByMicrotask(
  decideAll: (requests: MassimDecisionRequest[]) => Promise<(MassimPolicyAction | null)[]>,
): MassimDecide {
  let pending: {
    request: MassimDecisionRequest;
    resolve: (action: MassimPolicyAction | undefined) => void;
  }[] = [];
  return (request) =>
    new Promise((resolve) => {
      if (pending.length === 0)
        queueMicrotask(() => {
          const taken = pending;
          pending = [];
          void decideAll(taken.map((item) => item.request)).then((actions) =>
            taken.forEach((item, i) => item.resolve(actions[i] ?? undefined)),
          );
        });
      pending.push({ request, resolve });
    });
}

/**
 * Rates of a few runs after the warm-up (sorted: the median, and the best, the run least disturbed), and the
 * first run's wall-clock rate (cold).
 */
async function rates(
  run: () => Timing | Promise<Timing>,
): Promise<{ cold: number; wall: number[]; cpu: number[] }> {
  let cold: number | undefined;
  for (let warmed = 0; warmed < WARM_UP_STEPS;) {
    const timing = await run();
    cold ??= timing.steps / (timing.wallMs / 1000);
    warmed += timing.steps;
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const timing = await run();
    wall.push(timing.steps / (timing.wallMs / 1000));
    cpu.push(timing.steps / (timing.cpuMs / 1000));
  }
  return { cold: cold!, wall: wall.sort((x, y) => x - y), cpu: cpu.sort((x, y) => x - y) };
}

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)]!;
const best = (sorted: number[]) => sorted[sorted.length - 1]!;

export default async function () {
  const a = new TeamWorker();
  const b = new TeamWorker();
  await Promise.all([a.ready, b.ready]);
  const rows: (string | number)[][] = [
    [
      'setup',
      'steps/s wall (median)',
      'best',
      'x real server (median)',
      'first run (cold)',
      'steps/CPU-s (median)',
      'best',
      'x real server (median)',
      'percepts read (energy sum)',
    ],
  ];
  for (const shape of SHAPES) {
    const config = sampleSimulation(shape.index, shape.steps);
    const recorded = recordTexts(config);
    a.preload(recorded[0]!.agents, recorded[0]!.texts);
    b.preload(recorded[1]!.agents, recorded[1]!.texts);
    const steps = recorded[0]!.texts.length;
    const variants: [string, () => Timing | Promise<Timing>][] = [
      ['world only (baseline)', () => timeLoop(config, 'world')],
      ['serving loop, JSON.stringify path (baseline)', () => timeLoop(config, 'stringify')],
      ['serving loop, phrase path', () => timeLoop(config, 'phrases')],
      [
        'whole match, policies in-process',
        () => timeMatch(config, { A: createTeamDecide(wander), B: createTeamDecide(wander) }),
      ],
      [
        'whole match, policies in workers, percepts as phrases',
        () => timeMatch(config, { A: a.phrases(), B: b.phrases() }),
      ],
      [
        'whole match, policies in workers, percepts as text',
        () => timeMatch(config, { A: a.texts(), B: b.texts() }),
      ],
      [
        'whole match, policies in workers, percepts as cloned objects',
        () => timeMatch(config, { A: a.objects(), B: b.objects() }),
      ],
      [
        'floor: two workers asked per step, nothing to read, no server',
        () => timeFloor([a, b], steps, false),
      ],
      [
        'floor: two workers JSON.parse their percepts per step, no server',
        () => timeFloor([a, b], steps, true),
      ],
    ];
    // The ring's policy thread spins as long as it lives: it is started by its row's warm-up run (not timed)
    // and stopped after its row, so it takes no CPU from the other rows.
    let ring: RingBound | undefined;
    variants.push([
      'bound: shared-memory ring, one spinning policy thread, no protocol',
      async () => {
        if (!ring) {
          // A new thread: two more untimed runs let the engine compile its code, as the team workers'
          // was by the rows before.
          ring = new RingBound(config);
          await ring.ready;
          ring.run();
          ring.run();
          ring.forgetReads();
        }
        return ring.run();
      },
    ]);
    // Every run of a row plays the same matches: rows with policies must read as many percepts, with the
    // same energies, however the percepts reached them.
    const readSoFar = () => {
      const all = [inProcessReads, a.reads, b.reads, ring?.reads ?? { percepts: 0, energy: 0 }];
      return {
        percepts: all.reduce((n, r) => n + r.percepts, 0),
        energy: all.reduce((n, r) => n + r.energy, 0),
      };
    };
    for (const [label, run] of variants) {
      const before = readSoFar();
      const { cold, wall, cpu } = await rates(run);
      const after = readSoFar();
      const percepts = after.percepts - before.percepts;
      rows.push([
        `${shape.label}: ${label}`,
        median(wall),
        best(wall),
        `${formatNumber(median(wall) / shape.realServer)}x`,
        cold,
        median(cpu),
        best(cpu),
        `${formatNumber(median(cpu) / shape.realServer)}x`,
        percepts > 0 ? `${formatNumber(percepts)} (${formatNumber(after.energy - before.energy)})` : '',
      ]);
    }
    await ring?.stop();
    rows.push([
      `${shape.label}: real server (measured separately, wall)`,
      shape.realServer,
      '',
      '1x',
      '',
      '',
      '',
      '',
      '',
    ]);
  }
  await Promise.all([a.terminate(), b.terminate()]);
  printTable('MASSim emulated matches, trivial policies, transcript and world recorded', rows);
}
