/**
 * A MASSim recording played again against the emulated server: every agent of the recording logs in with
 * the auth-request it recorded, and answers each request-action with the frames it recorded after the
 * request of the same id (none: the agent let the step time out, and the virtual clock moves to the
 * deadline). What the server sends each agent (auth-response, sim-start, every request-action with its
 * percept, sim-end, bye) is compared with what that agent's connection recorded, member by member, leaving
 * out the clock (`time`, `deadline`).
 *
 * A Protoplay recording carries its server configuration, seed and random number semantics, so its
 * worlds are rebuilt exactly. A recording of the real server carries none of them: the user picks a
 * configuration (a match shaped like the recording, or the contest's sample) and a seed, with the real
 * server's random numbers where that is the point, and the report says what was chosen. Only each agent's
 * first connection is replayed.
 */
import { parseMassimConfig, quickMassimConfig, sampleMassimConfig } from '../../envs/massim';
import type { MassimSemantics, MassimServerConfig } from '../../envs/massim/api';
import { ProtoplayError } from '../../errors';
import type { Transcript, TranscriptMessage } from '../../transcript/model';
import {
  compareConversation,
  mergeComparisons,
  ReplayPacer,
  type EmulatedMessage,
  type ReplayEnvironmentChoice,
  type ReplayPlan,
  type ReplayReport,
  type ReplaySetup,
  type TranscriptReplay,
} from '../replay';
import { MassimMatchRunner, type MassimWireReply, type MassimWireTeam } from './runner';

/** One connection of an agent in the recording. */
interface RecordedConnection {
  conn: string;
  /** Its data messages, both ways, in order. */
  messages: TranscriptMessage[];
  /** Transcript index of its first message (its opening, where recorded). */
  openedAt: number;
  /** Position among its server frames after which the agent closed it (-1: before any), if it did. */
  closedAfter?: number;
}

/** One agent of the recording: its connections in the order they opened. */
interface RecordedAgent {
  agent: string;
  connections: RecordedConnection[];
}

/** Where a connection opened: after the server frame at `position` of the connection `conn`. */
interface Anchor {
  conn: string;
  position: number;
}

function parse(text: string | undefined): { type?: string; content?: Record<string, unknown> } | undefined {
  try {
    const value = JSON.parse(text ?? '') as unknown;
    return typeof value === 'object' && value !== null ? (value as { type?: string }) : undefined;
  } catch {
    return undefined;
  }
}

/** The agents of the recording (by the user their auth-request names), in the order they connected. */
function recordedAgents(transcript: Transcript): RecordedAgent[] {
  const byConnection = new Map<string, TranscriptMessage[]>();
  for (const message of transcript.messages) {
    const list = byConnection.get(message.conn) ?? [];
    byConnection.set(message.conn, list);
    list.push(message);
  }
  const agents = new Map<string, RecordedAgent>();
  for (const [conn, all] of byConnection) {
    const messages = all.filter((m) => m.kind === 'data');
    const auth = messages.find((m) => m.dir === 'c2s' && parse(m.text)?.type === 'auth-request');
    const user = auth && parse(auth.text)?.content?.user;
    if (typeof user !== 'string') continue;
    const connection: RecordedConnection = { conn, messages, openedAt: all[0]!.index };
    const close = all.find((m) => m.kind === 'close');
    if (close?.dir === 'c2s') {
      const before = messages.filter((m) => m.dir === 's2c' && m.index < close.index).length;
      connection.closedAfter = before - 1;
    }
    const known = agents.get(user);
    if (known) known.connections.push(connection);
    else agents.set(user, { agent: user, connections: [connection] });
  }
  return [...agents.values()];
}

/**
 * Where each connection that did not open with the match opened: after the last server frame recorded
 * before it (on any agent's connection). A first connection opens with the match unless it opened after
 * the match's first sim-start (an agent that joined late).
 */
