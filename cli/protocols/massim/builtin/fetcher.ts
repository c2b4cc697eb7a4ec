/**
 * The `fetcher` built-in team policy: every agent works alone on tasks that need a single block. It
 * takes on a role that may request, attach and submit (walking to a role zone first), fetches a block of
 * a type some 1-block task needs from a dispenser, carries it to a goal zone, turns it to where the task
 * wants it, and submits. It explores while it knows no zone or dispenser it needs, remembering what it
 * saw on the way (see `LocalMap`). A simple, honest opponent: no team coordination, no multi-block tasks.
 */
import type {
  MassimAct,
  MassimAgentContext,
  MassimDirection,
  MassimPolicyAction,
  MassimStepPerceptInfo,
  MassimTaskInfo,
} from '../../../../src/core/protocols/massim/policy-api';
import {
  LocalMap,
  Surroundings,
  directionTo,
  distance,
  exploringStep,
  offsetOf,
  stepTowards,
  type Offset,
} from './local-map';

/** What one fetching agent keeps between steps. */
interface FetcherMemory {
  map: LocalMap;
  heading?: MassimDirection;
  /** The block attached to the agent, relative to it. */
  carrying?: { at: Offset; type: string };
  /** The block type of the attach sent last step. */
  attaching?: string;
  /** Steps spent carrying a block no task wants any more. */
  unwanted: number;
}

/** Give up a block no task has wanted for this many steps. */
const PATIENCE = 20;

/** A fetcher; `random` is the team's seeded generator. */
export function fetcherTeam(random: () => number): MassimAct {
  return (percept, agent) => {
    const memory = agent.memory as { fetcher?: FetcherMemory };
    const state = (memory.fetcher ??= { map: new LocalMap(), unwanted: 0 });
    state.map.update(percept);
    followLastAction(state, percept);
    if (percept.deactivated) return { type: 'skip', p: [] };

    const role = buildingRole(agent);
    if (percept.role !== role) return takeRole(state, percept, role, random);
    const tasks = percept.tasks.filter(
      (task) => task.requirements.length === 1 && task.deadline >= agent.step,
    );
    return state.carrying
      ? deliver(state, state.carrying, percept, tasks, random)
      : fetch(state, percept, tasks, random);
  };
}

/** Tracks the carried block through what the last action did, then checks it is still there. */
function followLastAction(state: FetcherMemory, percept: MassimStepPerceptInfo): void {
  const { lastAction, lastActionResult, lastActionParams } = percept;
  const succeeded = lastActionResult === 'success';
  if (lastAction === 'attach' && succeeded && state.attaching) {
    state.carrying = { at: offsetOf(lastActionParams[0] as MassimDirection), type: state.attaching };
    state.unwanted = 0;
  }
  state.attaching = undefined;
  if (lastAction === 'rotate' && succeeded && state.carrying) {
    const { x, y } = state.carrying.at;
    state.carrying.at = lastActionParams[0] === 'cw' ? { x: -y, y: x } : { x: y, y: -x };
  }
  if ((lastAction === 'submit' || lastAction === 'detach') && succeeded) state.carrying = undefined;
  const carried = state.carrying;
  if (
    carried &&
    !(
      percept.things.some(
        (thing) =>
          thing.type === 'block' &&
          thing.x === carried.at.x &&
          thing.y === carried.at.y &&
          thing.details === carried.type,
      ) && percept.attached.some(([x, y]) => x === carried.at.x && y === carried.at.y)
    )
  ) {
    // Cleared by an event, or taken apart: start again.
    state.carrying = undefined;
  }
}

/** The role to build with: one whose actions allow request, attach and submit (`worker` in the contest). */
function buildingRole(agent: MassimAgentContext): string {
  const roles = agent.simulation?.roles ?? [];
  const able = roles.filter((role) =>
    ['request', 'attach', 'submit'].every((action) => role.actions.includes(action)),
  );
  return (able.find((role) => role.name === 'worker') ?? able[0])?.name ?? 'worker';
}

