import { describe, expect, it } from 'vitest';
import type { JsonValue, MassimAction, MassimStepPercept } from '../../../../src/core/envs/massim/api';
import { createSimulation } from '../../../../src/core/envs/massim/index';
import { recordedActions, recordedConfig, recordedServerMessages } from './recorded';
import { scene } from './scene';

type JsonObject = { [key: string]: JsonValue };

/** The JSON type of a value: `number`, `string`, `boolean`, `null`, `array`, `object`. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

const KINDS = new Set(['entity', 'block', 'dispenser', 'obstacle', 'marker', 'hit', 'surveyed', 'role']);

/**
 * Every key path of a value with the JSON types seen there. Array elements that carry a `type` naming a kind
 * of thing or event get their own path (`things[marker]`, `events[surveyed/agent]`), others share `[*]`.
 */
function collectShape(value: unknown, path: string, shape: Map<string, Set<string>>): void {
  const types = shape.get(path) ?? new Set<string>();
  types.add(jsonType(value));
  shape.set(path, types);
  if (Array.isArray(value)) {
    for (const item of value) {
      const kind = (item as { type?: unknown } | null)?.type;
      const target = (item as { target?: unknown } | null)?.target;
      const tag =
        typeof kind === 'string' && KINDS.has(kind)
          ? kind + (typeof target === 'string' ? `/${target}` : '')
          : '*';
      collectShape(item, `${path}[${tag}]`, shape);
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) collectShape(item, `${path}.${key}`, shape);
  }
}

/** Sim-start percept with role action lists sorted (the server sends them in hash-set order). */
function normaliseSimStart(percept: unknown): unknown {
  const copy = structuredClone(percept) as { roles: { actions: string[] }[] };
  for (const role of copy.roles) role.actions.sort();
  copy.roles.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return copy;
}

interface Replay {
  recordedShape: Map<string, Set<string>>;
  ourShape: Map<string, Set<string>>;
  compared: number;
  /** How many failed_parameter / failed_role results were compared exactly. */
  worldIndependentResults: number;
}

const replays = new Map<string, Replay>();

/** `replay`, once per run for the whole file. */
function replayOnce(run: string, confName: string): Replay {
  let result = replays.get(run);
  if (!result) {
    result = replay(run, confName);
    replays.set(run, result);
  }
  return result;
}

/**
 * Replays a recorded run on our scenario: same configuration, the actions the real server executed (as
 * echoed in the next percept, or as sent for the last step), and compares every recorded request-action
 * percept with ours for the same agent and step, key by key.
 */