function anchorsOf(agents: readonly RecordedAgent[]): Map<RecordedConnection, Anchor> {
  const frames: { index: number; conn: string; position: number; start: boolean }[] = [];
  for (const { connections } of agents)
    for (const { conn, messages } of connections) {
      let position = 0;
      for (const m of messages)
        if (m.dir === 's2c')
          frames.push({
            index: m.index,
            conn,
            position: position++,
            start: m.text?.includes('"sim-start"') === true,
          });
    }
  frames.sort((a, b) => a.index - b.index);
  const firstStart = frames.find((f) => f.start)?.index;
  const anchors = new Map<RecordedConnection, Anchor>();
  for (const { connections } of agents)
    for (const [k, connection] of connections.entries()) {
      if (k === 0 && (firstStart === undefined || connection.openedAt < firstStart)) continue;
      const before = frames.filter((f) => f.index < connection.openedAt && f.conn !== connection.conn).at(-1);
      if (before) anchors.set(connection, { conn: before.conn, position: before.position });
    }
  return anchors;
}

/** The shape of the recorded match: teams, agents per team and steps, as the sim-starts tell. */
function recordedShape(agents: readonly RecordedAgent[]) {
  const teams: string[] = [];
  let agentsPerTeam = 1;
  let steps: number | undefined;
  for (const { messages } of agents.flatMap((a) => a.connections)) {
    const start = messages.find((m) => m.dir === 's2c' && parse(m.text)?.type === 'sim-start');
    const percept = parse(start?.text)?.content?.percept as
      { team?: unknown; teamSize?: unknown; steps?: unknown } | undefined;
    if (typeof percept?.team === 'string' && !teams.includes(percept.team)) teams.push(percept.team);
    if (typeof percept?.teamSize === 'number') agentsPerTeam = Math.max(agentsPerTeam, percept.teamSize);
    if (typeof percept?.steps === 'number') steps ??= percept.steps;
  }
  return { teams: teams.length ? teams.sort() : ['A', 'B'], agentsPerTeam, steps: steps ?? 200 };
}

/** A configuration the user may pick, and whose random numbers it plays with. */
interface MassimChoice extends ReplayEnvironmentChoice {
  config(shape: ReturnType<typeof recordedShape>): MassimServerConfig;
  semantics: MassimSemantics;
}

function choices(shape: ReturnType<typeof recordedShape>): MassimChoice[] {
  const shaped = `${shape.teams.length} teams of ${shape.agentsPerTeam}, ${shape.steps} steps, 40 x 40`;
  const quick = (s: typeof shape) =>
    quickMassimConfig({ teams: s.teams, agentsPerTeam: s.agentsPerTeam, steps: s.steps });
  return [
    {
      id: 'shaped-massim',
      label: `A match like the recording's (${shaped}), the real server's random numbers`,
      config: quick,
      semantics: 'massim',
    },
    {
      id: 'shaped-protoplay',
      label: `A match like the recording's (${shaped}), Protoplay's random numbers`,
      config: quick,
      semantics: 'protoplay',
    },
    {
      id: 'contest-massim',
      label: "The contest's sample match, the real server's random numbers",
      config: () => sampleMassimConfig(),
      semantics: 'massim',
    },
  ];
}

/** The configuration the recording carries (a Protoplay recording), if it carries one. */
function recordedConfig(transcript: Transcript): MassimServerConfig | undefined {
  const text = transcript.meta.config;
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as MassimServerConfig;
  } catch {
    return undefined;
  }
}

/** Percept lists the real server writes in hash-set order: their order carries no meaning. */
const SET_LISTS = ['things', 'tasks', 'norms', 'attached', 'goalZones', 'roleZones', 'violations', 'events'];

