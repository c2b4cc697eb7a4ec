/**
 * Reads a MASSim transcript for the views, from its transcript store, as it grows: one log row per message,
 * the timeline (a frame per step of every simulation, with the scores the agents were told), every agent's
 * action outcomes, the moments the server stopped reading an agent, and the notes. Everything comes from the
 * wire (percepts, sim-ends, the agents' frames), so a recording of a real match reads like an emulated one;
 * annotations add what the wire cannot carry (the true world, the host's verdicts, console output). The
 * reader also answers the views' questions about one frame: the world then, and one agent's point of view.
 *
 * Percepts are a few kilobytes each: the reader takes the handful of fields it follows by pattern instead
 * of parsing them, and parses one only when a view asks for it.
 */
import type { MassimStepPercept, MassimWorldStatic } from '../../envs/massim/api';
import { createMassimServerMachine, type MassimServerMachineState, type MassimViolation } from '.';
import { payloadBytes } from '../../transcript/bytes';
import type { Annotation, TranscriptMessage } from '../../transcript/model';
import type { TranscriptStore } from '../../transcript/store';
import {
  MASSIM_RESULT_KINDS,
  NO_RESULT,
  type MassimAgent,
  type MassimAgentView,
  type MassimFrame,
  type MassimNews,
  type MassimNote,
  type MassimReceiverStop,
  type MassimRows,
  type MassimWorldView,
} from './reading';

/** MASSim message types in the order a session uses them, for the log's filter. */
export const MASSIM_MESSAGE_TYPES = [
  'auth-request',
  'auth-response',
  'sim-start',
  'request-action',
  'action',
  'sim-end',
  'bye',
  'status-request',
  'status-response',
] as const;

/** Rules whose violation means the server stopped reading the connection for good. */
const RECEIVER_STOPS = new Set([
  'massim.receiver.invalid-json',
  'massim.receiver.action-without-p',
  'massim.receiver.server-message',
]);

const leadingType = /^\s*\{\s*"type"\s*:\s*"([^"]*)"/;
const connectionName = /^(.+)\.conn\d+$/;
const lenientUtf8 = new TextDecoder('utf-8');

/** The first match of `pattern`'s group in `text`. */
function field(text: string, pattern: RegExp): string | undefined {
  return pattern.exec(text)?.[1];
}

/**
 * A field the reader follows in a frame: found by a plain search for its compact form (what servers send:
 * a percept is kilobytes, and this runs for every one), else by a pattern that allows spaces.
 */
class FrameField {
  readonly #key: string;
  readonly #isText: boolean;
  readonly #spaced: RegExp;

  constructor(name: string, value: 'text' | 'number') {
    this.#key = `"${name}":`;
    this.#isText = value === 'text';
    this.#spaced = new RegExp(`"${name}"\\s*:\\s*${this.#isText ? '"([^"]*)"' : '"?(-?\\d+)'}`);
  }

