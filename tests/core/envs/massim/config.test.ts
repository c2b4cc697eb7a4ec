import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSimulation,
  massimAccountNames,
  parseMassimConfig,
  quickMassimConfig,
  resolveIncludePath,
  sampleMassimConfig,
} from '../../../../src/core/envs/massim/index';
import { ProtoplayError } from '../../../../src/core/errors';
import { CONFORMANCE_DIR } from './recorded';

const CONF_DIR = resolve(CONFORMANCE_DIR, 'conf');

describe('real server configuration files', () => {
  const files = readdirSync(CONF_DIR).filter((name) => name.endsWith('.json'));

  it('finds the recorded configurations', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files)('loads %s and runs each of its simulations', (file) => {
    const text = readFileSync(resolve(CONF_DIR, file), 'utf8');
    const raw = JSON.parse(text) as {
      server: { agentTimeout: number; maxPacketLength: number };
      match: { steps: number; entities: Record<string, number>; grid: { width: number } }[];
      teams: Record<string, unknown>;
    };
    const config = parseMassimConfig(text, { source: file });
    expect(config.server.agentTimeout).toBe(raw.server.agentTimeout);
    expect(config.server.maxPacketLength).toBe(raw.server.maxPacketLength);
    expect(config.teams.map((t) => t.name)).toEqual(Object.keys(raw.teams));
    expect(config.match.length).toBe(raw.match.length);
    config.match.forEach((sim, i) => {
      const expectedAgents = Object.values(raw.match[i]!.entities).reduce((a, b) => a + b, 0);
      expect(sim.agentsPerTeam).toBe(expectedAgents);
      expect(sim.steps).toBe(raw.match[i]!.steps);
      const run = createSimulation(sim, { teams: config.teams });
      expect(run.agents.length).toBe(expectedAgents * config.teams.length);
      expect(run.staticInfo().width).toBe(raw.match[i]!.grid.width);
      while (!run.isFinished) {
        for (const agent of run.agents) run.requestActionPercept(agent);
        run.step(new Map(run.agents.map((agent) => [agent, { type: 'move', p: ['n'] }])));
      }
    });
  });
});

/** A small configuration in the real layout: a root file that includes sims, which include roles. */
const FILES = new Map<string, string>([
  [
    'conf/Root.json',
    `{
  "server": { "tournamentMode": "round-robin", "teamsPerMatch": 2, "launch": "key", "port": 12300,
    "backlog": 10, "agentTimeout": 4000, "resultPath": "results", "logLevel": "normal", "logPath": "logs",
    "replayPath": "replays", "maxPacketLength": 65536 },
  "match": ["$(sim/one.json)"],
  "teams": { "Red": { "prefix": "bot", "password": "x" }, "Blue": { "prefix": "bot", "password": "y" } }
}`,
  ],
  [
    'conf/sim/one.json',
    `{
  "steps": 12, "randomSeed": 3, "randomFail": 2, "entities": { "a": 2, "b": 1 }, "clusterBounds": [1, 2],
  "roles": "$(roles/some.json)",
  "clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
  "clearDamage": [32, 16], "attachLimit": 10,
  "grid": { "width": 15, "height": 12, "instructions": [["cave", 0.4, 2, 5, 4], ["line-border", 1], "ignored"],
    "goals": { "number": 1, "size": [1, 2], "moveProbability": 0.1 }, "roleZones": { "number": 1, "size": [2, 2] } },
  "blockTypes": [2, 2], "dispensers": [1, 1],
  "tasks": { "size": [1, 2], "concurrent": 1, "iterations": [1, 2], "maxDuration": [10, 20] },
  "events": { "chance": 10, "radius": [1, 2], "warning": 3, "create": [-1, 1], "perimeter": 1 },
  "regulation": { "simultaneous": 1, "chance": 10, "subjects": [
    { "name": "Carry", "announcement": [1, 2], "duration": [1, 2], "punishment": [1, 2], "weight": 1 },
    { "name": "Carry", "announcement": [1, 2], "duration": [1, 2], "punishment": [1, 2], "weight": 1, "optional": { "quantity": [3, 1] } },
    { "name": "Adopt", "announcement": [1, 2], "duration": [1, 2], "punishment": [1, 2], "weight": 1, "optional": {} }
  ] }
}`,
  ],
  [
    'conf/sim/roles/some.json',
    `[
  { "name": "default", "vision": 4, "actions": ["skip", "move"], "speed": [1], "clear": { "chance": 0.5, "maxDistance": 1 } },
  { "name": "runner", "actions": ["move", "survey"], "speed": [3, 2] },
  { "name": "seer", "vision": 8, "clear": { "maxDistance": 3 } }
]`,
  ],
]);

