/**
 * The scavenger world: a commons-harvest grid after Perolat et al. (2017) as the original GAMA model plays it.
 * Scavengers move, turn and tag each other with a beam; each collected resource pays 5 with the next
 * request; collected resources regrow with a probability set by how many resources are left near them, so
 * a patch harvested to its last resource never comes back. Deterministic given its seed.
 *
 * The world does not schedule anyone: whoever drives it (the GAMA side of the protocol, a test) lets each
 * active scavenger act in turn with `act`, then calls `endCycle`. Later scavengers see the moves of earlier
 * ones in the same cycle, as in GAMA, where each scavenger waits for its answer before the next asks.
 */
import { Rng } from '../../random';
import {
  FACING_DX,
  FACING_DY,
  MOVE_TURNS,
  isScavengerAction,
  type Facing,
  type ScavengerAction,
} from './actions';
import { Tile, type ScavengerScenario } from './scenario';

/** What the shared occupancy grid holds per cell: the documented legend without "self". */
export const Cell = { empty: 0, resource: 1, scavenger: 2, wall: 3 } as const;

/** Options of a world. */
export interface ScavengerWorldOptions {
  seed?: number | string;
  /** Cycles in an episode (default 1000). */
  maxCycles?: number;
  /**
   * Reproduce the original model's quirks: a tagged scavenger leaves a "ghost" on its cell that blocks
   * moves and regrowth for good; beams fired east or south start 20 cells ahead instead of at the shooter;
   * a scavenger back from time-out reappears on its spawn cell even when someone stands there. Off by default.
   */
  faithfulQuirks?: boolean;
  /** Cycles a tagged scavenger stays out (default 25). */
  timeOutCycles?: number;
}

/** One scavenger's state. */
export interface Scavenger {
  /** `Scav. 1`, `Scav. 2`... in row-major order of the spawn cells. */
  readonly id: string;
  /** 0-based index. */
  readonly index: number;
  x: number;
  y: number;
  facing: Facing;
  readonly spawnX: number;
  readonly spawnY: number;
  /** Cycles left out of the map after a tag (0: on the map). */
  timeOut: number;
  /** Reward earned since the last `takeReward` (5 per resource). */
  pendingReward: number;
  /** Cycle (1-based) of every resource collected. */
  readonly collectionCycles: number[];
  /** Cycles spent in time-out. */
  timeOutCycles: number;
  /** Times this scavenger was tagged. */
  tagged: number;
}

/** What one action did, for notes and tests. */
export interface ActionOutcome {
  action: ScavengerAction | 'unknown';
  /** A move was blocked by a wall, a scavenger or the edge. */
  blocked?: boolean;
  collected?: boolean;
  /** Ids of the scavengers a tag hit. */
  hit?: string[];
}

/** Reward of one collected resource. */
export const RESOURCE_REWARD = 5;
const TIME_OUT_CYCLES = 25;
const BEAM_LENGTH = 21;
const BEAM_HALF_WIDTH = 2;
/** Regrowth probability per cycle by the number of resources within distance 2 (0, 1-2, 3-4, 5 or more). */
const REGROWTH = [0, 0.01, 0.01, 0.05, 0.05, 0.1];

/** The world of one episode. */
export class ScavengerWorld {
  readonly scenario: ScavengerScenario;
  readonly width: number;
  readonly height: number;
  /** Occupancy, one `Cell` value per cell, row-major. */
  readonly cells: Uint8Array;
  readonly scavengers: readonly Scavenger[];
  readonly maxCycles: number;
  readonly faithfulQuirks: boolean;
  /** Cycles completed. */
  cycle = 0;
  readonly #rng: Rng;
  readonly #timeOut: number;
  /** Home cell of every resource, and whether it is on the map now. */
  readonly #resourceCells: Int32Array;
  /** The resource whose home a cell is, or -1. */
  readonly #resourceAt: Int32Array;
  readonly #resourceUp: Uint8Array;
  /** Regrowth succeeded while a scavenger stood on the cell: it appears once the cell is free. */
  readonly #resourceDue: Uint8Array;
  /** Cells within distance 1 and 2 of each resource, inside the map: offsets into `#neighbourCells`. */
  readonly #neighbourStart: Int32Array;
  readonly #neighbourCells: Int32Array;
  #resourcesUp = 0;