  /** The field's first value in `text`, as written (without quotes), or undefined. */
  in(text: string): string | undefined {
    const at = text.indexOf(this.#key);
    if (at < 0) return field(text, this.#spaced);
    let from = at + this.#key.length;
    if (this.#isText) {
      if (text[from] !== '"') return field(text, this.#spaced);
      const end = text.indexOf('"', ++from);
      return end < 0 ? undefined : text.slice(from, end);
    }
    if (text[from] === '"') from++; // an id written as a string ("6"), which the server accepts
    let end = from;
    while (
      end < text.length &&
      (text.charCodeAt(end) === 45 || (text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57))
    )
      end++;
    return end > from ? text.slice(from, end) : undefined;
  }
}

const fields = {
  step: new FrameField('step', 'number'),
  id: new FrameField('id', 'number'),
  score: new FrameField('score', 'number'),
  ranking: new FrameField('ranking', 'number'),
  lastAction: new FrameField('lastAction', 'text'),
  lastActionResult: new FrameField('lastActionResult', 'text'),
  team: new FrameField('team', 'text'),
  steps: new FrameField('steps', 'number'),
  user: new FrameField('user', 'text'),
  result: new FrameField('result', 'text'),
};

/** The outcome code of a percept's `lastAction` / `lastActionResult`, as the views count it. */
export function resultCode(lastAction: string, result: string): number {
  if (result === '') return NO_RESULT;
  const kind = lastAction === 'no_action' && result === 'success' ? 'no_action' : result;
  const code = (MASSIM_RESULT_KINDS as readonly string[]).indexOf(kind);
  return code < 0 ? MASSIM_RESULT_KINDS.indexOf('unknown_action') : code;
}

/** What the reader follows of a connection. */
interface ConnectionState {
  id: string;
  /** Position in the connection list. */
  number: number;
  agent?: string;
  /** The server's view of the connection (imports only: emulated sessions carry the host's verdicts). */
  machine?: MassimServerMachineState;
}

/** What the reader follows of an agent. */
interface AgentState {
  info: MassimAgent;
  position: number;
  /** Request-action index per frame. */
  requests: Map<number, number>;
  /** First action index per frame. */
  actions: Map<number, number>;
  /** Frame of each request id. */
  idFrames: Map<number, number>;
  /** The stop in force, if the server is not reading the agent. */
  stop?: MassimReceiverStop;
  /** Vision per role name, from its sim-start. */
  vision: Map<string, number>;
}

/** The world of one simulation: its static part and the snapshot annotation of each frame. */
interface WorldOfSimulation {
  static: MassimWorldStatic;
  snapshots: Map<number, number>;
}

/** Reads one transcript store; call `read` whenever it grew. */
export class MassimTranscriptReader {
  readonly #store: TranscriptStore;
  readonly #judge: boolean;
  readonly #serverMachine = createMassimServerMachine();
  #messagesRead = 0;
  #annotationsRead = 0;

  readonly #connections = new Map<string, ConnectionState>();
  #connectionsChanged = false;
  readonly #agents = new Map<string, AgentState>();
  #agentsChanged = false;
  readonly #teams: string[] = [];
  #teamsChanged = false;

  readonly #frames: MassimFrame[] = [];
  readonly #results: number[][] = [];
  /** The lowest frame changed since the last news. */
  #framesChangedFrom = 0;
  /** Timeline frame of each message (-1 before the first step). */
  #messageFrames = new Int32Array(1024);
  #simulationEnded = false;

  readonly #stops: MassimReceiverStop[] = [];
  #newStops: MassimReceiverStop[] = [];
  #resumed: MassimNews['resumed'] = [];
  #newNotes: MassimNote[] = [];
  readonly #worlds: WorldOfSimulation[] = [];
  /** The frame of the last `reward` annotation, whose world snapshot follows it. */
  #rewardFrame: number | undefined;
  #rows: MassimRows = emptyRows(0);

  /**
   * `judgeAgents`: check the agents' frames with the server machine, for transcripts that do not carry
   * the emulated host's verdicts (recordings of real servers).
   */
  constructor(store: TranscriptStore, { judgeAgents }: { judgeAgents: boolean }) {
    this.#store = store;
    this.#judge = judgeAgents;
  }

  /** The timeline so far. */
  get frames(): readonly MassimFrame[] {
    return this.#frames;
  }

  /** Reads what was added to the store since the last call and reports it. */
  read(): MassimNews {
    const store = this.#store;
    for (; this.#messagesRead < store.length; this.#messagesRead++)
      this.#readMessage(store.message(this.#messagesRead));
    return this.#readAnnotations();
  }

  /** How many simulations the timeline has reached (a simulation counts from its first step). */
  get simulations(): number {
    const last = this.#frames[this.#frames.length - 1];
    return last ? last.simulation + 1 : 0;
  }

  /** How many messages were read. */
  get messagesRead(): number {
    return this.#messagesRead;
  }

  /**
   * Reads the next messages as handed in, numbered on from the last one read, instead of out of the store
   * (decoding each again); `read` then reports them. The store holds them too, or none of them (a reader
   * that forgets them anyway need not copy every message into its store).
   */
  readMessages(messages: readonly TranscriptMessage[]): void {
    for (const message of messages) {
      const index = this.#messagesRead++;
      this.#readMessage(message.index === index ? message : { ...message, index });
    }
  }

  #readAnnotations(): MassimNews {
    const store = this.#store;
    if (store.annotationCount > this.#annotationsRead) {
      const worlds = new Set(store.annotationsOfType('world'));
      for (let i = this.#annotationsRead; i < store.annotationCount; i++) this.#readAnnotation(i, worlds);
      this.#annotationsRead = store.annotationCount;
    }
    return this.#news();
  }

  #news(): MassimNews {
    const from = Math.min(this.#framesChangedFrom, this.#frames.length);
    const news: MassimNews = {
      rows: this.#rows,
      framesFrom: from,
      frames: this.#frames.slice(from).map((frame) => ({ ...frame, scores: { ...frame.scores } })),
      results: this.#results.slice(from).map((codes) => codes.slice()),
      stops: this.#newStops,
      resumed: this.#resumed,
      notes: this.#newNotes,
      ...(this.#connectionsChanged ? { connections: [...this.#connections.keys()] } : {}),
      ...(this.#agentsChanged
        ? {
            agents: [...this.#agents.values()].map(({ info }) => ({
              ...info,
              connections: [...info.connections],
            })),
          }
        : {}),
      ...(this.#teamsChanged ? { teams: [...this.#teams] } : {}),
    };
    this.#rows = emptyRows(this.#messagesRead);
    this.#framesChangedFrom = this.#frames.length;
    this.#newStops = [];
    this.#resumed = [];
    this.#newNotes = [];
    this.#connectionsChanged = this.#agentsChanged = this.#teamsChanged = false;
    return news;
  }

  // ---- messages ------------------------------------------------------------------------------------------

  #readMessage(message: TranscriptMessage): void {
    const connection = this.#connection(message.conn);
    let type: string = message.kind;
    let gist: string;
    let unreadable: string | null = null;
    let frame = this.#frames.length - 1;
    if (message.kind === 'data') {
      const text = message.text ?? lenientUtf8.decode(payloadBytes(message));
      type = leadingTypeOf(text) ?? readType(text) ?? 'unreadable';
      if (type === 'unreadable') unreadable = 'not a JSON object with a "type"';
      const read =
        message.dir === 'c2s'
          ? this.#readAgentFrame(connection, type, text, message.index)
          : this.#readServerFrame(connection, type, text, message.index);
      gist = read.gist;
      if (read.frame !== undefined) frame = read.frame;
    } else {
      gist = message.text ?? '';
    }
    if (this.#judge) this.#judgeFrame(connection, message, frame);
    this.#setMessageFrame(message.index, frame);
    const rows = this.#rows;
    rows.conn.push(connection.number);
    rows.dir.push(message.dir);
    rows.t.push(message.t);
    rows.type.push(type);
    rows.frame.push(frame);
    rows.gist.push(gist);
    rows.unreadable.push(unreadable);
  }

  #readAgentFrame(
    connection: ConnectionState,
    type: string,
    text: string,
    index: number,
  ): { gist: string; frame?: number } {
    if (type === 'auth-request') {
      const user = fields.user.in(text) ?? '';
      if (user && !connection.agent) this.#attach(connection, user);
      return { gist: user };
    }
    if (type !== 'action') return { gist: text.length > 80 ? `${text.slice(0, 80)}…` : text };
    const agent = connection.agent ? this.#agents.get(connection.agent) : undefined;
    const id = Number(fields.id.in(text) ?? NaN);
    const frame = agent?.idFrames.get(id);
    if (agent && frame !== undefined && !agent.actions.has(frame)) agent.actions.set(frame, index);
    return { gist: actionGist(text), ...(frame !== undefined ? { frame } : {}) };
  }

  #readServerFrame(
    connection: ConnectionState,
    type: string,
    text: string,
    index: number,
  ): { gist: string; frame?: number } {
    const agent = connection.agent ? this.#agents.get(connection.agent) : undefined;
    switch (type) {
      case 'auth-response': {
        const result = fields.result.in(text) ?? '';
        if (result === 'ok' && agent?.stop) this.#resume(agent, connection);
        return { gist: result };
      }
      case 'sim-start': {
        const team = fields.team.in(text) ?? '';
        if (agent) this.#setTeam(agent, team, text);
        return { gist: `team ${team}, ${fields.steps.in(text) ?? '?'} steps` };
      }
      case 'request-action':
        return this.#readRequest(agent, text, index);
      case 'sim-end': {
        const score = Number(fields.score.in(text) ?? NaN);
        const last = this.#frames.length - 1;
        if (agent?.info.team && last >= 0 && !Number.isNaN(score)) this.#score(last, agent.info.team, score);
        this.#simulationEnded = true;
        return {
          gist: `score ${fields.score.in(text) ?? '?'}, rank ${fields.ranking.in(text) ?? '?'}`,
        };
      }
      default:
        return { gist: '' };
    }
  }

  #readRequest(agent: AgentState | undefined, text: string, index: number): { gist: string; frame: number } {
    const step = Number(fields.step.in(text) ?? NaN);
    const id = Number(fields.id.in(text) ?? NaN);
    const frame = this.#frameOf(Number.isNaN(step) ? 0 : step, index);
    const lastAction = fields.lastAction.in(text) ?? '';
    const lastResult = fields.lastActionResult.in(text) ?? '';
    if (agent) {
      agent.requests.set(frame, index);
      agent.idFrames.set(id, frame);
      const previous = this.#frames[frame - 1];
      const current = this.#frames[frame]!;
      if (previous && previous.simulation === current.simulation && previous.step === current.step - 1) {
        this.#setResult(frame - 1, agent.position, resultCode(lastAction, lastResult));
        const score = Number(fields.score.in(text) ?? NaN);
        if (agent.info.team && !Number.isNaN(score)) this.#score(frame - 1, agent.info.team, score);
      }
    }
    const last = lastAction ? ` · last ${lastAction} ${lastResult}` : '';
    return { gist: `step ${step}, id ${id}${last}`, frame };
  }

  /** The frame of a request-action for `step`: the current one, or a new one (of a new simulation). */
  #frameOf(step: number, index: number): number {
    const last = this.#frames[this.#frames.length - 1];
    if (last && !this.#simulationEnded && step === last.step) return this.#frames.length - 1;
    const simulation = !last
      ? 0
      : this.#simulationEnded || step < last.step
        ? last.simulation + 1
        : last.simulation;
    this.#simulationEnded = false;
    this.#frames.push({ simulation, step, index, scores: {}, world: false });
    this.#results.push([]);
    return this.#frames.length - 1;
  }

  #score(frame: number, team: string, score: number): void {
    const scores = this.#frames[frame]!.scores;
    if (scores[team] === score) return;
    scores[team] = score;
    this.#changed(frame);
  }