const readInclude = (path: string) => FILES.get(path);

describe('parsing', () => {
  it('resolves includes against the including file, as the real server does', () => {
    expect(resolveIncludePath('conf/Root.json', 'sim/one.json')).toBe('conf/sim/one.json');
    expect(resolveIncludePath('conf/sim/one.json', 'roles/some.json')).toBe('conf/sim/roles/some.json');
    expect(resolveIncludePath('conf/sim/one.json', '../x.json')).toBe('conf/x.json');
    expect(resolveIncludePath('Root.json', './a/b.json')).toBe('a/b.json');
  });

  it('reads a configuration spread over included files', () => {
    const config = parseMassimConfig(FILES.get('conf/Root.json')!, { source: 'conf/Root.json', readInclude });
    const sim = config.match[0]!;
    expect(config.server.waitBetweenSimulations).toBe(0);
    expect(config.teams).toEqual([
      { name: 'Red', prefix: 'bot', password: 'x' },
      { name: 'Blue', prefix: 'bot', password: 'y' },
    ]);
    expect(sim.agentsPerTeam).toBe(3);
    expect(sim.randomSeed).toBe(3);
    expect(sim.absolutePosition).toBe(false);
    expect(sim.grid.instructions).toEqual([
      { kind: 'cave', chance: 0.4, iterations: 2, createLimit: 5, destroyLimit: 4 },
      { kind: 'line-border', width: 1 },
    ]);
    expect(massimAccountNames(config, config.teams[1]!)).toEqual(['botBlue1', 'botBlue2', 'botBlue3']);
  });

  it('completes later roles from the first and adds its actions', () => {
    const [base, runner, seer] = parseMassimConfig(FILES.get('conf/Root.json')!, {
      source: 'conf/Root.json',
      readInclude,
    }).match[0]!.roles;
    expect(base).toEqual({
      name: 'default',
      vision: 4,
      actions: ['skip', 'move'],
      speed: [1],
      clear: { chance: 0.5, maxDistance: 1 },
    });
    expect(runner).toEqual({
      name: 'runner',
      vision: 4,
      actions: ['skip', 'move', 'survey'],
      speed: [3, 2],
      clear: { chance: 0.5, maxDistance: 1 },
    });
    expect(seer).toMatchObject({ vision: 8, speed: [1], clear: { chance: 0.5, maxDistance: 3 } });
  });

  it('fills norm options like the real server: Carry [0, 4] when missing or inverted, Adopt 100%', () => {
    const subjects = parseMassimConfig(FILES.get('conf/Root.json')!, {
      source: 'conf/Root.json',
      readInclude,
    }).match[0]!.regulation.subjects;
    expect(subjects.map((s) => [s.name, s.quantity, s.playing])).toEqual([
      ['Carry', [0, 4], 100],
      ['Carry', [0, 4], 100],
      ['Adopt', [0, 4], 100],
    ]);
  });

  it('locates JSON syntax errors in the file they are in', () => {
    const broken = new Map(FILES);
    broken.set('conf/sim/roles/some.json', '[\n  { "name": "default", }\n]');
    const error = catchError(() =>
      parseMassimConfig(FILES.get('conf/Root.json')!, {
        source: 'conf/Root.json',
        readInclude: (p) => broken.get(p),
      }),
    );
    expect(error.location).toMatchObject({ source: 'conf/sim/roles/some.json', line: 2 });
  });

  it('names the missing key and points at its object', () => {
    const text = FILES.get('conf/sim/one.json')!.replace('"attachLimit": 10,', '');
    const error = catchError(() =>
      parseMassimConfig(FILES.get('conf/Root.json')!, {
        source: 'conf/Root.json',
        readInclude: (p) => (p === 'conf/sim/one.json' ? text : FILES.get(p)),
      }),
    );
    expect(error.message).toContain('match[0].attachLimit: missing');
    expect(error.location).toMatchObject({ source: 'conf/sim/one.json', line: 1 });
  });

  it('points at an ill-typed value', () => {
    const text = FILES.get('conf/sim/one.json')!.replace('"width": 15', '"width": "wide"');
    const error = catchError(() =>
      parseMassimConfig(FILES.get('conf/Root.json')!, {
        source: 'conf/Root.json',
        readInclude: (p) => (p === 'conf/sim/one.json' ? text : FILES.get(p)),
      }),
    );
    expect(error.message).toContain('match[0].grid.width: expected a number');
    expect(error.location).toMatchObject({ source: 'conf/sim/one.json', line: 6 });
  });

  it('reports missing and cyclic includes, and includes without a reader', () => {
    expect(
      catchError(() => parseMassimConfig(FILES.get('conf/Root.json')!, { source: 'conf/Root.json' })).message,
    ).toContain('cannot include conf/sim/one.json');
    expect(
      catchError(() =>
        parseMassimConfig(FILES.get('conf/Root.json')!, {
          source: 'conf/Root.json',
          readInclude: () => undefined,
        }),
      ).message,
    ).toContain('included file not found: conf/sim/one.json');
    const cyclic = (path: string) => (path === 'conf/sim/one.json' ? '"$(one.json)"' : undefined);
    expect(
      catchError(() =>
        parseMassimConfig(FILES.get('conf/Root.json')!, { source: 'conf/Root.json', readInclude: cyclic }),
      ).message,
    ).toContain('includes itself');
  });

  it('rejects unknown obstacle instructions and empty ranges', () => {
    const withText = (from: string, to: string) => () =>
      parseMassimConfig(FILES.get('conf/Root.json')!, {
        source: 'conf/Root.json',
        readInclude: (p) => (p === 'conf/sim/one.json' ? FILES.get(p)!.replace(from, to) : FILES.get(p)),
      });
    expect(catchError(withText('["line-border", 1]', '["maze", 1]')).message).toContain(
      'unknown instruction "maze"',
    );
    expect(catchError(withText('"dispensers": [1, 1]', '"dispensers": [3, 1]')).message).toContain(
      'match[0].dispensers: lower bound 3 exceeds 1',
    );
  });
});

describe('presets', () => {
  it('has the playground default of 2 teams x 5 agents on 40 x 40 for 200 steps', () => {
    const config = quickMassimConfig();
    const sim = config.match[0]!;
    expect([config.teams.length, sim.agentsPerTeam, sim.grid.width, sim.grid.height, sim.steps]).toEqual([
      2, 5, 40, 40, 200,
    ]);
  });

  it('has the contest sample shapes: 20 agents on 70 x 70 and 40 on 100 x 100', () => {
    expect(
      sampleMassimConfig().match.map((sim) => [sim.agentsPerTeam, sim.grid.width, sim.grid.height]),
    ).toEqual([
      [20, 70, 70],
      [40, 100, 100],
    ]);
  });
});

function catchError(action: () => unknown): ProtoplayError {
  try {
    action();
  } catch (error) {
    if (error instanceof ProtoplayError) return error;
    throw error;
  }
  throw new Error('expected an error');
}