function replay(run: string, confName: string): Replay {
  const config = recordedConfig(confName);
  const messages = recordedServerMessages(run);
  const sentActions = recordedActions(run);
  const recordedShape = new Map<string, Set<string>>();
  const ourShape = new Map<string, Set<string>>();
  let compared = 0;
  let worldIndependentResults = 0;

  config.match.forEach((simConfig, simIndex) => {
    const sim = createSimulation(simConfig, { teams: config.teams });
    const ofSim = messages.filter((m) => m.sim === simIndex);
    const percepts = new Map<string, Map<number, { id: number; percept: JsonObject }>>();
    for (const m of ofSim) {
      if (m.type === 'sim-start') {
        expect(normaliseSimStart(sim.simStartPercept(m.agent))).toEqual(
          normaliseSimStart(m.content['percept']),
        );
      }
      if (m.type !== 'request-action') continue;
      const byStep = percepts.get(m.agent) ?? new Map<number, { id: number; percept: JsonObject }>();
      percepts.set(m.agent, byStep);
      byStep.set(m.content['step'] as number, {
        id: m.content['id'] as number,
        percept: m.content['percept'] as JsonObject,
      });
    }

    while (!sim.isFinished) {
      const step = sim.currentStep;
      const joint = new Map<string, MassimAction>();
      for (const [agent, byStep] of percepts) {
        const recorded = byStep.get(step);
        if (recorded) {
          const ours = sim.requestActionPercept(agent);
          expect(Object.keys(ours).sort(), `${run} ${agent} step ${step}`).toEqual(
            Object.keys(recorded.percept).sort(),
          );
          for (const key of Object.keys(recorded.percept)) {
            expect(
              jsonType(ours[key as keyof MassimStepPercept]),
              `${run} ${agent} step ${step} ${key}`,
            ).toBe(jsonType(recorded.percept[key]));
          }
          expect(ours.lastAction).toBe(recorded.percept['lastAction']);
          expect(ours.lastActionParams).toEqual(recorded.percept['lastActionParams']);
          // Results that depend on the action alone, not on the world, must be the same.
          const result = recorded.percept['lastActionResult'] as string;
          if (
            (result === 'failed_parameter' || result === 'failed_role') &&
            ours.lastActionResult !== 'failed_status'
          ) {
            expect(ours.lastActionResult, `${run} ${agent} step ${step}`).toBe(result);
            worldIndependentResults++;
          }
          collectShape(recorded.percept, 'percept', recordedShape);
          collectShape(ours, 'percept', ourShape);
          compared++;
        }
        const echo = byStep.get(step + 1)?.percept;
        if (echo)
          joint.set(agent, { type: echo['lastAction'] as string, p: echo['lastActionParams'] as string[] });
        else if (recorded) {
          const sent = sentActions.get(agent)?.get(recorded.id);
          if (sent) joint.set(agent, sent);
        }
      }
      sim.step(joint);
    }

    for (const m of ofSim.filter((message) => message.type === 'sim-end')) {
      const scores = sim.scores().map((s) => s.score);
      if (new Set(scores).size === 1) {
        // Equal scores: the ranking depends on nothing but the team, as on the real server.
        expect(sim.simEndContent(m.agent).ranking).toBe(m.content['ranking']);
      }
    }
  });
  return { recordedShape, ourShape, compared, worldIndependentResults };
}

/** Paths present in both shapes must have the same JSON types; objects of the recording get no extra keys. */
function expectShapesAgree(ours: Map<string, Set<string>>, recorded: Map<string, Set<string>>): void {
  for (const [path, types] of recorded) {
    if (ours.has(path)) expect([...ours.get(path)!].sort(), path).toEqual([...types].sort());
  }
  for (const path of ours.keys()) {
    const parent = path.slice(0, path.lastIndexOf('.'));
    if (path.lastIndexOf('.') > path.lastIndexOf(']') && recorded.has(parent)) {
      expect(recorded.has(path), `extra key ${path}`).toBe(true);
    }
  }
}

const RUNS = [
  ['basic', 'acceptance'],
  ['events', 'events'],
  ['probes', 'probes'],
  ['multisim', 'multisim'],
] as const;

/**
 * A run of our own that makes every kind of percept content appear (markers, norms of both kinds, surveyed
 * and hit events, zones, violations, absolute positions) on the recorded configurations `events` (surveys,
 * long-range clear) and `acceptance` (two agents per team, so Adopt norms find violators).
 */
function richShape(): Map<string, Set<string>> {
  const shape = new Map<string, Set<string>>();
  const script: [string, ...string[]][] = [
    ['survey', 'dispenser'],
    ['survey', 'goal'],
    ['survey', 'role'],
    ['survey', '0', '0'],
    ['clear', '0', '0'],
    ['move', 'n'],
    ['move', 'e'],
    ['move', 'e'],
    ['move', 's'],
  ];
  for (let seed = 1; seed <= 4; seed++) {
    const base = recordedConfig(seed <= 2 ? 'events' : 'acceptance').match[0]!;
    const sim = createSimulation({ ...base, steps: 150, absolutePosition: seed % 2 === 0 }, { seed });
    while (!sim.isFinished) {
      const joint = new Map<string, MassimAction>();
      for (const agent of sim.agents) {
        collectShape(sim.requestActionPercept(agent), 'percept', shape);
        const [type, ...p] = script[(sim.currentStep + agent.length) % script.length]!;
        joint.set(agent, { type, p });
      }
      sim.step(joint);
    }
  }
  return shape;
}

