/**
 * MASSim in the session worker: a whole match in memory (the core's match runner: the emulated host and one
 * connection per agent), each team's policy in a supervised policy worker of its own answering one batch
 * per step, paced by a TurnGate; or a recorded transcript opened for the views. Either way the transcript
 * stays here, in its store, and a reader turns it into news for the page, once per animation frame.
 */
import { parseMassimConfig, quickMassimConfig, sampleMassimConfig } from '../src/core/envs/massim';
import type { MassimServerConfig } from '../src/core/envs/massim/api';
import { describeError } from '../src/core/errors';
import { PolicySupervisor } from '../src/core/policy/supervisor';
import { TurnGate } from '../src/core/policy/turn-gate';
import type { CallOutcome, PolicyFault, PolicySource } from '../src/core/policy/types';
import {
  MassimMatchRunner,
  MassimWorldPacker,
  batchedTeamDecide,
  type MassimDecide,
  type MassimTeamBatchReply,
  type MassimWireReply,
  type MassimWireTeam,
} from '../src/core/protocols/massim';
import { importMassimRecording } from '../src/core/protocols/massim/timeline-import';
import { looksLikeProtoplayJson, parseTranscriptJson } from '../src/core/transcript/json-format';
import type { Transcript } from '../src/core/transcript/model';
import { TranscriptStore, writeTranscriptJson } from '../src/core/transcript/store';
import { MassimTranscriptReader } from '../src/core/protocols/massim/reader';
import { MASSIM_TEAM_STEP, MASSIM_WIRE_EVENT } from '../src/core/protocols/massim/team-runtime';
import { spawnMassimPolicyWorker } from './massim-policy-endpoint';
import type {
  MassimMatchSetup,
  MassimSessionNews,
  MassimTranscriptInput,
  MassimWorkerApi,
} from './massim-session-api';
import type { RunningSession } from './rddlsim-session';
import type { SessionConfig, SessionListener, SessionStatus, SessionUpdate } from './session-api';

/** What the MASSim views are showing: a store and its reader. */
interface Shown {
  store: TranscriptStore;
  reader: MassimTranscriptReader;
}

let shown: Shown | undefined;
let running: MassimSessionRun | undefined;

/** Starts a MASSim session; resolves once it is under way (or has failed to load a policy). */
export async function startMassimSession(
  config: SessionConfig,
  listener: SessionListener,
): Promise<RunningSession> {
  running?.abandon();
  const run = new MassimSessionRun(config, listener);
  running = run;
  shown = run.shown;
  await run.start();
  return run;
}

/** The MASSim views' questions, about whatever is on show. */
export const massimWorkerApi: MassimWorkerApi = {
  async open(input: MassimTranscriptInput, listener: SessionListener) {
    const transcript = await readTranscript(input);
    running?.abandon();
    running = undefined;
    const store = TranscriptStore.fromTranscript(transcript, { packers: [new MassimWorldPacker()] });
    const reader = new MassimTranscriptReader(store, { judgeAgents: transcript.meta.origin !== 'emulated' });
    shown = { store, reader };
    const name = input.files.length === 1 ? input.files[0]!.name : undefined;
    const update: SessionUpdate = {
      messages: [],
      annotations: [],
      massim: { reset: { origin: input.origin, ...(name ? { name } : {}) }, news: reader.read() },
    };
    listener.update(JSON.stringify(update));
  },
  message: (index) =>
    shown && index >= 0 && index < shown.store.length ? shown.store.message(index) : undefined,
  world: (frame) => shown?.reader.world(frame),
  agentView: (frame, agent) => shown?.reader.agentView(frame, agent) ?? { agent, frame },
  exportJson() {
    if (!shown) return undefined;
    const pieces: string[] = [];
    writeTranscriptJson(shown.store, (piece) => pieces.push(piece));
    return new Blob(pieces, { type: 'application/json' });
  },
};

/** A recorded transcript from the files given: one Protoplay JSON file, or a MASSim recording's files. */
async function readTranscript(input: MassimTranscriptInput): Promise<Transcript> {
  const files = await Promise.all(
    input.files.map(async ({ name, content }) => ({
      name,
      content: content instanceof Blob ? new Uint8Array(await content.arrayBuffer()) : content,
    })),
  );
  const text = (content: string | Uint8Array) =>
    typeof content === 'string' ? content : new TextDecoder().decode(content);
  try {
    const only = files.length === 1 ? files[0]! : undefined;
    if (only && looksLikeProtoplayJson(text(only.content).slice(0, 4096))) {
      const transcript = parseTranscriptJson(text(only.content), only.name);
      if (transcript.protocol !== 'massim')
        throw new Error(`${only.name} is a ${transcript.protocol} transcript, not a MASSim one`);
      return transcript;
    }
    const transcript = importMassimRecording(files);
    if (transcript.messages.length === 0)
      throw new Error('no MASSim timeline among the files (expected *.timeline.jsonl files)');
    return transcript;
  } catch (error) {
    throw new Error(describeError(error), { cause: error });
  }
}

