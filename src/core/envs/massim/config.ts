/**
 * The real MASSim server's configuration file format: a `server` block, a `match` list with one object per
 * simulation, and `teams`. Keys the real server requires are required here too (with located errors instead
 * of a Java stack trace); the optional ones get the real server's defaults. Includes (`"$(path.json)"`) must
 * stand for a whole JSON value, which is how every shipped configuration uses them; the real server splices
 * the file's text in wherever the quoted string appears.
 */
import { ProtoplayError, type SourceLocation } from '../../errors';
import type {
  Bounds,
  JsonValue,
  MassimAccountNames,
  MassimGridInstruction,
  MassimIncludeReader,
  MassimNormSubjectConfig,
  MassimRoleConfig,
  MassimServerConfig,
  ParseMassimConfig,
  ParseMassimSimConfig,
  MassimServerSettings,
  MassimSimConfig,
  MassimTeamAccount,
} from './api';
import { LocatedJson } from './locatedJson';

type JsonObject = { [key: string]: JsonValue };

const INCLUDE = /^\$\(([^$]*)\)$/;

/** Parses a whole configuration file. See `ParseMassimConfig` in the api. */
export const parseMassimConfig: ParseMassimConfig = (text, options = {}) => {
  const json = new LocatedJson();
  const source = options.source ?? 'config.json';
  const root = expandIncludes(json, json.parse(text, source), undefined, source, options.readInclude, [
    source,
  ]);
  const read = new ConfigReader(json);
  const top = read.object(root, 'the configuration');
  const match = read.array(top, 'match', '');
  if (match.length === 0) read.fail(top, 'match', 'match: at least one simulation is needed');
  const teamsJson = read.objectAt(top, 'teams', '');
  const teams: MassimTeamAccount[] = Object.keys(teamsJson).map((name) => {
    const team = read.objectAt(teamsJson, name, 'teams');
    return {
      name,
      prefix: read.string(team, 'prefix', `teams.${name}`),
      password: read.string(team, 'password', `teams.${name}`),
    };
  });
  if (teams.length === 0) read.fail(top, 'teams', 'teams: at least one team is needed');
  const config: MassimServerConfig = {
    server: readServerSettings(read, read.objectAt(top, 'server', '')),
    match: match.map((sim, i) => readSimConfig(read, sim, `match[${i}]`, match, i)),
    teams,
  };
  const manual = top['manual-mode'];
  if (manual !== undefined) {
    config.manualMode = read.array(top, 'manual-mode', '').map((entry, i) => {
      if (!Array.isArray(entry)) return read.fail(top, 'manual-mode', `manual-mode[${i}]: expected an array`);
      return entry.map((name) => String(name));
    });
  }
  return config;
};

/** Validates one simulation object. See `ParseMassimSimConfig` in the api. */
export const parseMassimSimConfig: ParseMassimSimConfig = (json, path = 'match[0]') =>
  readSimConfig(new ConfigReader(new LocatedJson()), json, path);

/** Account names of a team: `prefix + team + i` for i = 1..(largest agentsPerTeam of any simulation). */
export const massimAccountNames: MassimAccountNames = (config, team) => {
  const count = Math.max(...config.match.map((sim) => sim.agentsPerTeam));
  return Array.from({ length: count }, (_, i) => `${team.prefix}${team.name}${i + 1}`);
};

/** Resolves `path` against the directory of `from`, with `/` separators and `.`/`..` removed. */
export function resolveIncludePath(from: string, path: string): string {
  const base = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  const parts: string[] = [];
  for (const part of (path.startsWith('/') ? path : base + path).split('/')) {
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (part !== '.' && (part !== '' || parts.length === 0)) parts.push(part);
  }
  return parts.join('/');
}

/**
 * Replaces every `"$(path)"` string by the parsed content of that file, recursively; `where` locates the
 * value for error messages.
 */
function expandIncludes(
  json: LocatedJson,
  value: JsonValue,
  where: SourceLocation | undefined,
  source: string,
  readInclude: MassimIncludeReader | undefined,
  stack: string[],
): JsonValue {
  const include = typeof value === 'string' ? INCLUDE.exec(value) : null;
  if (include) {
    const path = resolveIncludePath(source, include[1]!);
    if (!readInclude) throw configError(`cannot include ${path}: no files to include from here`, where);
    if (stack.includes(path)) throw configError(`${path} includes itself`, where);
    const text = readInclude(path);
    if (text === undefined) throw configError(`included file not found: ${path}`, where);
    const included = json.parse(text, path);
    return expandIncludes(json, included, { source: path, line: 1, column: 1 }, path, readInclude, [
      ...stack,
      path,
    ]);
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      value[i] = expandIncludes(json, item, json.locate(value, i), source, readInclude, stack);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      value[key] = expandIncludes(json, value[key]!, json.locate(value, key), source, readInclude, stack);
    }
  }
  return value;
}