describe('percepts compared with the real server’s, key by key', () => {
  it.each(RUNS)('replays the recorded run %s with the same keys and types every step', (run, conf) => {
    const { recordedShape, ourShape, compared, worldIndependentResults } = replayOnce(run, conf);
    expect(compared).toBeGreaterThan(10);
    // The probes run has fly, adapt without role, move x and survey in the default role.
    if (run === 'probes') expect(worldIndependentResults).toBeGreaterThanOrEqual(4);
    expectShapesAgree(ourShape, recordedShape);
  });

  it('produces every key path the real server produced, with the same types', () => {
    const recorded = new Map<string, Set<string>>();
    for (const [run, conf] of RUNS) {
      for (const [path, types] of replayOnce(run, conf).recordedShape) {
        recorded.set(path, new Set([...(recorded.get(path) ?? []), ...types]));
      }
    }
    const ours = richShape();
    for (const [path, types] of recorded) {
      expect(ours.has(path), `our percepts never have ${path}`).toBe(true);
      expect([...ours.get(path)!].sort(), path).toEqual([...types].sort());
    }
    expectShapesAgree(ours, recorded);
  });
});

describe('what an agent perceives', () => {
  it('sees itself at (0,0), and the opposing agent stacked on its start cell', () => {
    const config = recordedConfig('acceptance').match[0]!;
    const sim = createSimulation(config, { seed: 5 });
    const things = sim.requestActionPercept('agentA1').things.filter((t) => t.x === 0 && t.y === 0);
    expect(things).toEqual(
      expect.arrayContaining([
        { x: 0, y: 0, details: 'A', type: 'entity' },
        { x: 0, y: 0, details: 'B', type: 'entity' },
      ]),
    );
  });

  it('sees exactly the Manhattan diamond of its vision', () => {
    const s = scene(
      'move 10 10 agentA1\nterrain 15 10 obstacle\nterrain 13 12 obstacle\nterrain 14 12 obstacle\nterrain 10 4 obstacle',
    );
    const obstacles = s.percept('agentA1').things.filter((t) => t.type === 'obstacle');
    expect(obstacles.map((t) => [t.x, t.y]).sort()).toEqual([
      [3, 2],
      [5, 0],
    ]);
  });

  it('lists things attached to any entity in attached, never itself', () => {
    const s = scene(
      'move 5 5 agentA1\nmove 8 5 agentB1\nadd 5 6 block b0\nadd 9 5 block b1\nadd 5 4 block b2\nattach 5 5 5 6\nattach 8 5 9 5',
    );
    const percept = s.percept('agentA1');
    // agentB1 itself is not listed: no other entity is in its cluster.
    expect(percept.attached.sort()).toEqual([
      [0, 1],
      [4, 0],
    ]);
  });

  it('lists visible zone cells and the absolute position when configured', () => {
    const s = scene('move 5 5 agentA1\nterrain 6 5 goal\nterrain 5 3 role');
    const percept = s.percept('agentA1');
    expect(percept.goalZones.sort()).toEqual([
      [0, 0],
      [1, -1],
      [1, 0],
      [1, 1],
      [2, 0],
    ]);
    expect(percept.roleZones).toContainEqual([0, -1]);
    expect(percept.absolutePosition).toEqual([5, 5]);
    const hidden = scene('move 5 5 agentA1', { config: { absolutePosition: false } }).percept('agentA1');
    expect('absolutePosition' in hidden).toBe(false);
  });

  it('starts with empty last-action fields', () => {
    const percept = scene('').percept('agentA1');
    expect([percept.lastAction, percept.lastActionParams, percept.lastActionResult]).toEqual(['', [], '']);
  });
});
