/**
 * Seeded map generation from the configuration's `grid`, `blockTypes`, `dispensers`, `entities` and
 * `clusterBounds` keys, in the real server's order: obstacles (cave automaton and borders), goal zones,
 * role zones, block types, agent start clusters, dispensers. With Protoplay's generator maps differ from the
 * real server's for the same seed, but every rule an agent can notice holds: zones are centred on free
 * cells, agents of the same index in every team start stacked on one cell, start cells come in small
 * clusters, dispensers never start under an agent. With `javaOrder` (under `java.util.Random`) every draw
 * is made in the real server's order too, so the map is the real server's: the cave's random fill walks
 * the grid column by column, and block types are kept in the server's sorted set (`b10` before `b2`).
 */
import { ProtoplayError } from '../../errors';
import type { MassimGridInstruction, MassimSimConfig, MassimTeam } from './api';
import { between } from './draws';
import type { SimRandom } from './draws';
import { World } from './world';

/** The generated world and the block types in play. */
export interface GeneratedWorld {
  world: World;
  blockTypes: string[];
}

export function generateWorld(
  config: MassimSimConfig,
  teams: readonly MassimTeam[],
  rng: SimRandom,
  javaOrder = false,
): GeneratedWorld {
  const { width, height } = config.grid;
  const world = new World(width, height, config.attachLimit);

  const obstacles = generateObstacles(width, height, config.grid.instructions, rng, javaOrder);
  for (let cell = 0; cell < obstacles.length; cell++) if (obstacles[cell]) world.addObstacle(cell);

  for (const [zones, { number, size }] of [
    [world.goalZones, config.grid.goals],
    [world.roleZones, config.grid.roleZones],
  ] as const) {
    for (let i = 0; i < number; i++)
      zones.add(requireCell(world.findFreeCell(rng), 'a zone'), between(rng, size));
  }

  const blockTypes = Array.from({ length: between(rng, config.blockTypes) }, (_, i) => `b${i}`);
  // The real server keeps the types in a TreeSet: dispensers are made and tasks draw in sorted order.
  if (javaOrder) blockTypes.sort();

  placeAgents(world, config, teams, rng);

  for (const type of blockTypes) {
    const count = between(rng, config.dispensers);
    for (let i = 0; i < count; i++)
      world.addDispenser(requireCell(world.findFreeCell(rng), 'a dispenser'), type);
  }
  return { world, blockTypes };
}

function requireCell(cell: number | undefined, what: string): number {
  if (cell === undefined) {
    throw new ProtoplayError('massim-map-full', `the grid has no free cell left for ${what}; make it larger`);
  }
  return cell;
}

/**
 * Start clusters of random size within `clusterBounds`; each cell of a cluster gets a randomly chosen agent
 * index, and the agents with that index of every team start there together.
 */
function placeAgents(
  world: World,
  config: MassimSimConfig,
  teams: readonly MassimTeam[],
  rng: SimRandom,
): void {
  const waiting = Array.from({ length: config.agentsPerTeam }, (_, i) => i);
  const defaultRole = config.roles[0]!;
  while (waiting.length > 0) {
    const size = Math.min(between(rng, config.clusterBounds), waiting.length);
    const cells = world.findFreeCluster(size, rng);
    if (!cells) {
      throw new ProtoplayError('massim-map-full', 'the grid has no room left for the agents; make it larger');
    }
    for (const cell of cells) {
      const index = waiting.splice(rng.nextInt(waiting.length), 1)[0]!;
      for (const team of teams)
        world.addEntity(cell, team.agents[index]!, team.name, defaultRole, config.maxEnergy);
    }
  }
}

/**
 * Obstacle flags per cell (`y * width + x`) after applying every instruction in order. The cave's random
 * fill draws row by row, or column by column (x outer, y inner) as the real server does with `javaOrder`.
 */
export function generateObstacles(
  width: number,
  height: number,
  instructions: readonly MassimGridInstruction[],
  rng: SimRandom,
  javaOrder = false,
): Uint8Array {
  let grid: Uint8Array = new Uint8Array(width * height);
  const set = (x: number, y: number) => {
    if (x >= 0 && x < width && y >= 0 && y < height) grid[y * width + x] = 1;
  };
  for (const instruction of instructions) {
    switch (instruction.kind) {
      case 'line-border':
        for (let ring = 0; ring < instruction.width; ring++) {
          for (let x = ring; x < width - ring; x++) {
            set(x, ring);
            set(x, height - 1 - ring);
          }
          for (let y = ring; y < height - ring; y++) {
            set(ring, y);
            set(width - 1 - ring, y);
          }
        }
        break;
      case 'ragged-border':
        raggedBorder(width, height, instruction.width, rng, set);
        break;
      case 'cave':
        if (javaOrder) {
          for (let x = 0; x < width; x++)
            for (let y = 0; y < height; y++)
              if (rng.nextFloat() < instruction.chance) grid[y * width + x] = 1;
        } else {
          for (let cell = 0; cell < grid.length; cell++)
            if (rng.nextFloat() < instruction.chance) grid[cell] = 1;
        }
        for (let i = 0; i < instruction.iterations; i++) {
          grid = caveIteration(grid, width, height, instruction.createLimit, instruction.destroyLimit);
        }
        break;
    }
  }
  return grid;
}

/**
 * One step of the cave automaton on the torus: an obstacle survives with at least `destroyLimit` obstacle
 * neighbours (of 8), a free cell fills up with more than `createLimit`.
 */
function caveIteration(
  grid: Uint8Array,
  width: number,
  height: number,
  createLimit: number,
  destroyLimit: number,
): Uint8Array {
  const next = new Uint8Array(grid.length);
  for (let y = 0; y < height; y++) {
    const rows = [((y + height - 1) % height) * width, y * width, ((y + 1) % height) * width];
    for (let x = 0; x < width; x++) {
      const columns = [(x + width - 1) % width, x, (x + 1) % width];
      let neighbours = 0;
      for (const row of rows) for (const column of columns) neighbours += grid[row + column]!;
      const self = grid[y * width + x]!;
      neighbours -= self;
      next[y * width + x] = self ? (neighbours >= destroyLimit ? 1 : 0) : neighbours > createLimit ? 1 : 0;
    }
  }
  return next;
}

/** Borders on all four sides whose thickness wanders by -1, 0 or +1 per cell (at least 1). */
function raggedBorder(
  width: number,
  height: number,
  thickness: number,
  rng: SimRandom,
  set: (x: number, y: number) => void,
): void {
  const wander = (length: number, paint: (along: number, depth: number) => void) => {
    let current = thickness;
    for (let along = 0; along < length; along++) {
      current = Math.max(current - 1 + rng.nextInt(3), 1);
      for (let depth = 0; depth < current; depth++) paint(along, depth);
    }
  };
  wander(width, (x, depth) => set(x, depth));
  wander(width, (x, depth) => set(x, height - 1 - depth));
  wander(height, (y, depth) => set(depth, y));
  wander(height, (y, depth) => set(width - 1 - depth, y));
}
