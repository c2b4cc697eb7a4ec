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
  type EmulatedMessage,
  type ReplayEnvironmentChoice,
  type ReplayPlan,
  type ReplayReport,
  type ReplaySetup,
  type TranscriptReplay,
} from '../replay';
import { MassimMatchRunner, type MassimWireReply, type MassimWireTeam } from './runner';

/** One agent's first connection in the recording. */
interface RecordedAgent {
  agent: string;
  conn: string;
  /** Its data messages, both ways, in order. */
  messages: TranscriptMessage[];
  /** Connections of the same agent after the first (not replayed). */
  laterConnections: number;
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
    if (message.kind !== 'data') continue;
    const list = byConnection.get(message.conn) ?? [];
    byConnection.set(message.conn, list);
    list.push(message);
  }
  const agents = new Map<string, RecordedAgent>();
  for (const [conn, messages] of byConnection) {
    const auth = messages.find((m) => m.dir === 'c2s' && parse(m.text)?.type === 'auth-request');
    const user = auth && parse(auth.text)?.content?.user;
    if (typeof user !== 'string') continue;
    const known = agents.get(user);
    if (known) known.laterConnections++;
    else agents.set(user, { agent: user, conn, messages, laterConnections: 0 });
  }
  return [...agents.values()];
}

/** The shape of the recorded match: teams, agents per team and steps, as the sim-starts tell. */
function recordedShape(agents: readonly RecordedAgent[]) {
  const teams: string[] = [];
  let agentsPerTeam = 1;
  let steps: number | undefined;
  for (const { messages } of agents) {
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

  async run(transcript, setup: ReplaySetup = {}): Promise<ReplayReport> {
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
    const emulated = new Map<string, EmulatedMessage[]>();
    const wireTeam: MassimWireTeam = (event): MassimWireReply | undefined => {
      const recorded = agents.find((a) => a.agent === event.agent);
      if (!recorded || event.connection !== 1) return undefined;
      if (event.kind === 'connected') return { frames: framesBefore(recorded.messages, 0) };
      if (event.kind !== 'frame') return undefined;
      const frames = emulated.get(event.agent) ?? [];
      emulated.set(event.agent, frames);
      frames.push({ text: event.text });
      const message = parse(event.text);
      if (message?.type !== 'request-action') return undefined;
      // The frames the agent recorded after the request of this id, up to the next server frame.
      const at = requestPositions(recorded).get(message.content?.id);
      return at === undefined ? undefined : { frames: framesBefore(recorded.messages, at + 1) };
    };
    const teams = new Set(config.teams.map((t) => t.name));
    const runner = new MassimMatchRunner({
      config,
      teams: {},
      wireTeams: Object.fromEntries([...teams].map((team) => [team, wireTeam])),
      ...(seed !== undefined ? { seed } : {}),
      ...(semantics ? { semantics } : {}),
      faithfulRaces: transcript.meta.faithfulRaces === true,
      recordWorld: false,
      recording: { keep: false },
      startTime: transcript.startedAt,
    });
    await runner.run();
    const parts = agents.map((agent) =>
      compareConversation(
        agent.messages.filter((m) => m.dir === 's2c'),
        emulated.get(agent.agent) ?? [],
        { conn: agent.conn },
        { ignore: isClock, normalise: sortSetLists },
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
    const reconnected = agents.filter((a) => a.laterConnections > 0).map((a) => a.agent);
    if (reconnected.length)
      notes.push(`only the first connection of ${reconnected.join(', ')} was replayed (they reconnected)`);
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

const positions = new WeakMap<RecordedAgent, Map<unknown, number>>();

/** Where each request-action id was recorded among the agent's messages (read once per agent). */
function requestPositions(agent: RecordedAgent): Map<unknown, number> {
  let found = positions.get(agent);
  if (found) return found;
  found = new Map();
  agent.messages.forEach((m, i) => {
    // Only request-actions are read: a percept is the bulk of a frame, and this is one parse per frame.
    if (m.dir !== 's2c' || !m.text?.includes('"request-action"')) return;
    const request = parse(m.text);
    if (request?.type === 'request-action' && !found.has(request.content?.id))
      found.set(request.content?.id, i);
  });
  positions.set(agent, found);
  return found;
}

/** The agent's frames from position `from` up to the next frame of the server. */
function framesBefore(messages: readonly TranscriptMessage[], from: number): string[] {
  const frames: string[] = [];
  for (let i = from; i < messages.length && messages[i]!.dir === 'c2s'; i++)
    frames.push(messages[i]!.text ?? '');
  return frames;
}
