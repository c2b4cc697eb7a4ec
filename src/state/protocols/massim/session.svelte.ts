/**
 * The MASSim session on screen: drives a session worker (run, pause, step, stop), keeps the reading of the
 * transcript it reports (timeline, agents, outcomes, stopped receivers, notes, log rows), and asks it for
 * the big things one at a time (a message, the world at a step, an agent's point of view). The transcript
 * itself stays in the worker.
 */
import * as Comlink from 'comlink';
import type { PolicyFault } from '../../../core/policy/types';
import type { TranscriptMessage } from '../../../core/transcript/model';
import type {
  MassimSessionNews,
  MassimTranscriptInput,
  MassimWorkerApi,
} from '../../../../workers/massim-session-api';
import type { SessionConfig, SessionUpdate, SessionWorkerApi } from '../../../../workers/session-api';
import type { SessionPhase } from '../../session.svelte';
import type { TranscriptOrigin } from '../../transcript.svelte';
import type {
  MassimAgent,
  MassimAgentView,
  MassimFrame,
  MassimNews,
  MassimNote,
  MassimReceiverStop,
  MassimRows,
  MassimWorldView,
} from '../../../core/protocols/massim/reading';

/** The log rows so far, as columns (never reactive: `rowCount` says when they grew). */
export type MassimLogRows = Omit<MassimRows, 'from'>;

export class MassimSession {
  phase = $state<SessionPhase>('idle');
  /** The last policy failure, and the team whose policy it was. */
  fault = $state<PolicyFault | undefined>();
  faultTeam = $state<string | undefined>();
  /** A failure of the session itself, in one sentence. */
  error = $state<string | undefined>();
  origin = $state<TranscriptOrigin>('live');
  /** The name of an opened file, for the status line. */
  sourceName = $state<string | undefined>();

  frames = $state.raw<readonly MassimFrame[]>([]);
  /** Outcome codes per frame and agent (see `MASSIM_RESULT_KINDS`). */
  results = $state.raw<readonly (readonly number[])[]>([]);
  agents = $state.raw<readonly MassimAgent[]>([]);
  teams = $state.raw<readonly string[]>([]);
  connections = $state.raw<readonly string[]>([]);
  stops = $state.raw<readonly MassimReceiverStop[]>([]);
  notes = $state.raw<readonly MassimNote[]>([]);
  /** Bumped whenever what is shown is replaced (a new match, an opened transcript). */
  resets = $state(0);
  /** How many log rows there are; the rows themselves are in `rows`. */
  rowCount = $state(0);
  readonly rows: MassimLogRows = { conn: [], dir: [], t: [], type: [], frame: [], gist: [], unreadable: [] };

  readonly #createWorker: () => Worker;
  #api: Comlink.Remote<SessionWorkerApi> | undefined;
  /** Bumped by every run or open: answers about an older one are dropped. */
  #generation = 0;

  constructor(createWorker: () => Worker) {
    this.#createWorker = createWorker;
  }

  /** True while a session is under way. */
  get active(): boolean {
    return this.phase === 'running' || this.phase === 'paused';
  }

  /** Starts the worker ahead of the first run. */
  prewarm(): void {
    this.#worker();
  }

  /** Starts a new match; what is on screen is replaced as soon as the worker reports. */
  async run(config: SessionConfig): Promise<void> {
    this.fault = this.faultTeam = this.error = undefined;
    this.phase = config.startPaused ? 'paused' : 'running';
    await this.#worker().start(config, this.#listener());
  }

  pause(): void {
    void this.#api?.pause();
  }

  resume(): void {
    void this.#api?.resume();
  }

  step(): void {
    void this.#api?.step();
  }

  stop(): void {
    void this.#api?.stop();
  }

  setDelay(ms: number): void {
    void this.#api?.setDelay(ms);
  }

  /** Shows a recording or a stored transcript in every view (stopping a running match). */
  async open(input: MassimTranscriptInput): Promise<void> {
    await this.#massim().open(input, this.#listener());
  }

  /** One message, exactly as recorded. */
  message(index: number): Promise<TranscriptMessage | undefined> {
    return this.#massim().message(index);
  }

  /** The world after a frame's step, when the transcript holds it. */
  world(frame: number): Promise<MassimWorldView | undefined> {
    return this.#massim().world(frame);
  }

  /** An agent's point of view at a frame. */
  agentView(frame: number, agent: string): Promise<MassimAgentView> {
    return this.#massim().agentView(frame, agent);
  }

  /** The transcript as Protoplay JSON. */
  exportJson(): Promise<Blob | undefined> {
    return this.#massim().exportJson();
  }

  #worker(): Comlink.Remote<SessionWorkerApi> {
    this.#api ??= Comlink.wrap<SessionWorkerApi>(this.#createWorker());
    return this.#api;
  }

  /**
   * The MASSim questions. Comlink reaches a nested object of the worker's API by its path, though its
   * types only describe nested objects marked as proxies.
   */
  #massim(): Comlink.Remote<MassimWorkerApi> {
    return this.#worker().massim as unknown as Comlink.Remote<MassimWorkerApi>;
  }

  #listener() {
    const generation = ++this.#generation;
    return Comlink.proxy({
      update: (json: string) => {
        if (generation === this.#generation) this.#apply(JSON.parse(json) as SessionUpdate);
      },
    });
  }

  #apply(update: SessionUpdate): void {
    if (update.massim) this.#read(update.massim);
    if (update.status) this.phase = update.status;
    if (update.fault) this.fault = update.fault;
    if (update.massim?.faultTeam) this.faultTeam = update.massim.faultTeam;
    if (update.error) this.error = update.error;
  }

  #read({ reset, news }: MassimSessionNews): void {
    if (reset) {
      this.#clear();
      this.origin = reset.origin;
      this.sourceName = reset.name;
      if (reset.origin !== 'live') this.phase = 'idle';
    }
    this.#add(news);
  }

  #clear(): void {
    this.frames = this.results = this.agents = this.teams = this.connections = [];
    this.stops = this.notes = [];
    for (const column of Object.values(this.rows) as unknown[][]) column.length = 0;
    this.rowCount = 0;
    this.fault = this.faultTeam = this.error = undefined;
    this.resets++;
  }

  #add(news: MassimNews): void {
    if (news.connections) this.connections = news.connections;
    if (news.agents) this.agents = news.agents;
    if (news.teams) this.teams = news.teams;
    if (news.frames.length || news.framesFrom < this.frames.length) {
      this.frames = [...this.frames.slice(0, news.framesFrom), ...news.frames];
      this.results = [...this.results.slice(0, news.framesFrom), ...news.results];
    }
    if (news.stops.length || news.resumed.length) {
      const stops = [...this.stops, ...news.stops];
      for (const resumed of news.resumed) {
        const at = stops.findIndex((s) => s.index === resumed.index && s.conn === resumed.conn);
        if (at >= 0) stops[at] = { ...stops[at]!, resumedAt: resumed.resumedAt };
      }
      this.stops = stops;
    }
    if (news.notes.length) this.notes = [...this.notes, ...news.notes];
    const rows = news.rows;
    if (rows.conn.length) {
      const own = this.rows;
      for (let i = 0; i < rows.conn.length; i++) {
        own.conn.push(rows.conn[i]!);
        own.dir.push(rows.dir[i]!);
        own.t.push(rows.t[i]!);
        own.type.push(rows.type[i]!);
        own.frame.push(rows.frame[i]!);
        own.gist.push(rows.gist[i]!);
        own.unreadable.push(rows.unreadable[i]!);
      }
      this.rowCount = own.conn.length;
    }
  }
}