function takeRole(
  state: FetcherMemory,
  percept: MassimStepPerceptInfo,
  role: string,
  random: () => number,
): MassimPolicyAction {
  if (percept.roleZones.some(([x, y]) => x === 0 && y === 0)) return { type: 'adopt', p: [role] };
  const zone = state.map.nearest(state.map.roleZones.values());
  return zone ? stepTowards(zone, new Surroundings(percept), random) : exploringStep(percept, state, random);
}

function fetch(
  state: FetcherMemory,
  percept: MassimStepPerceptInfo,
  tasks: MassimTaskInfo[],
  random: () => number,
): MassimPolicyAction {
  const wanted = new Set(tasks.map((task) => task.requirements[0]!.type));
  if (wanted.size === 0) return exploringStep(percept, state, random);
  const surroundings = new Surroundings(percept);
  for (const dispenser of percept.things) {
    const direction = directionTo(dispenser);
    if (dispenser.type !== 'dispenser' || !direction || !wanted.has(dispenser.details)) continue;
    const blockOnIt = percept.things.some(
      (thing) => thing.type === 'block' && thing.x === dispenser.x && thing.y === dispenser.y,
    );
    const attachedToSomeone = percept.attached.some(([x, y]) => x === dispenser.x && y === dispenser.y);
    if (blockOnIt && !attachedToSomeone) {
      state.attaching = dispenser.details;
      return { type: 'attach', p: [direction] };
    }
    if (!surroundings.isBlocked(dispenser)) return { type: 'request', p: [direction] };
  }
  const standingOnDispenser = percept.things.some(
    (thing) => thing.type === 'dispenser' && thing.x === 0 && thing.y === 0,
  );
  if (standingOnDispenser) return exploringStep(percept, state, random);
  const dispensers = [...state.map.dispensers.values()].filter(({ type }) => wanted.has(type));
  const nearest = state.map.nearest(dispensers.map(({ at }) => at));
  return nearest ? stepTowards(nearest, surroundings, random) : exploringStep(percept, state, random);
}

function deliver(
  state: FetcherMemory,
  carrying: { at: Offset; type: string },
  percept: MassimStepPerceptInfo,
  tasks: MassimTaskInfo[],
  random: () => number,
): MassimPolicyAction {
  const task = tasks.find((candidate) => candidate.requirements[0]!.type === carrying.type);
  if (!task) {
    if (++state.unwanted > PATIENCE) return { type: 'detach', p: [directionTo(carrying.at)!] };
    return exploringStep(percept, state, random, [carrying.at]);
  }
  state.unwanted = 0;
  const wantedAt = task.requirements[0]!;
  const inGoalZone = percept.goalZones.some(([x, y]) => x === 0 && y === 0);
  const surroundings = new Surroundings(percept);
  if (inGoalZone) {
    if (carrying.at.x === wantedAt.x && carrying.at.y === wantedAt.y)
      return { type: 'submit', p: [task.name] };
    const lastTurnFailed = percept.lastAction === 'rotate' && percept.lastActionResult !== 'success';
    if (!lastTurnFailed) {
      // A clockwise turn takes (x, y) to (-y, x); turning the other way covers the rest.
      const clockwise = -carrying.at.y === wantedAt.x && carrying.at.x === wantedAt.y;
      return { type: 'rotate', p: [clockwise ? 'cw' : 'ccw'] };
    }
    // Something is in the way of the turn: try from another cell of the zone.
    const elsewhere = percept.goalZones
      .map(([x, y]) => ({ x, y }))
      .filter((cell) => cell.x !== 0 || cell.y !== 0)
      .sort((a, b) => distance(a, { x: 0, y: 0 }) - distance(b, { x: 0, y: 0 }))[0];
    if (elsewhere) return stepTowards(elsewhere, surroundings, random, [carrying.at]);
  }
  const zone = state.map.nearest(state.map.goalZones.values());
  if (zone && !(zone.x === 0 && zone.y === 0)) return stepTowards(zone, surroundings, random, [carrying.at]);
  return exploringStep(percept, state, random, [carrying.at]);
}