  constructor(scenario: ScavengerScenario, options: ScavengerWorldOptions = {}) {
    this.scenario = scenario;
    this.width = scenario.width;
    this.height = scenario.height;
    this.maxCycles = options.maxCycles ?? 1000;
    this.faithfulQuirks = options.faithfulQuirks ?? false;
    this.#timeOut = options.timeOutCycles ?? TIME_OUT_CYCLES;
    this.#rng = new Rng(options.seed ?? 0);
    this.cells = new Uint8Array(scenario.tiles.length);
    const scavengers: Scavenger[] = [];
    const resources: number[] = [];
    scenario.tiles.forEach((tile, cell) => {
      const x = cell % this.width;
      const y = (cell - x) / this.width;
      if (tile === Tile.wall) this.cells[cell] = Cell.wall;
      if (tile === Tile.resource) {
        this.cells[cell] = Cell.resource;
        resources.push(cell);
      }
      if (tile === Tile.spawn) {
        this.cells[cell] = Cell.scavenger;
        const index = scavengers.length;
        scavengers.push({
          id: `Scav. ${index + 1}`,
          index,
          x,
          y,
          facing: 0,
          spawnX: x,
          spawnY: y,
          timeOut: 0,
          pendingReward: 0,
          collectionCycles: [],
          timeOutCycles: 0,
          tagged: 0,
        });
      }
    });
    this.scavengers = scavengers;
    this.#resourceCells = Int32Array.from(resources);
    this.#resourceAt = new Int32Array(this.cells.length).fill(-1);
    resources.forEach((cell, resource) => (this.#resourceAt[cell] = resource));
    this.#resourceUp = new Uint8Array(resources.length).fill(1);
    this.#resourceDue = new Uint8Array(resources.length);
    this.#resourcesUp = resources.length;
    const starts: number[] = [];
    const neighbours: number[] = [];
    for (const cell of resources) {
      starts.push(neighbours.length);
      const x = cell % this.width;
      const y = (cell - x) / this.width;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const distance = Math.abs(dx) + Math.abs(dy);
          if (distance === 0 || distance > 2 || !this.#inside(x + dx, y + dy)) continue;
          neighbours.push((y + dy) * this.width + x + dx);
        }
      }
    }
    starts.push(neighbours.length);
    this.#neighbourStart = Int32Array.from(starts);
    this.#neighbourCells = Int32Array.from(neighbours);
  }

  /** Resources on the map now. */
  get resourcesLeft(): number {
    return this.#resourcesUp;
  }

  /** Resources of the scenario (on the map or not). */
  get resourceCount(): number {
    return this.#resourceCells.length;
  }

  /** The episode is over: its cycles are played, or no resource is left to regrow. */
  get ended(): boolean {
    return this.cycle >= this.maxCycles || this.#resourcesUp === 0;
  }

  /** The scavenger is on the map (not in time-out), so it is asked for an action this cycle. */
  isActive(index: number): boolean {
    return this.scavengers[index]!.timeOut === 0;
  }

  /** The reward earned since the last call (5 per resource), reset to 0: it goes with the next request. */
  takeReward(index: number): number {
    const scavenger = this.scavengers[index]!;
    const reward = scavenger.pendingReward;
    scavenger.pendingReward = 0;
    return reward;
  }

  /** Carries out one action of an active scavenger; an unknown action does nothing, as in GAMA. */
  act(index: number, action: string): ActionOutcome {
    const scavenger = this.scavengers[index]!;
    if (!isScavengerAction(action)) return { action: 'unknown' };
    if (scavenger.timeOut > 0) return { action };
    switch (action) {
      case 'idle':
        return { action };
      case 'tag':
        return { action, hit: this.#tag(scavenger) };
      case 'face_right':
        scavenger.facing = ((scavenger.facing + 1) & 3) as Facing;
        return { action };
      case 'face_left':
        scavenger.facing = ((scavenger.facing + 3) & 3) as Facing;
        return { action };
      default:
        return { action, ...this.#move(scavenger, (scavenger.facing + MOVE_TURNS[action]!) & 3) };
    }
  }

  /**
   * Ends the cycle: time-outs count down (a scavenger whose time-out is over reappears on its spawn cell),
   * then collected resources may regrow.
   */
  endCycle(): void {
    this.cycle++;
    for (const scavenger of this.scavengers) {
      if (scavenger.timeOut === 0) continue;
      scavenger.timeOutCycles++;
      if (scavenger.timeOut > 1) scavenger.timeOut--;
      else this.#respawn(scavenger);
    }
    this.#regrow();
  }

  /** A compact copy of the state, for the world view and tests. */
  snapshot(): ScavengerWorldSnapshot {
    const rows: string[] = [];
    for (let y = 0; y < this.height; y++) {
      rows.push(Array.from(this.cells.subarray(y * this.width, (y + 1) * this.width)).join(''));
    }
    return {
      cycle: this.cycle,
      rows,
      resourcesLeft: this.#resourcesUp,
      scavengers: this.scavengers.map((s) => ({
        id: s.id,
        x: s.x,
        y: s.y,
        facing: s.facing,
        timeOut: s.timeOut,
        collected: s.collectionCycles.length,
      })),
    };
  }

  #inside(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  #move(scavenger: Scavenger, direction: number): Omit<ActionOutcome, 'action'> {
    const x = scavenger.x + FACING_DX[direction]!;
    const y = scavenger.y + FACING_DY[direction]!;
    if (!this.#inside(x, y)) return { blocked: true };
    const target = y * this.width + x;
    if (this.cells[target]! > Cell.resource) return { blocked: true };
    const collected = this.cells[target] === Cell.resource;
    if (collected) this.#collect(scavenger, target);
    this.cells[scavenger.y * this.width + scavenger.x] = Cell.empty;
    this.cells[target] = Cell.scavenger;
    scavenger.x = x;
    scavenger.y = y;
    return collected ? { collected } : {};
  }

  #collect(scavenger: Scavenger, cell: number): void {
    const resource = this.#resourceAt[cell]!;
    this.#resourceUp[resource] = 0;
    this.#resourcesUp--;
    scavenger.pendingReward += RESOURCE_REWARD;
    // Collected during the cycle being played, which is cycle `this.cycle + 1` counted from 1.
    scavenger.collectionCycles.push(this.cycle + 1);
  }

  /** The beam: 5 cells wide, 21 long from the shooter's own row or column, through walls. */
  #tag(shooter: Scavenger): string[] {
    const forwardX = FACING_DX[shooter.facing]!;
    const forwardY = FACING_DY[shooter.facing]!;
    // The original places east and south beams 20 cells ahead of the shooter (see the class notes).
    const start = this.faithfulQuirks && (shooter.facing === 1 || shooter.facing === 2) ? BEAM_LENGTH - 1 : 0;
    const hit: string[] = [];
    for (const target of this.scavengers) {
      if (target === shooter || target.timeOut > 0) continue;
      const dx = target.x - shooter.x;
      const dy = target.y - shooter.y;
      const ahead = dx * forwardX + dy * forwardY;
      // The lateral offset is the component across the facing: |dx| facing north/south, |dy| east/west.
      const across = forwardX === 0 ? dx : dy;
      if (ahead < start || ahead >= start + BEAM_LENGTH || Math.abs(across) > BEAM_HALF_WIDTH) continue;
      hit.push(target.id);
      target.tagged++;
      target.timeOut = this.#timeOut;
      // The original never clears a tagged scavenger's cell: it stays a "ghost" for good.
      if (!this.faithfulQuirks) this.cells[target.y * this.width + target.x] = Cell.empty;
    }
    return hit;
  }

  #respawn(scavenger: Scavenger): void {
    const cell = scavenger.spawnY * this.width + scavenger.spawnX;
    const content = this.cells[cell]!;
    // Someone stands on the spawn cell: wait a cycle (the original reappears on top of them).
    if (!this.faithfulQuirks && content > Cell.resource) return;
    if (content === Cell.resource) this.#collect(scavenger, cell);
    scavenger.timeOut = 0;
    scavenger.x = scavenger.spawnX;
    scavenger.y = scavenger.spawnY;
    scavenger.facing = 0;
    this.cells[cell] = Cell.scavenger;
  }

