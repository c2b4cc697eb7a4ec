/**
 * `semantics: 'massim'` against worlds the real MASSim 2022 server produced (tests/data/massim-worlds,
 * recorded from its replay output; see the README there): the same configuration and seed must give the
 * same world at every step for agents that never act — obstacles (generated and left by clear events),
 * dispensers, goal and role zones, agents' start cells, energy, tasks, norms, violations, clear events —
 * and, with random failures, as many of them per step.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonValue, MassimWorldSnapshot } from '../../../../src/core/envs/massim/api';
import { createSimulation, parseMassimSimConfig } from '../../../../src/core/envs/massim/index';

const DIR = resolve(import.meta.dirname, '../../../data/massim-worlds');

type Cell = [number, number];
type Zone = [number, number, number];
interface RecordedStep {
  step: number;
  obstacles?: Cell[];
  obstaclesAdded?: Cell[];
  obstaclesRemoved?: Cell[];
  dispensers?: [number, number, string][];
  entities: [string, number, number, number, boolean, string, string, string][];
  blocks?: [number, number, string][];
  goalZones: Zone[];
  roleZones: Zone[];
  tasks: { name: string; deadline: number; reward: number; requirements: [number, number, string][] }[];
  norms: {
    name: string;
    start: number;
    until: number;
    punishment: number;
    requirements: [string, string, number][];
  }[];
  violations: [string, string][];
  clear: Zone[];
  scores: Record<string, number>;
}
interface Recording {
  blockTypes: string[];
  config: { match: JsonValue[]; teams: Record<string, { prefix: string }> };
  steps: RecordedStep[];
}

const recordings = readdirSync(DIR)
  .filter((name) => name.endsWith('.json'))
  .sort();

/** Element by element, numbers as numbers (the recordings are sorted so). */
function byXY(a: readonly (number | string | boolean)[], b: readonly (number | string | boolean)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}
const sorted = <T extends readonly (number | string)[]>(list: T[]): T[] => [...list].sort(byXY);

/** The parts of a Protoplay world snapshot the real server's replay shows, in the recording's form. */
function canonical(snapshot: MassimWorldSnapshot, width: number, actions: MassimWorldSnapshot) {
  const actionOf = new Map(actions.entities.map((e) => [e.name, [e.action, e.actionResult]]));
  return {
    obstacles: sorted(snapshot.obstacles.map((cell): Cell => [cell % width, Math.floor(cell / width)])),
    dispensers: sorted(snapshot.dispensers.map((d): [number, number, string] => [d.x, d.y, d.type])),
    entities: snapshot.entities
      .map((e) => [e.name, e.x, e.y, e.energy, e.deactivated, e.role, ...actionOf.get(e.name)!])
      .sort(byXY),
    blocks: sorted(snapshot.blocks.map((b): [number, number, string] => [b.x, b.y, b.type])),
    goalZones: sorted(snapshot.goalZones.map((z): Zone => [z.x, z.y, z.radius])),
    roleZones: sorted(snapshot.roleZones.map((z): Zone => [z.x, z.y, z.radius])),
    tasks: snapshot.tasks
      .map((t) => ({
        name: t.name,
        deadline: t.deadline,
        reward: t.reward,
        requirements: sorted(t.requirements.map((r): [number, number, string] => [r.x, r.y, r.type])),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    norms: snapshot.norms
      .map((n) => ({
        name: n.name,
        start: n.start,
        until: n.until,
        punishment: n.punishment,
        requirements: sorted(
          n.requirements.map((r): [string, string, number] => [r.type.toUpperCase(), r.name, r.quantity]),
        ),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    violations: sorted(snapshot.violations.map((v): [string, string] => [v.norm, v.agent])),
    clear: sorted(snapshot.clearAreas.map((c): Zone => [c.x, c.y, c.radius])),
    scores: snapshot.scores,
  };
}

describe("semantics 'massim' reproduces the real server's worlds", () => {
  it('has recordings', () => {
    expect(recordings.length).toBeGreaterThanOrEqual(2);
  });

  for (const file of recordings) {
    it(file, () => {
      const recording = JSON.parse(readFileSync(resolve(DIR, file), 'utf8')) as Recording;
      const simJson = recording.config.match[0] as { randomSeed: number; randomFail: number };
      const config = parseMassimSimConfig(simJson);
      const teams = Object.entries(recording.config.teams).map(([name, { prefix }]) => ({ name, prefix }));
      const simulation = createSimulation(config, { seed: simJson.randomSeed, semantics: 'massim', teams });
      expect(simulation.staticInfo().blockTypes).toEqual(recording.blockTypes);

      let obstacles = new Set<string>();
      let dispensers: RecordedStep['dispensers'] = [];
      for (const recorded of recording.steps) {
        // The recording lists obstacles once, then what clear events changed.
        if (recorded.obstacles) obstacles = new Set(recorded.obstacles.map((c) => c.join()));
        for (const cell of recorded.obstaclesAdded ?? []) obstacles.add(cell.join());
        for (const cell of recorded.obstaclesRemoved ?? []) obstacles.delete(cell.join());
        dispensers = recorded.dispensers ?? dispensers;

        const before = simulation.snapshot();
        simulation.step(new Map());
        // The replay shows step N's world after its actions: the actions are in the next snapshot.
        const after = simulation.snapshot();
        const ours = canonical(before, config.grid.width, after);
        let entities = recorded.entities;
        if (simJson.randomFail > 0) {
          // Who draws which random failure follows the server's execution order (JVM identity hashes,
          // unreproducible); how many fail does not, since every agent draws once.
          const fails = (list: (string | number | boolean)[][]) =>
            list.filter((e) => e[7] === 'failed_random');
          expect(fails(ours.entities).length, `step ${recorded.step}: random failures`).toBe(
            fails(entities).length,
          );
          const withoutResult = (list: typeof entities) =>
            list.map((e) => [
              ...e.slice(0, 7),
              e[7] === 'failed_random' ? 'success' : e[7],
            ]) as typeof entities;
          ours.entities = withoutResult(ours.entities as typeof entities);
          entities = withoutResult(entities);
        }
        expect({ step: before.step, ...ours }).toEqual({
          step: recorded.step,
          obstacles: sorted([...obstacles].map((key) => key.split(',').map(Number) as Cell)),
          dispensers,
          entities,
          blocks: recorded.blocks ?? [],
          goalZones: recorded.goalZones,
          roleZones: recorded.roleZones,
          tasks: recorded.tasks,
          norms: recorded.norms,
          violations: recorded.violations,
          clear: recorded.clear,
          scores: recorded.scores,
        });
      }
    });
  }
});