  #setResult(frame: number, agent: number, code: number): void {
    const codes = this.#results[frame]!;
    while (codes.length <= agent) codes.push(NO_RESULT);
    if (codes[agent] === code) return;
    codes[agent] = code;
    this.#changed(frame);
  }

  #changed(frame: number): void {
    if (frame < this.#framesChangedFrom) this.#framesChangedFrom = frame;
  }

  #connection(conn: string): ConnectionState {
    let connection = this.#connections.get(conn);
    if (!connection) {
      connection = { id: conn, number: this.#connections.size };
      this.#connections.set(conn, connection);
      this.#connectionsChanged = true;
      // Emulated and recorded sessions name agent connections `agentA1.conn2`.
      const agent = field(conn, connectionName);
      if (agent) this.#attach(connection, agent);
    }
    return connection;
  }

  /** Ties a connection to its agent (known from its name or its auth-request). */
  #attach(connection: ConnectionState, name: string): void {
    connection.agent = name;
    let agent = this.#agents.get(name);
    if (!agent) {
      agent = {
        info: { name, team: '', connections: [] },
        position: this.#agents.size,
        requests: new Map(),
        actions: new Map(),
        idFrames: new Map(),
        vision: new Map(),
      };
      this.#agents.set(name, agent);
    }
    if (!agent.info.connections.includes(connection.id)) agent.info.connections.push(connection.id);
    this.#agentsChanged = true;
  }

  #setTeam(agent: AgentState, team: string, simStart: string): void {
    if (agent.info.team !== team) {
      agent.info.team = team;
      this.#agentsChanged = true;
    }
    if (team && !this.#teams.includes(team)) {
      this.#teams.push(team);
      this.#teamsChanged = true;
    }
    try {
      const roles = (
        JSON.parse(simStart) as { content: { percept: { roles: { name: string; vision: number }[] } } }
      ).content.percept.roles;
      for (const role of roles) agent.vision.set(role.name, role.vision);
    } catch {
      // A sim-start that is not JSON leaves the visions unknown; the log shows the frame as it is.
    }
  }

  #setMessageFrame(index: number, frame: number): void {
    if (index >= this.#messageFrames.length) {
      const grown = new Int32Array(Math.max(index + 1, this.#messageFrames.length * 2));
      grown.set(this.#messageFrames);
      this.#messageFrames = grown;
    }
    this.#messageFrames[index] = frame;
  }

  #frameOfMessage(index: number): number {
    return index < this.#messagesRead ? this.#messageFrames[index]! : this.#frames.length - 1;
  }

  // ---- verdicts, stops and notes -------------------------------------------------------------------------

  /** Recorded traffic: the server machine says what the real server made of each agent frame. */
  #judgeFrame(connection: ConnectionState, message: TranscriptMessage, frame: number): void {
    const step = this.#serverMachine.accept(connection.machine ?? this.#serverMachine.initial(), message);
    connection.machine = step.state;
    if (step.ok) return;
    this.#violation(step.violation as MassimViolation, message.conn, connection.agent, frame);
  }

  #violation(violation: MassimViolation, conn: string, agentName: string | undefined, frame: number): void {
    this.#newNotes.push({
      index: violation.index,
      kind: 'violation',
      text: violation.message,
      level: violation.severity,
      frame,
      conn,
      ...(agentName ? { agent: agentName } : {}),
    });
    const agent = agentName ? this.#agents.get(agentName) : undefined;
    if (!agent || !RECEIVER_STOPS.has(violation.rule)) return;
    const stop: MassimReceiverStop = {
      agent: agent.info.name,
      conn,
      index: violation.index,
      rule: violation.rule,
      message: violation.message,
      frame,
    };
    agent.stop = stop;
    this.#stops.push(stop);
    this.#newStops.push(stop);
  }

  #resume(agent: AgentState, connection: ConnectionState): void {
    const stop = agent.stop!;
    if (stop.conn === connection.id) return;
    stop.resumedAt = Math.max(stop.frame, this.#frames.length - 1);
    this.#resumed.push({ index: stop.index, conn: stop.conn, resumedAt: stop.resumedAt });
    agent.stop = undefined;
  }

  #readAnnotation(number: number, worlds: ReadonlySet<number>): void {
    const store = this.#store;
    if (worlds.has(number)) {
      const rewardFrame = this.#rewardFrame;
      this.#rewardFrame = undefined;
      if (rewardFrame !== undefined && this.#worlds.length > 0) {
        // The host annotates the world right after the scores of the step it ran.
        this.#worlds[this.#worlds.length - 1]!.snapshots.set(rewardFrame, number);
        this.#frames[rewardFrame]!.world = true;
        this.#changed(rewardFrame);
        const world = this.#worlds[this.#worlds.length - 1]!.static;
        if (this.#frames[rewardFrame]!.step === world.steps - 1) this.#finalResults(rewardFrame, number);
        return;
      }
      const data = store.annotation(number).data as { kind?: string; world?: MassimWorldStatic };
      if (data.kind === 'static' && data.world)
        this.#worlds.push({ static: data.world, snapshots: new Map() });
      return;
    }
    this.#rewardFrame = undefined;
    const annotation = store.annotation(number);
    if (annotation.type === 'reward') this.#rewardFrame = this.#rewardedFrame(annotation);
    else this.#readNote(annotation);
  }

  /** The frame a `reward` annotation (`{ step, scores }`) is about: the latest frame of that step. */
  #rewardedFrame(annotation: Annotation): number | undefined {
    const step = (annotation.data as { step?: unknown }).step;
    for (let frame = this.#frames.length - 1; frame >= 0; frame--)
      if (this.#frames[frame]!.step === step) return frame;
    return undefined;
  }

  /** The outcomes of a simulation's last step, which no percept reports: from the world after it. */
  #finalResults(frame: number, annotation: number): void {
    const data = this.#store.annotation(annotation).data as {
      world?: { entities?: { name: string; action: string; actionResult: string }[] };
    };
    for (const entity of data.world?.entities ?? []) {
      const agent = this.#agents.get(entity.name);
      if (agent) this.#setResult(frame, agent.position, resultCode(entity.action, entity.actionResult));
    }
  }

  #readNote(annotation: Annotation): void {
    const data = (annotation.data ?? {}) as Record<string, unknown>;
    const frame = this.#frameOfMessage(annotation.index);
    const text =
      typeof data.message === 'string' ? data.message : typeof data.text === 'string' ? data.text : '';
    switch (annotation.type) {
      case 'violation':
        this.#violation(
          { ...(data as unknown as MassimViolation), index: annotation.index },
          String(data.conn ?? ''),
          typeof data.agent === 'string' ? data.agent : undefined,
          frame,
        );
        return;
      case 'policy-log':
        this.#newNotes.push({
          index: annotation.index,
          kind: 'policy-log',
          text,
          level: typeof data.level === 'string' ? data.level : 'log',
          frame,
        });
        return;
      case 'note':
      case 'error':
        this.#newNotes.push({
          index: annotation.index,
          kind: annotation.type,
          text,
          frame,
          ...(typeof data.agent === 'string' ? { agent: data.agent } : {}),
        });
        return;
    }
  }

  // ---- questions about one frame -------------------------------------------------------------------------

  /** The world after a frame's step, when the transcript holds it. */
  world(frame: number): MassimWorldView | undefined {
    const at = this.#frames[frame];
    if (!at?.world) return undefined;
    for (const world of this.#worlds) {
      const annotation = world.snapshots.get(frame);
      if (annotation === undefined) continue;
      const data = this.#store.annotation(annotation).data as { world: MassimWorldView['snapshot'] };
      return { frame, static: world.static, snapshot: data.world };
    }
    return undefined;
  }

  /** The static world of the simulation a frame belongs to (its size, teams, roles), when known. */
  worldStatic(frame: number): MassimWorldStatic | undefined {
    const simulation = this.#frames[frame]?.simulation;
    return simulation === undefined ? undefined : this.#worlds[simulation]?.static;
  }

  /** What an agent perceived at a frame, what it sent, and what came of it. */
  agentView(frame: number, name: string): MassimAgentView {
    const view: MassimAgentView = { agent: name, frame };
    const agent = this.#agents.get(name);
    if (!agent) return view;
    const requestIndex = agent.requests.get(frame);
    if (requestIndex !== undefined) {
      view.requestIndex = requestIndex;
      try {
        const message = JSON.parse(this.#store.payload(requestIndex) ?? '') as {
          content: { percept: MassimStepPercept };
        };
        view.percept = message.content.percept;
        const vision = agent.vision.get(view.percept.role);
        if (vision !== undefined) view.vision = vision;
      } catch {
        // Not JSON: the log shows the frame as it was sent.
      }
    }
    const actionIndex = agent.actions.get(frame);
    if (actionIndex !== undefined) {
      view.actionIndex = actionIndex;
      view.actionText = this.#store.payload(actionIndex) ?? '';
    }
    const executed = this.#executed(agent, frame);
    if (executed) view.executed = executed;
    const stop = this.#stops.find(
      (s) => s.agent === name && s.frame <= frame && (s.resumedAt === undefined || s.resumedAt > frame),
    );
    if (stop) view.stop = stop;
    return view;
  }

  /** The action the server executed for an agent at a frame and its result: from the next percept, else the world. */
  #executed(agent: AgentState, frame: number): MassimAgentView['executed'] {
    const next = agent.requests.get(frame + 1);
    const current = this.#frames[frame];
    if (next !== undefined && this.#frames[frame + 1]?.simulation === current?.simulation) {
      try {
        const percept = (
          JSON.parse(this.#store.payload(next) ?? '') as { content: { percept: MassimStepPercept } }
        ).content.percept;
        return {
          action: percept.lastAction,
          params: percept.lastActionParams,
          result: percept.lastActionResult,
        };
      } catch {
        // fall back to the world
      }
    }
    const entity = this.world(frame)?.snapshot.entities.find((e) => e.name === agent.info.name);
    return entity
      ? { action: entity.action, params: [...entity.actionParams], result: entity.actionResult }
      : undefined;
  }
}

