/**
 * Imports the replay folders the MASSim server writes (`replays/<time>-<simulation>/`): a `static.json`
 * (simulation name, grid size, teams, block types, steps) and files `0.json`, `5.json`, ... each mapping up
 * to five steps to the world after that step (`-1` is the world before the first step). A replay holds no
 * wire traffic, so the transcript it becomes is made from the worlds: for every agent a connection
 * `<agent>.conn1` with a `sim-start`, per step a `request-action` whose percept is what the agent saw in
 * the world before the step, the `action` it executed (from the world after the step), and a `sim-end` with
 * the final scores. Beside them the true world of every step and the team scores are annotated as an
 * emulated session annotates them, so the world view, the per-agent view and the scores work alike. The
 * transcript says `meta.source: "massim-replay"` and `meta.wire: "synthesised"`, and a note on its first
 * message says so: the messages are not what crossed the wire (no times, no reconnections, no late or
 * refused actions), so checking them against the protocol's rules proves nothing about the agents.
 */
import type {
  MassimEventPercept,
  MassimNormPercept,
  MassimRolePercept,
  MassimStepPercept,
  MassimTaskPercept,
  MassimThing,
  MassimWorldSnapshot,
  MassimWorldStatic,
} from '../../envs/massim/api';
import { ProtoplayError } from '../../errors';
import { jsonSyntaxError } from '../../transcript/json-format';
import type { Annotation, Transcript, TranscriptMessage } from '../../transcript/model';
import type { ImportInput, ImportOutcome, ImportProblem } from '../contract';
import type { MassimScoreAnnotation, MassimWorldAnnotation } from './host';