/** `parent.key`, or `key` at the top level. */
function join(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

function configError(message: string, location?: SourceLocation): ProtoplayError {
  return new ProtoplayError('massim-config', message, location);
}

/** Typed access to parsed JSON with errors that name the key path and point at the key. */
class ConfigReader {
  readonly #json: LocatedJson;

  constructor(json: LocatedJson) {
    this.#json = json;
  }

  fail(container: object, key: string | number | undefined, message: string): never {
    throw configError(message, this.#json.locate(container, key));
  }

  #get(container: JsonObject, key: string, path: string, expected: string): JsonValue {
    const value = container[key];
    if (value === undefined)
      this.fail(container, undefined, `${join(path, key)}: missing (expected ${expected})`);
    return value;
  }

  object(value: JsonValue, path: string): JsonObject {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw configError(`${path}: expected an object`);
    }
    return value;
  }

  objectAt(container: JsonObject, key: string, path: string): JsonObject {
    const value = this.#get(container, key, path, 'an object');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.fail(container, key, `${join(path, key)}: expected an object`);
    }
    return value;
  }

  array(container: JsonObject, key: string, path: string): JsonValue[] {
    const value = this.#get(container, key, path, 'an array');
    if (!Array.isArray(value)) this.fail(container, key, `${join(path, key)}: expected an array`);
    return value;
  }

  number(container: JsonObject, key: string, path: string): number {
    const value = this.#get(container, key, path, 'a number');
    if (typeof value !== 'number') this.fail(container, key, `${join(path, key)}: expected a number`);
    return value;
  }

  /** An integer; fractions are cut off, as Java's `getInt` does. */
  int(container: JsonObject, key: string, path: string, minimum = -Infinity): number {
    const value = Math.trunc(this.number(container, key, path));
    if (value < minimum) this.fail(container, key, `${join(path, key)}: must be at least ${minimum}`);
    return value;
  }

  optionalInt(container: JsonObject, key: string, path: string, fallback: number): number {
    return container[key] === undefined ? fallback : this.int(container, key, path);
  }

  string(container: JsonObject, key: string, path: string): string {
    const value = this.#get(container, key, path, 'a string');
    if (typeof value !== 'string') this.fail(container, key, `${join(path, key)}: expected a string`);
    return value;
  }

  bool(container: JsonObject, key: string, path: string, fallback: boolean): boolean {
    const value = container[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') this.fail(container, key, `${join(path, key)}: expected true or false`);
    return value;
  }

  /** `[lower, upper]` integers with lower <= upper (Java would crash on an empty range). */
  bounds(container: JsonObject, key: string, path: string, minimum = -Infinity): Bounds {
    const value = this.#get(container, key, path, '[lower, upper]');
    if (!Array.isArray(value) || value.length < 2 || value.some((x) => typeof x !== 'number')) {
      this.fail(container, key, `${join(path, key)}: expected [lower, upper]`);
    }
    const lower = Math.trunc(value[0] as number);
    const upper = Math.trunc(value[1] as number);
    if (lower > upper) this.fail(container, key, `${join(path, key)}: lower bound ${lower} exceeds ${upper}`);
    if (lower < minimum) this.fail(container, key, `${join(path, key)}: must be at least ${minimum}`);
    return [lower, upper];
  }

  ints(container: JsonObject, key: string, path: string): number[] {
    const value = this.#get(container, key, path, 'an array of integers');
    if (!Array.isArray(value) || value.length === 0 || value.some((x) => typeof x !== 'number')) {
      this.fail(container, key, `${join(path, key)}: expected a non-empty array of integers`);
    }
    return value.map((x) => Math.trunc(x as number));
  }

  strings(container: JsonObject, key: string, path: string): string[] {
    const value = this.#get(container, key, path, 'an array of strings');
    if (!Array.isArray(value) || value.some((x) => typeof x !== 'string')) {
      this.fail(container, key, `${join(path, key)}: expected an array of strings`);
    }
    return value as string[];
  }
}

function readServerSettings(read: ConfigReader, server: JsonObject): MassimServerSettings {
  const path = 'server';
  const tournamentMode = read.string(server, 'tournamentMode', path);
  if (tournamentMode !== 'round-robin' && tournamentMode !== 'manual' && tournamentMode !== 'random') {
    read.fail(server, 'tournamentMode', `server.tournamentMode: expected round-robin, manual or random`);
  }
  return {
    tournamentMode,
    teamsPerMatch: read.int(server, 'teamsPerMatch', path, 1),
    launch: read.string(server, 'launch', path),
    port: read.int(server, 'port', path, 0),
    backlog: read.int(server, 'backlog', path),
    agentTimeout: read.int(server, 'agentTimeout', path, 0),
    resultPath: read.string(server, 'resultPath', path),
    logLevel: read.string(server, 'logLevel', path),
    logPath: read.string(server, 'logPath', path),
    replayPath: read.string(server, 'replayPath', path),
    maxPacketLength: read.int(server, 'maxPacketLength', path, 1),
    waitBetweenSimulations: read.optionalInt(server, 'waitBetweenSimulations', path, 0),
  };
}