/** The server configuration of a session. */
function serverConfig(match: MassimMatchSetup): MassimServerConfig {
  if (match.kind === 'quick') return quickMassimConfig(match.setup);
  if (match.kind === 'contest') return sampleMassimConfig();
  const includes = new Map(Object.entries(match.includes));
  const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  // Files picked in the browser come without their folders: an include is found by its name alone.
  return parseMassimConfig(match.text, {
    source: match.name,
    readInclude: (path) => includes.get(path) ?? includes.get(baseName(path)),
  });
}

/** One team's policy: its supervisor and how it is asked. */
interface TeamPolicy {
  team: string;
  source: PolicySource;
  supervisor: PolicySupervisor;
}

/** One MASSim session from start to end. */
class MassimSessionRun implements RunningSession {
  readonly gate: TurnGate;
  readonly shown: Shown;
  readonly #config: SessionConfig;
  readonly #runner: MassimMatchRunner;
  readonly #teams: TeamPolicy[];
  readonly #batcher: MassimNewsBatcher;
  #failed = false;

  constructor(config: SessionConfig, listener: SessionListener) {
    this.#config = config;
    const options = config.massim;
    if (!options) throw new Error('a MASSim session needs its match settings');
    const server = serverConfig(options.match);
    this.#teams = server.teams.map((team, i) => ({
      team: team.name,
      source: i === 0 ? config.policy : options.otherTeams,
      supervisor: new PolicySupervisor({ spawn: spawnMassimPolicyWorker, budgetMs: config.budgetMs }),
    }));
    const teams: Record<string, MassimDecide> = {};
    const wireTeams: Record<string, MassimWireTeam> = {};
    for (const policy of this.#teams) {
      if (policy.source.level === 'wire') wireTeams[policy.team] = this.#wireTeam(policy);
      else teams[policy.team] = this.#teamDecide(policy);
    }
    this.#runner = new MassimMatchRunner({
      config: server,
      teams,
      wireTeams,
      seed: config.seed,
      faithfulRaces: options.faithfulRaces,
    });
    this.shown = {
      store: this.#runner.host.store,
      reader: new MassimTranscriptReader(this.#runner.host.store, { judgeAgents: false }),
    };
    this.#batcher = new MassimNewsBatcher(this.shown.reader, listener);
    this.gate = new TurnGate({
      delayMs: config.delayMs,
      startPaused: config.startPaused,
      onStateChange: (state) =>
        this.#batcher.note({
          status: state === 'open' ? 'running' : state === 'paused' ? 'paused' : 'stopped',
        }),
    });
  }

  /** Loads every team's policy, then lets the match run in the background. */
  async start(): Promise<void> {
    this.#batcher.reset();
    this.#batcher.note({ status: this.#config.startPaused ? 'paused' : 'running' });
    const loads = await Promise.all(this.#teams.map((policy) => policy.supervisor.load(policy.source)));
    const store = this.#runner.host.store;
    loads.forEach((loaded, i) => {
      const team = this.#teams[i]!.team;
      for (const line of loaded.logs)
        store.annotate('policy-log', { ...line, text: `team ${team}: ${line.text}` });
    });
    const failed = loads.findIndex((loaded) => !loaded.ok);
    if (failed >= 0) {
      const loaded = loads[failed]!;
      if (!loaded.ok) this.#fail(this.#teams[failed]!.team, loaded.fault);
      this.#end();
      this.#batcher.note({ status: 'failed' });
      this.#batcher.close();
      return;
    }
    void this.#drive();
  }

  decide(): void {
    // MASSim actions are never held for the learner: the real server's reading of them is the lesson.
  }

  stop(): void {
    this.#end();
    this.#batcher.note({ status: 'stopped' });
  }

  abandon(): void {
    this.#end();
    this.#batcher.abandon();
  }

  #end(): void {
    this.gate.stop();
    if (!this.#runner.finished) this.#runner.stop();
    for (const policy of this.#teams) policy.supervisor.dispose();
  }

  async #drive(): Promise<void> {
    let first = true;
    while (!this.#runner.finished && !this.#failed) {
      if (!(await this.gate.pass(first))) break;
      first = false;
      await this.#runner.step();
      this.#batcher.schedule();
    }
    const status: SessionStatus = this.#failed ? 'failed' : this.#runner.finished ? 'finished' : 'stopped';
    this.#end();
    this.#batcher.note({ status });
    this.#batcher.close();
  }

  /** Where the match is, for budget messages. */
  #site(): { round: number; turn: number } {
    const status = this.#runner.host.status;
    return { round: status.simulation + 1, turn: status.step ?? 0 };
  }

  /** Asks a team's policy within its budget, keeping its console output; a fault ends the session. */
  async #ask(policy: TeamPolicy, hook: string, args: readonly unknown[]): Promise<CallOutcome> {
    const site = this.#site();
    const outcome = await policy.supervisor.call(hook, args, {}, site);
    const store = this.#runner.host.store;
    for (const line of outcome.logs)
      store.annotate('policy-log', { ...line, text: `team ${policy.team}: ${line.text}` });
    if (!outcome.ok && !this.#failed) {
      const fault =
        outcome.fault.kind === 'timeout'
          ? { ...outcome.fault, message: `policy exceeded ${this.#config.budgetMs} ms on step ${site.turn}` }
          : outcome.fault;
      this.#fail(policy.team, fault);
      this.#runner.stop();
    }
    return outcome;
  }

  #teamDecide(policy: TeamPolicy): MassimDecide {
    return batchedTeamDecide(async (batch) => {
      const outcome = await this.#ask(policy, MASSIM_TEAM_STEP, [batch]);
      if (!outcome.ok) throw new Error(outcome.fault.message);
      return outcome.value as MassimTeamBatchReply;
    });
  }

  #wireTeam(policy: TeamPolicy): MassimWireTeam {
    return async (event) => {
      if (this.#failed) return undefined;
      const outcome = await this.#ask(policy, MASSIM_WIRE_EVENT, [event]);
      return outcome.ok ? (outcome.value as MassimWireReply) : undefined;
    };
  }

  #fail(team: string, fault: PolicyFault): void {
    this.#failed = true;
    this.#runner.host.store.annotate('error', {
      source: 'policy',
      team,
      ...fault,
      message: `team ${team}: ${fault.message}`,
    });
    this.#batcher.note({ fault, faultTeam: team });
  }
}