/** A JSON value as text with its object keys sorted, so equal values give equal texts. */
function sortedKeysText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedKeysText).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedKeysText((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function sortList(list: unknown[]): void {
  const keyed = list.map((item) => [sortedKeysText(item), item] as const);
  keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  keyed.forEach(([, item], i) => (list[i] = item));
}

/** Sorts a frame's hash-ordered percept lists in place (tasks' and norms' requirements first). */
function sortSetLists(message: unknown): void {
  const percept = (message as { content?: { percept?: Record<string, unknown> } } | null)?.content?.percept;
  if (typeof percept !== 'object' || percept === null) return;
  for (const key of SET_LISTS) {
    const list = percept[key];
    if (!Array.isArray(list)) continue;
    if (key === 'tasks' || key === 'norms')
      for (const item of list as { requirements?: unknown }[])
        if (Array.isArray(item?.requirements)) sortList(item.requirements);
    sortList(list);
  }
}

/** The clock's members: they differ between any two runs, so they are left out of the comparison. */
const isClock = (key: string) => key === 'time' || key === 'deadline';

/** The MASSim replay. */
export const massimReplay: TranscriptReplay = {
  plan(transcript): ReplayPlan {
    const agents = recordedAgents(transcript);
    const seed = transcript.meta.seed;
    return {
      ...(recordedConfig(transcript) ? { environment: 'the configuration the recording carries' } : {}),
      ...(typeof seed === 'number' ? { seed } : {}),
      choices: choices(recordedShape(agents)).map(({ id, label }) => ({ id, label })),
      file: { label: "The server's configuration file (with the real server's random numbers)" },
      ...(agents.length === 0 ? { impossible: 'the recording holds no agent that logged in' } : {}),
    };
  },

  async run(transcript, setup: ReplaySetup = {}, watch): Promise<ReplayReport> {
    const plan = massimReplay.plan(transcript);
    if (plan.impossible) throw new ProtoplayError('massim.replay.empty', plan.impossible);
    const agents = recordedAgents(transcript);
    let config = recordedConfig(transcript);
    let semantics: MassimSemantics | undefined =
      transcript.meta.semantics === 'massim' ? 'massim' : undefined;
    let environment = plan.environment;
    if (!config && setup.file) {
      // Includes are not read: a configuration that includes other files must be given whole.
      config = parseMassimConfig(setup.file.text, { source: setup.file.name });
      semantics = 'massim';
      environment = `${setup.file.name}, the real server's random numbers`;
    } else if (!config) {
      const choice = choices(recordedShape(agents)).find((c) => c.id === setup.environment);
      if (!choice)
        throw new ProtoplayError(
          'massim.replay.config',
          setup.environment === undefined
            ? 'the recording does not carry its server configuration: choose one'
            : `there is no configuration '${setup.environment}'`,
        );
      config = choice.config(recordedShape(agents));
      semantics = choice.semantics;
      environment = choice.label;
    }
    const seed = plan.seed ?? setup.seed;
    // Emulated frames by agent, then by connection number (the agent's k-th recorded connection is k).
    const emulated = new Map<string, EmulatedMessage[][]>();
    const anchors = anchorsOf(agents);
    /** Agents to connect once a frame arrives: by `<connection id>|<frame key>`, in recording order. */
    const triggers = new Map<string, string[]>();
    for (const [connection, anchor] of anchors) {
      const recorded = connectionById(agents, anchor.conn);
      const text = recorded?.messages.filter((m) => m.dir === 's2c')[anchor.position]?.text;
      const agent = agents.find((a) => a.connections.includes(connection))!.agent;
      const key = `${anchor.conn}|${frameKey(parse(text))}`;
      triggers.set(key, [...(triggers.get(key) ?? []), agent]);
    }
    const late = new Set(agents.filter((a) => anchors.has(a.connections[0]!)).map((a) => a.agent));
    const total = agents.reduce(
      (sum, a) =>
        sum + a.connections.reduce((n, c) => n + c.messages.filter((m) => m.dir === 's2c').length, 0),
      0,
    );
    const pacer = new ReplayPacer(total, watch);
    let done = 0;
    let cancelled: unknown;
    const wireTeam: MassimWireTeam = async (event): Promise<MassimWireReply | undefined> => {
      const agent = agents.find((a) => a.agent === event.agent);
      const recorded = agent?.connections[event.connection - 1];
      if (!agent || !recorded) return undefined;
      if (event.kind === 'connected')
        return { frames: framesBefore(recorded.messages, 0), close: recorded.closedAfter === -1 };
      if (event.kind !== 'frame') return undefined;
      const byConnection = emulated.get(event.agent) ?? [];
      emulated.set(event.agent, byConnection);
      const frames = (byConnection[event.connection - 1] ??= []);
      frames.push({ text: event.text });
      done++;
      if (pacer.due())
        try {
          await pacer.pause(done);
        } catch (error) {
          cancelled = error;
          runner.stop();
          return undefined;
        }
      const message = parse(event.text);
      const key = frameKey(message);
      const trigger = `${recorded.conn}|${key}`;
      const connect = triggers.get(trigger);
      triggers.delete(trigger);
      const reply: MassimWireReply = connect ? { connect } : {};
      // The frames the agent recorded after this server frame (a request-action: the one of this id).
      const position = framePositions(recorded).get(key);
      if (position === undefined) return reply;
      return {
        ...reply,
        frames: framesBefore(recorded.messages, position.at + 1),
        ...(recorded.closedAfter === position.server ? { close: true } : {}),
      };
    };
    const teams = new Set(config.teams.map((t) => t.name));
    const runner = new MassimMatchRunner({
      config,
      teams: {},
      wireTeams: Object.fromEntries([...teams].map((team) => [team, wireTeam])),
      connectAtStart: (name) => !late.has(name),
      ...(seed !== undefined ? { seed } : {}),
      ...(semantics ? { semantics } : {}),
      faithfulRaces: transcript.meta.faithfulRaces === true,
      recordWorld: false,
      recording: { keep: false },
      startTime: transcript.startedAt,
    });
    await runner.run();
    if (cancelled) throw cancelled;
    pacer.finish();
    const parts = agents.flatMap((agent) =>
      agent.connections.map((connection, k) =>
        compareConversation(
          connection.messages.filter((m) => m.dir === 's2c'),
          emulated.get(agent.agent)?.[k] ?? [],
          { conn: connection.conn },
          { ignore: isClock, normalise: sortSetLists },
        ),
      ),
    );
    const notes = [
      'the clock (time, deadline) is left out of the comparison',
      'the lists the real server writes in hash-set order (things, tasks, norms, their requirements, zones, attached, violations, events) are compared sorted: paths into them count in sorted order',
    ];
    if (plan.environment === undefined)
      notes.push(
        setup.file
          ? `the recording does not carry its server configuration: compared with ${setup.file.name}, which you gave`
          : 'the recording does not carry its server configuration: compared with the one you chose (the grid size and the scenario settings are not on the wire)',
      );
    if (plan.seed === undefined)
      notes.push(
        seed === undefined
          ? "the recording carries no seed: each simulation used its configuration's seed"
          : 'the recording carries no seed: compared with the seed you gave',
      );
    const reconnected = agents.filter((a) => a.connections.length > 1).map((a) => a.agent);
    if (reconnected.length || late.size)
      notes.push(
        `${[...new Set([...late, ...reconnected])].join(', ')} connected during the match: each connection was opened again after the server frame the recording shows before it (frames sent to several agents at once may come in another order)`,
      );
    return {
      environment: environment ?? 'the configuration the recording carries',
      environmentFrom: plan.environment ? 'recording' : 'chosen',
      seed: seed ?? 0,
      seedFrom: plan.seed !== undefined ? 'recording' : setup.seed !== undefined ? 'chosen' : 'default',
      ...mergeComparisons(parts),
      notes,
    };
  },
};

/** What a server frame is matched by: a request-action by its id, any other frame by its type. */
function frameKey(message: { type?: string; content?: Record<string, unknown> } | undefined): string {
  return message?.type === 'request-action'
    ? `request-action ${String(message.content?.id)}`
    : String(message?.type);
}

function connectionById(agents: readonly RecordedAgent[], conn: string): RecordedConnection | undefined {
  for (const agent of agents) for (const c of agent.connections) if (c.conn === conn) return c;
  return undefined;
}

/** Where a server frame was recorded: among the connection's messages, and among its server frames. */
interface FramePosition {
  at: number;
  server: number;
}

const positions = new WeakMap<RecordedConnection, Map<string, FramePosition>>();

/** Where each server frame was recorded on the connection, by its key (the first one). */
function framePositions(connection: RecordedConnection): Map<string, FramePosition> {
  let found = positions.get(connection);
  if (found) return found;
  found = new Map();
  let server = 0;
  connection.messages.forEach((m, i) => {
    if (m.dir !== 's2c') return;
    const key = frameKey(parse(m.text));
    if (!found.has(key)) found.set(key, { at: i, server });
    server++;
  });
  positions.set(connection, found);
  return found;
}

/** The agent's frames from position `from` up to the next frame of the server. */
function framesBefore(messages: readonly TranscriptMessage[], from: number): string[] {
  const frames: string[] = [];
  for (let i = from; i < messages.length && messages[i]!.dir === 'c2s'; i++)
    frames.push(messages[i]!.text ?? '');
  return frames;
}