function readSimConfig(
  read: ConfigReader,
  value: JsonValue,
  path: string,
  container?: JsonValue[],
  index?: number,
): MassimSimConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (container) read.fail(container, index, `${path}: expected an object`);
    throw configError(`${path}: expected an object`);
  }
  const sim = value;
  const entities = read.objectAt(sim, 'entities', path);
  let agentsPerTeam = 0;
  for (const key of Object.keys(entities)) agentsPerTeam += read.int(entities, key, `${path}.entities`, 0);
  if (agentsPerTeam < 1)
    read.fail(sim, 'entities', `${path}.entities: at least one agent per team is needed`);

  const grid = read.objectAt(sim, 'grid', path);
  const gridPath = `${path}.grid`;
  const goals = read.objectAt(grid, 'goals', gridPath);
  const roleZones = read.objectAt(grid, 'roleZones', gridPath);
  const tasks = read.objectAt(sim, 'tasks', path);
  const events = read.objectAt(sim, 'events', path);
  const regulation = read.objectAt(sim, 'regulation', path);
  const randomSeed = sim['randomSeed'];

  const config: MassimSimConfig = {
    steps: read.int(sim, 'steps', path, 1),
    randomFail: read.int(sim, 'randomFail', path),
    agentsPerTeam,
    clusterBounds: read.bounds(sim, 'clusterBounds', path, 1),
    roles: readRoles(read, sim, path),
    clearEnergyCost: read.int(sim, 'clearEnergyCost', path),
    deactivatedDuration: read.int(sim, 'deactivatedDuration', path, 0),
    maxEnergy: read.int(sim, 'maxEnergy', path),
    refreshEnergy: read.int(sim, 'refreshEnergy', path),
    stepRecharge: read.int(sim, 'stepRecharge', path),
    clearDamage: read.ints(sim, 'clearDamage', path),
    attachLimit: read.int(sim, 'attachLimit', path),
    grid: {
      width: read.int(grid, 'width', gridPath, 1),
      height: read.int(grid, 'height', gridPath, 1),
      instructions: readInstructions(read, grid, gridPath),
      goals: {
        number: read.int(goals, 'number', `${gridPath}.goals`, 0),
        size: read.bounds(goals, 'size', `${gridPath}.goals`, 0),
        moveProbability: read.number(goals, 'moveProbability', `${gridPath}.goals`),
      },
      roleZones: {
        number: read.int(roleZones, 'number', `${gridPath}.roleZones`, 0),
        size: read.bounds(roleZones, 'size', `${gridPath}.roleZones`, 0),
      },
    },
    blockTypes: read.bounds(sim, 'blockTypes', path, 1),
    dispensers: read.bounds(sim, 'dispensers', path, 0),
    tasks: {
      size: read.bounds(tasks, 'size', `${path}.tasks`),
      concurrent: read.int(tasks, 'concurrent', `${path}.tasks`, 0),
      iterations: read.bounds(tasks, 'iterations', `${path}.tasks`),
      maxDuration: read.bounds(tasks, 'maxDuration', `${path}.tasks`, 0),
    },
    events: {
      chance: read.int(events, 'chance', `${path}.events`),
      radius: read.bounds(events, 'radius', `${path}.events`, 0),
      warning: read.int(events, 'warning', `${path}.events`, 0),
      create: read.bounds(events, 'create', `${path}.events`),
      perimeter: read.int(events, 'perimeter', `${path}.events`, 0),
    },
    regulation: {
      simultaneous: read.int(regulation, 'simultaneous', `${path}.regulation`),
      chance: read.number(regulation, 'chance', `${path}.regulation`),
      subjects: read
        .array(regulation, 'subjects', `${path}.regulation`)
        .map((subject, i) => readNormSubject(read, subject, `${path}.regulation.subjects[${i}]`)),
    },
    absolutePosition: read.bool(sim, 'absolutePosition', path, false),
  };
  if (typeof sim['id'] === 'string') config.id = sim['id'];
  if (randomSeed !== undefined) config.randomSeed = read.int(sim, 'randomSeed', path);
  if (typeof grid['file'] === 'string' && grid['file'] !== '') config.grid.file = grid['file'];
  if (typeof sim['setup'] === 'string' && sim['setup'] !== '') config.setup = sim['setup'];
  return config;
}