function emptyRows(from: number): MassimRows {
  return { from, conn: [], dir: [], t: [], type: [], frame: [], gist: [], unreadable: [] };
}

/** The type of a frame that starts with it, as servers and clients write them (`{"type":"...`). */
function leadingTypeOf(text: string): string | undefined {
  const compact = '{"type":"';
  if (!text.startsWith(compact)) return field(text, leadingType);
  const end = text.indexOf('"', compact.length);
  return end < 0 ? undefined : text.slice(compact.length, end);
}

/** The type of a frame whose `type` is not its first key (a learner's own frame). */
function readType(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string'
      ? (value as { type: string }).type
      : undefined;
  } catch {
    return undefined;
  }
}

/** `move n e`, `submit task2`, or what is wrong with an action frame. */
function actionGist(text: string): string {
  // The compact form every client library writes: only the parameter list needs parsing.
  const plain = /^\{"type":"action","content":\{"id":"?\d+"?,"type":"([^"\\]*)","p":(\[.*\])\}\}$/.exec(text);
  if (plain) {
    try {
      const p = JSON.parse(plain[2]!) as unknown[];
      return [plain[1]!, ...p.map((value) => String(value))].join(' ');
    } catch {
      // not that form after all: read it whole below
    }
  }
  try {
    const { content } = JSON.parse(text) as { content?: { type?: unknown; p?: unknown } };
    if (!content || typeof content !== 'object') return 'no content';
    const type = typeof content.type === 'string' ? content.type : '?';
    if (!Array.isArray(content.p)) return `${type} — no "p" array`;
    return [type, ...content.p.map((value) => String(value))].join(' ');
  } catch {
    return 'not valid JSON';
  }
}