  #regrow(): void {
    const cells = this.cells;
    for (let r = 0; r < this.#resourceCells.length; r++) {
      if (this.#resourceUp[r]) continue;
      const cell = this.#resourceCells[r]!;
      if (!this.#resourceDue[r]) {
        let near = 0;
        for (let n = this.#neighbourStart[r]!; n < this.#neighbourStart[r + 1]!; n++) {
          if (cells[this.#neighbourCells[n]!] === Cell.resource) near++;
        }
        const probability = REGROWTH[Math.min(near, 5)]!;
        if (probability === 0 || this.#rng.nextFloat() >= probability) continue;
        this.#resourceDue[r] = 1;
      }
      // A resource regrows only on a free cell; until then it waits.
      if (cells[cell] !== Cell.empty) continue;
      this.#resourceDue[r] = 0;
      this.#resourceUp[r] = 1;
      this.#resourcesUp++;
      cells[cell] = Cell.resource;
    }
  }
}

/** The world at the end of a cycle, as the world view shows it. */
export interface ScavengerWorldSnapshot {
  cycle: number;
  /** One string per row, one `Cell` digit per cell. */
  rows: string[];
  resourcesLeft: number;
  scavengers: { id: string; x: number; y: number; facing: Facing; timeOut: number; collected: number }[];
}