function readRoles(read: ConfigReader, sim: JsonObject, path: string): MassimRoleConfig[] {
  const list = read.array(sim, 'roles', path);
  if (list.length === 0) read.fail(sim, 'roles', `${path}.roles: at least the default role is needed`);
  const roles: MassimRoleConfig[] = [];
  list.forEach((value, i) => {
    const rolePath = `${path}.roles[${i}]`;
    const role = read.object(value, rolePath);
    const name = read.string(role, 'name', rolePath);
    if (roles.some((other) => other.name === name))
      read.fail(role, 'name', `${rolePath}: role ${name} exists twice`);
    const base = roles[0];
    if (!base) {
      const clear = read.objectAt(role, 'clear', rolePath);
      roles.push({
        name,
        vision: read.int(role, 'vision', rolePath, 0),
        actions: [...new Set(read.strings(role, 'actions', rolePath))],
        speed: read.ints(role, 'speed', rolePath),
        clear: {
          chance: read.number(clear, 'chance', `${rolePath}.clear`),
          maxDistance: read.int(clear, 'maxDistance', `${rolePath}.clear`),
        },
      });
      return;
    }
    const clear = role['clear'] === undefined ? {} : read.objectAt(role, 'clear', rolePath);
    const ownActions = role['actions'] === undefined ? [] : read.strings(role, 'actions', rolePath);
    roles.push({
      name,
      vision: read.optionalInt(role, 'vision', rolePath, base.vision),
      actions: [...new Set([...base.actions, ...ownActions])],
      speed: role['speed'] === undefined ? base.speed : read.ints(role, 'speed', rolePath),
      clear: {
        chance:
          clear['chance'] === undefined
            ? base.clear.chance
            : read.number(clear, 'chance', `${rolePath}.clear`),
        maxDistance: read.optionalInt(clear, 'maxDistance', `${rolePath}.clear`, base.clear.maxDistance),
      },
    });
  });
  return roles;
}

function readInstructions(read: ConfigReader, grid: JsonObject, path: string): MassimGridInstruction[] {
  const list = read.array(grid, 'instructions', path);
  const instructions: MassimGridInstruction[] = [];
  list.forEach((entry, i) => {
    // The real server skips entries that are not arrays.
    if (!Array.isArray(entry)) return;
    const where = `${path}.instructions[${i}]`;
    const numberAt = (index: number): number => {
      const x = entry[index];
      if (typeof x !== 'number') read.fail(entry, index, `${where}[${index}]: expected a number`);
      return x;
    };
    const kind = entry[0];
    if (kind === 'cave') {
      instructions.push({
        kind,
        chance: numberAt(1),
        iterations: Math.trunc(numberAt(2)),
        createLimit: Math.trunc(numberAt(3)),
        destroyLimit: Math.trunc(numberAt(4)),
      });
    } else if (kind === 'line-border' || kind === 'ragged-border') {
      instructions.push({ kind, width: Math.trunc(numberAt(1)) });
    } else {
      read.fail(
        entry,
        0,
        `${where}: unknown instruction ${JSON.stringify(kind)} (cave, line-border, ragged-border)`,
      );
    }
  });
  return instructions;
}

function readNormSubject(read: ConfigReader, value: JsonValue, path: string): MassimNormSubjectConfig {
  const subject = read.object(value, path);
  const name = read.string(subject, 'name', path);
  if (name !== 'Carry' && name !== 'Adopt' && name !== 'RoleIndividual') {
    read.fail(subject, 'name', `${path}.name: expected Carry, Adopt or RoleIndividual`);
  }
  const optional = subject['optional'] === undefined ? {} : read.objectAt(subject, 'optional', path);
  // Like the real server: a missing or inverted quantity range falls back to [0, 4], a missing playing to 100.
  let quantity: Bounds = [0, 4];
  const rawQuantity = optional['quantity'];
  if (
    Array.isArray(rawQuantity) &&
    typeof rawQuantity[0] === 'number' &&
    typeof rawQuantity[1] === 'number'
  ) {
    const lower = Math.max(0, Math.trunc(rawQuantity[0]));
    const upper = Math.trunc(rawQuantity[1]);
    if (lower <= upper) quantity = [lower, upper];
  }
  return {
    name,
    announcement: read.bounds(subject, 'announcement', path, 0),
    duration: read.bounds(subject, 'duration', path, 0),
    punishment: read.bounds(subject, 'punishment', path),
    weight: read.number(subject, 'weight', path),
    quantity,
    playing: read.optionalInt(optional, 'playing', `${path}.optional`, 100),
  };
}