type Extra = Pick<SessionUpdate, 'status' | 'fault' | 'error'> & { faultTeam?: string };

/** Dedicated workers have requestAnimationFrame in Chromium and Firefox; elsewhere a frame's worth of time. */
const nextFrame: (callback: () => void) => void =
  typeof requestAnimationFrame === 'function'
    ? (callback) => requestAnimationFrame(() => callback())
    : (callback) => setTimeout(callback, 16);

/** Sends the reader's news and the session's status to the page, at most once per animation frame. */
class MassimNewsBatcher {
  readonly #reader: MassimTranscriptReader;
  readonly #listener: SessionListener;
  #extra: Extra = {};
  #reset = false;
  #scheduled = false;
  #closed = false;

  constructor(reader: MassimTranscriptReader, listener: SessionListener) {
    this.#reader = reader;
    this.#listener = listener;
  }

  /** The next batch tells the page to forget what it showed: a new session starts. */
  reset(): void {
    this.#reset = true;
    this.schedule();
  }

  /** Notes news (status, fault...); sent with the next batch. Later values replace earlier ones. */
  note(extra: Extra): void {
    this.#extra = { ...this.#extra, ...extra };
    this.schedule();
  }

  schedule(): void {
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    nextFrame(() => this.flush());
  }

  flush(): void {
    this.#scheduled = false;
    if (this.#closed) return;
    const { faultTeam, ...extra } = this.#extra;
    const massim: MassimSessionNews = {
      ...(this.#reset ? { reset: { origin: 'live' as const } } : {}),
      news: this.#reader.read(),
      ...(faultTeam ? { faultTeam } : {}),
    };
    const update: SessionUpdate = { messages: [], annotations: [], ...extra, massim };
    this.#reset = false;
    this.#extra = {};
    this.#listener.update(JSON.stringify(update));
  }

  /** Sends the last batch and stops. */
  close(): void {
    this.flush();
    this.#closed = true;
  }

  /** Stops without sending anything more: a newer session has taken over the page. */
  abandon(): void {
    this.#closed = true;
  }
}