/** A file of a replay folder: `static.json` or a step group `<5k>.json`. */
const replayFileName = /(?:^|[/\\])(static|-?\d+)\.json$/;
const stepGroupStart = /^\s*\{\s*"-?\d+"\s*:\s*\{/;
const utf8 = new TextDecoder();

/** What `static.json` holds. */
interface ReplayStatic {
  sim: string;
  width: number;
  height: number;
  steps: number;
  teams: string[];
  blockTypes: string[];
  maxEnergy: number;
}

type Position = [number, number];

/** An entity of a replay world (the fields Protoplay reads). */
interface ReplayEntity {
  name: string;
  team: string;
  pos: Position;
  role: string;
  energy: number;
  vision: number;
  deactivated: boolean;
  action?: string;
  actionParams?: string[];
  actionResult?: string;
  events?: MassimEventPercept[];
  attached?: Position[];
}

/** One step's world as the server writes it. */
interface ReplayWorld {
  step: number;
  entities: ReplayEntity[];
  blocks: { pos: Position; type: string; attached?: Position[] }[];
  obstacles: { pos: Position }[];
  dispensers: { pos: Position; type: string }[];
  tasks: {
    name: string;
    deadline: number;
    reward: number;
    requirements: { pos: Position; type: string }[];
  }[];
  norms: (Omit<MassimNormPercept, 'requirements'> & {
    requirements: { quantity: number; name: string; type: string }[];
  })[];
  violations: { norm: string; who: string }[];
  goalZones: { pos: Position; r: number }[];
  roleZones: { pos: Position; r: number }[];
  clear: { pos: Position; r: number }[];
  scores: [string, number][];
  events: { type: string; task?: string; team?: string }[];
}

function directoryOf(name: string): string {
  const cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return cut < 0 ? '' : name.slice(0, cut);
}

function isStatic(input: ImportInput): boolean {
  return /(?:^|[/\\])static\.json$/.test(input.name);
}

/** True for a `<n>.json` whose text starts like a step group (`{"-1": {...`). */
function isStepGroup(input: ImportInput): boolean {
  return (
    replayFileName.test(input.name) &&
    !isStatic(input) &&
    stepGroupStart.test(utf8.decode(input.bytes.subarray(0, 64)))
  );
}

/**
 * How sure it is that the inputs hold MASSim replay folders: certain with a `static.json` that has a grid,
 * less with step groups alone (which cannot be read without their `static.json`). Other files beside them
 * (the server's `logs/` and `results/`, when a whole run folder is opened) do not lower it.
 */
export function detectMassimReplay(inputs: readonly ImportInput[]): number {
  const statics = inputs.filter(
    (input) => isStatic(input) && /"grid"\s*:/.test(utf8.decode(input.bytes.subarray(0, 4096))),
  );
  if (statics.length > 0) return 0.96;
  return inputs.length > 0 && inputs.some(isStepGroup) ? 0.6 : 0;
}

/** Reads every replay folder among the inputs: one transcript per folder (one simulation each). */
export function importMassimReplays(inputs: readonly ImportInput[]): ImportOutcome {
  const folders = new Map<string, ImportInput[]>();
  for (const input of inputs) {
    if (!replayFileName.test(input.name)) continue; // logs, results: not part of a replay
    const folder = directoryOf(input.name);
    folders.set(folder, [...(folders.get(folder) ?? []), input]);
  }
  const transcripts: Transcript[] = [];
  const sources: string[][] = [];
  const problems: ImportProblem[] = [];
  const sorted = [...folders].sort(([a], [b]) => a.localeCompare(b));
  for (const [folder, files] of sorted) {
    const staticFile = files.find(isStatic);
    if (!staticFile) {
      if (files.some(isStepGroup))
        problems.push({
          file: files[0]!.name,
          message: `the replay folder ${folder || '.'} has no static.json (grid size, teams, steps): its steps cannot be read without it`,
        });
      continue;
    }
    const transcript = readReplayFolder(staticFile, files, problems);
    if (transcript) {
      transcripts.push(transcript);
      sources.push(files.map((file) => file.name));
    }
  }
  if (transcripts.length === 0 && problems.length === 0)
    problems.push({ file: inputs[0]?.name ?? 'input', message: 'no MASSim replay folder found' });
  return { transcripts, problems, sources };
}

function parseJson(input: ImportInput): unknown {
  const text = utf8.decode(input.bytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw jsonSyntaxError(text, error, input.name);
  }
}

function problemOf(error: unknown, file: string): ImportProblem {
  if (error instanceof ProtoplayError && error.location)
    return { file, line: error.location.line, message: error.message };
  return { file, message: error instanceof Error ? error.message : String(error) };
}

function shapeError(file: string, what: string): ProtoplayError {
  return new ProtoplayError('massim.replay.shape', `expected ${what}`, { source: file, line: 1, column: 1 });
}

function readStatic(input: ImportInput): ReplayStatic {
  const json = parseJson(input) as Record<string, unknown> | null;
  const grid = json?.grid as { width?: unknown; height?: unknown } | undefined;
  if (
    typeof json !== 'object' ||
    json === null ||
    typeof grid?.width !== 'number' ||
    typeof grid.height !== 'number' ||
    typeof json.steps !== 'number'
  )
    throw shapeError(
      input.name,
      'a MASSim static.json: {"sim", "grid": {"width", "height"}, "steps", "teams"}',
    );
  return {
    sim: typeof json.sim === 'string' ? json.sim : '',
    width: grid.width,
    height: grid.height,
    steps: json.steps,
    teams: Object.keys((json.teams as Record<string, unknown> | undefined) ?? {}),
    blockTypes: Array.isArray(json.blockTypes) ? json.blockTypes.map(String) : [],
    maxEnergy: typeof json.maxEnergy === 'number' ? json.maxEnergy : 0,
  };
}

/** A step group's worlds by step; a world without entities is refused with its step. */
function readStepGroup(input: ImportInput, worlds: Map<number, ReplayWorld>): void {
  const json = parseJson(input);
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw shapeError(input.name, 'an object of steps: {"<step>": {"entities": [...], ...}}');
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    const world = value as Partial<ReplayWorld> | null;
    if (!/^-?\d+$/.test(key) || typeof world !== 'object' || world === null || !Array.isArray(world.entities))
      throw shapeError(input.name, `step "${key}" to be a world with "entities"`);
    worlds.set(Number(key), {
      step: Number(key),
      entities: world.entities,
      blocks: world.blocks ?? [],
      obstacles: world.obstacles ?? [],
      dispensers: world.dispensers ?? [],
      tasks: world.tasks ?? [],
      norms: world.norms ?? [],
      violations: world.violations ?? [],
      goalZones: world.goalZones ?? [],
      roleZones: world.roleZones ?? [],
      clear: world.clear ?? [],
      scores: world.scores ?? [],
      events: world.events ?? [],
    });
  }
}

/** The step group file a step is written to (`-1` goes with `0.json`). */
function groupOf(step: number): number {
  return Math.max(0, Math.floor(step / 5) * 5);
}

function readReplayFolder(
  staticFile: ImportInput,
  files: readonly ImportInput[],
  problems: ImportProblem[],
): Transcript | undefined {
  let info: ReplayStatic;
  try {
    info = readStatic(staticFile);
  } catch (error) {
    problems.push(problemOf(error, staticFile.name));
    return undefined;
  }
  const worlds = new Map<number, ReplayWorld>();
  const groups = files.filter((file) => file !== staticFile).sort((a, b) => groupNumber(a) - groupNumber(b));
  for (const group of groups) {
    try {
      readStepGroup(group, worlds);
    } catch (error) {
      problems.push({
        ...problemOf(error, group.name),
        message: `${problemOf(error, group.name).message}; steps ${stepRange(groupNumber(group), info.steps)} are left out`,
      });
    }
  }
  // Steps the simulation played that no file holds.
  const folder = directoryOf(staticFile.name);
  const reported = new Set<number>();
  for (let step = -1; step < info.steps; step++) {
    const group = groupOf(step);
    if (worlds.has(step) || reported.has(group)) continue;
    reported.add(group);
    const name = `${folder ? `${folder}/` : ''}${group}.json`;
    const present = groups.some((file) => groupNumber(file) === group);
    if (!present)
      problems.push({
        file: name,
        message: `missing: steps ${stepRange(group, info.steps)} of ${info.steps} are not in the replay (the run may have stopped early)`,
      });
    else if (!problems.some((problem) => problem.file.endsWith(`${group}.json`)))
      problems.push({ file: name, message: `step ${step} is missing from ${group}.json` });
  }
  return synthesiseTranscript(info, worlds);
}

function groupNumber(file: ImportInput): number {
  return Number(replayFileName.exec(file.name)?.[1] ?? NaN);
}

function stepRange(group: number, steps: number): string {
  const first = group === 0 ? -1 : group;
  const last = Math.min(group + 4, steps - 1);
  return `${first}–${last}`;
}

/** Torus distance along one axis, in (-size/2, size/2]. */
function wrap(delta: number, size: number): number {
  let d = ((delta % size) + size) % size;
  if (d > size / 2) d -= size;
  return d;
}

/** What an agent at `x, y` with `vision` perceives of a world (relative cells within Manhattan range). */
class VisionField {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  /** The relative position of an absolute cell when it is within `vision` of (x, y). */
  relative(x: number, y: number, vision: number, pos: Position): Position | undefined {
    const dx = wrap(pos[0] - x, this.width);
    const dy = wrap(pos[1] - y, this.height);
    return Math.abs(dx) + Math.abs(dy) <= vision ? [dx, dy] : undefined;
  }

  /** The relative cells within vision that lie in one of the zones. */
  zoneCells(
    x: number,
    y: number,
    vision: number,
    zones: readonly { pos: Position; r: number }[],
  ): Position[] {
    const cells: Position[] = [];
    if (zones.length === 0) return cells;
    for (let dx = -vision; dx <= vision; dx++)
      for (let dy = Math.abs(dx) - vision; dy <= vision - Math.abs(dx); dy++) {
        const cell: Position = [x + dx, y + dy];
        if (
          zones.some(
            (zone) =>
              Math.abs(wrap(cell[0] - zone.pos[0], this.width)) +
                Math.abs(wrap(cell[1] - zone.pos[1], this.height)) <=
              zone.r,
          )
        )
          cells.push([dx, dy]);
      }
    return cells;
  }
}

function tasksOf(world: ReplayWorld): MassimTaskPercept[] {
  return world.tasks.map((task) => ({
    reward: task.reward,
    requirements: task.requirements
      .map((requirement) => ({
        x: requirement.pos[0],
        y: requirement.pos[1],
        details: '',
        type: requirement.type,
      }))
      .sort((a, b) => a.x - b.x || a.y - b.y),
    name: task.name,
    deadline: task.deadline,
  }));
}

function normsOf(world: ReplayWorld): MassimNormPercept[] {
  return world.norms.map((norm) => ({
    requirements: norm.requirements.map((requirement) => ({
      quantity: requirement.quantity,
      name: requirement.name,
      type: requirement.type.toLowerCase() === 'role' ? 'role' : 'block',
    })),
    punishment: norm.punishment,
    name: norm.name,
    start: norm.start,
    until: norm.until,
  }));
}

/**
 * The percept of `entity` for `step`: what it sees and did from the world before the step; the norms,
 * tasks, punishments and clear areas from the world after it, since the server prepares them for the step's
 * percepts after it wrote the world before (its snapshot is taken between executing a step and preparing the
 * next).
 */
function perceptOf(
  entity: ReplayEntity,
  world: ReplayWorld,
  prepared: ReplayWorld,
  step: number,
  field: VisionField,
  scores: Map<string, number>,
): MassimStepPercept {
  const [x, y] = entity.pos;
  const things: MassimThing[] = [];
  const see = (pos: Position, type: MassimThing['type'], details: string) => {
    const at = field.relative(x, y, entity.vision, pos);
    if (at) things.push({ x: at[0], y: at[1], details, type });
  };
  for (const other of world.entities) see(other.pos, 'entity', other.team);
  for (const block of world.blocks) see(block.pos, 'block', block.type);
  for (const dispenser of world.dispensers) see(dispenser.pos, 'dispenser', dispenser.type);
  for (const obstacle of world.obstacles) see(obstacle.pos, 'obstacle', '');
  for (const [dx, dy] of field.zoneCells(x, y, entity.vision, prepared.clear))
    things.push({ x: dx, y: dy, details: 'clear', type: 'marker' });
  const attached: Position[] = [];
  for (const block of world.blocks)
    if (block.attached && block.attached.length > 0) {
      const at = field.relative(x, y, entity.vision, block.pos);
      if (at) attached.push(at);
    }
  const first = step === 0;
  return {
    lastActionParams: first ? [] : (entity.actionParams ?? []).map(String),
    role: entity.role,
    violations: prepared.violations.filter((violation) => violation.who === entity.name).map((v) => v.norm),
    deactivated: entity.deactivated,
    goalZones: field.zoneCells(x, y, entity.vision, world.goalZones),
    roleZones: field.zoneCells(x, y, entity.vision, world.roleZones),
    score: scores.get(entity.team) ?? 0,
    lastAction: first ? '' : (entity.action ?? ''),
    norms: normsOf(prepared),
    things,
    attached,
    lastActionResult: first ? '' : (entity.actionResult ?? ''),
    tasks: tasksOf(prepared),
    events: first ? [] : (entity.events ?? []),
    energy: entity.energy,
  };
}

function worldSnapshot(world: ReplayWorld, info: ReplayStatic): MassimWorldSnapshot {
  const attachments: [number, number, number, number][] = [];
  for (const thing of [...world.entities, ...world.blocks])
    for (const other of thing.attached ?? [])
      attachments.push([thing.pos[0], thing.pos[1], other[0], other[1]]);
  return {
    step: world.step + 1,
    obstacles: world.obstacles.map((o) => o.pos[1] * info.width + o.pos[0]).sort((a, b) => a - b),
    blocks: world.blocks.map((block) => ({ x: block.pos[0], y: block.pos[1], type: block.type })),
    dispensers: world.dispensers.map((d) => ({ x: d.pos[0], y: d.pos[1], type: d.type })),
    goalZones: world.goalZones.map((zone) => ({ x: zone.pos[0], y: zone.pos[1], radius: zone.r })),
    roleZones: world.roleZones.map((zone) => ({ x: zone.pos[0], y: zone.pos[1], radius: zone.r })),
    entities: world.entities.map((entity) => ({
      name: entity.name,
      team: entity.team,
      x: entity.pos[0],
      y: entity.pos[1],
      role: entity.role,
      energy: entity.energy,
      deactivated: entity.deactivated,
      vision: entity.vision,
      action: entity.action ?? '',
      actionParams: (entity.actionParams ?? []).map(String),
      actionResult: entity.actionResult ?? '',
    })),
    attachments,
    // The replay gives the areas of announced clear events, not when they fire.
    clearAreas: world.clear.map((area) => ({ x: area.pos[0], y: area.pos[1], radius: area.r, stepsLeft: 0 })),
    markers: [],
    scores: Object.fromEntries(world.scores),
    tasks: tasksOf(world),
    norms: normsOf(world),
    violations: world.violations.map((violation) => ({ norm: violation.norm, agent: violation.who })),
    events: world.events.flatMap((event) =>
      event.type === 'task completed' && event.task && event.team
        ? [{ type: 'task completed' as const, task: event.task, team: event.team, agent: '', reward: 0 }]
        : [],
    ),
  };
}

/** The transcript a replay folder's worlds make (see the file comment). */
function synthesiseTranscript(info: ReplayStatic, worlds: ReadonlyMap<number, ReplayWorld>): Transcript {
  const messages: TranscriptMessage[] = [];
  const annotations: Annotation[] = [];
  const anyWorld = worlds.get(-1) ?? worlds.values().next().value;
  const agents = (anyWorld?.entities ?? []).map((entity) => ({ name: entity.name, team: entity.team }));
  const teams = info.teams.length > 0 ? info.teams : [...new Set(agents.map((agent) => agent.team))];
  const roles = new Map<string, MassimRolePercept>();
  for (const world of worlds.values())
    for (const entity of world.entities)
      if (!roles.has(entity.role))
        roles.set(entity.role, {
          name: entity.role,
          vision: entity.vision,
          clear: { chance: 0, maxDistance: 0 },
          actions: [],
          speed: [],
        });
  const worldStatic: MassimWorldStatic = {
    width: info.width,
    height: info.height,
    steps: info.steps,
    teams: teams.map((team) => ({
      name: team,
      agents: agents.filter((agent) => agent.team === team).map((agent) => agent.name),
    })),
    blockTypes: info.blockTypes,
    maxEnergy: info.maxEnergy,
    roles: [...roles.values()].map((role) => ({ ...role, speed: [1] })),
  };
  const send = (conn: string, dir: 'c2s' | 's2c', body: unknown) =>
    messages.push({ index: messages.length, conn, dir, t: 0, kind: 'data', text: JSON.stringify(body) });
  const connection = (agent: string) => `${agent}.conn1`;
  const annotate = (type: 'world' | 'reward', data: MassimWorldAnnotation | MassimScoreAnnotation) =>
    annotations.push({ index: Math.max(0, messages.length - 1), type, data });

  for (const agent of agents)
    messages.push({ index: messages.length, conn: connection(agent.name), dir: 'c2s', t: 0, kind: 'open' });
  annotations.push({
    index: 0,
    type: 'note',
    data: {
      code: 'massim.replay.synthesised',
      message:
        'Made from the server replay: percepts and actions are rebuilt from the world of each step, not recorded from the wire (no times, reconnections or late actions).',
    },
  });
  for (const agent of agents)
    send(connection(agent.name), 's2c', {
      type: 'sim-start',
      content: {
        time: 0,
        percept: {
          teamSize: agents.filter((other) => other.team === agent.team).length,
          roles: [...roles.values()],
          name: agent.name,
          team: agent.team,
          steps: info.steps,
        },
      },
    });
  annotate('world', { kind: 'static', simulation: 0, world: worldStatic });
  const field = new VisionField(info.width, info.height);
  let last: ReplayWorld | undefined;
  for (let step = 0; step < info.steps; step++) {
    const before = worlds.get(step - 1);
    const after = worlds.get(step);
    if (!before) continue;
    const scores = new Map(before.scores);
    for (const entity of before.entities)
      send(connection(entity.name), 's2c', {
        type: 'request-action',
        content: {
          step,
          id: step,
          time: 0,
          percept: perceptOf(entity, before, after ?? before, step, field, scores),
          deadline: 0,
        },
      });
    if (!after) continue;
    last = after;
    for (const entity of after.entities)
      send(connection(entity.name), 'c2s', {
        type: 'action',
        content: { id: step, type: entity.action ?? 'no_action', p: entity.actionParams ?? [] },
      });
    const stepScores = Object.fromEntries(after.scores);
    annotate('reward', { simulation: 0, step, scores: stepScores });
    annotate('world', { kind: 'snapshot', simulation: 0, world: worldSnapshot(after, info) });
  }
  if (last && last.step === info.steps - 1) {
    const ranked = [...last.scores].sort((a, b) => b[1] - a[1]).map(([team]) => team);
    for (const agent of agents) {
      const score = last.scores.find(([team]) => team === agent.team)?.[1] ?? 0;
      send(connection(agent.name), 's2c', {
        type: 'sim-end',
        content: { score, ranking: ranked.indexOf(agent.team) + 1, time: 0 },
      });
    }
  }
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol: 'massim',
    startedAt: Number(/^(\d+)_/.exec(info.sim)?.[1] ?? 0),
    meta: { source: 'massim-replay', simulation: info.sim, wire: 'synthesised', timing: 'unknown' },
    connections: agents.map((agent) => ({ id: connection(agent.name), label: agent.name })),
    messages,
    annotations,
  };
}
