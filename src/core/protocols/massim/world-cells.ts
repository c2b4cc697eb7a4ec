/**
 * The world snapshot cell by cell, for the world view: which cells zones cover on the torus, and what is in
 * one cell (for the hover card and for picking an agent with the pointer). Pure functions of a snapshot.
 */
import type { MassimWorldSnapshot, MassimZone } from '../../envs/massim/api';

/** The cells `y * width + x` a Manhattan diamond covers, wrapped around the torus, each once. */
export function zoneCells(zone: MassimZone, width: number, height: number): number[] {
  const cells = new Set<number>();
  for (let dx = -zone.radius; dx <= zone.radius; dx++) {
    const reach = zone.radius - Math.abs(dx);
    for (let dy = -reach; dy <= reach; dy++) {
      const x = (((zone.x + dx) % width) + width) % width;
      const y = (((zone.y + dy) % height) + height) % height;
      cells.add(y * width + x);
    }
  }
  return [...cells];
}

/** Everything in one cell, as the hover card lists it. */
export interface CellContents {
  x: number;
  y: number;
  obstacle: boolean;
  goalZone: boolean;
  roleZone: boolean;
  dispenser?: string;
  blocks: { type: string; attached: boolean }[];
  agents: { name: string; team: string; role: string; energy: number; deactivated: boolean }[];
  markers: string[];
}

/** Indexes of a snapshot by cell, built once per snapshot and reused for every hover. */
export class WorldCells {
  readonly width: number;
  readonly height: number;
  readonly #snapshot: MassimWorldSnapshot;
  readonly #obstacles: Set<number>;
  readonly #goal = new Set<number>();
  readonly #role = new Set<number>();
  readonly #attached = new Set<number>();

  constructor(snapshot: MassimWorldSnapshot, width: number, height: number) {
    this.width = width;
    this.height = height;
    this.#snapshot = snapshot;
    this.#obstacles = new Set(snapshot.obstacles);
    for (const zone of snapshot.goalZones)
      for (const cell of zoneCells(zone, width, height)) this.#goal.add(cell);
    for (const zone of snapshot.roleZones)
      for (const cell of zoneCells(zone, width, height)) this.#role.add(cell);
    for (const [x1, y1, x2, y2] of snapshot.attachments) {
      this.#attached.add(y1 * width + x1);
      this.#attached.add(y2 * width + x2);
    }
  }

  /** Goal zone cells (each once). */
  get goalCells(): ReadonlySet<number> {
    return this.#goal;
  }

  /** Role zone cells (each once). */
  get roleCells(): ReadonlySet<number> {
    return this.#role;
  }

  /** What is at (x, y); coordinates wrap around the torus. */
  at(x: number, y: number): CellContents {
    x = ((x % this.width) + this.width) % this.width;
    y = ((y % this.height) + this.height) % this.height;
    const cell = y * this.width + x;
    const world = this.#snapshot;
    const here = <T extends { x: number; y: number }>(list: readonly T[]) =>
      list.filter((item) => item.x === x && item.y === y);
    return {
      x,
      y,
      obstacle: this.#obstacles.has(cell),
      goalZone: this.#goal.has(cell),
      roleZone: this.#role.has(cell),
      ...(here(world.dispensers)[0] ? { dispenser: here(world.dispensers)[0]!.type } : {}),
      blocks: here(world.blocks).map((block) => ({ type: block.type, attached: this.#attached.has(cell) })),
      agents: here(world.entities).map(({ name, team, role, energy, deactivated }) => ({
        name,
        team,
        role,
        energy,
        deactivated,
      })),
      markers: here(world.markers).map((marker) => marker.type),
    };
  }
}

/** One line per thing in a cell, for the hover card (`agentA1 (A) worker, energy 97`, `block b1, attached`...). */
export function describeCell(contents: CellContents): string[] {
  const lines = contents.agents.map(
    (a) => `${a.name} (team ${a.team}) ${a.role}, energy ${a.energy}${a.deactivated ? ', deactivated' : ''}`,
  );
  for (const block of contents.blocks) lines.push(`block ${block.type}${block.attached ? ', attached' : ''}`);
  if (contents.dispenser !== undefined) lines.push(`dispenser of ${contents.dispenser}`);
  if (contents.obstacle) lines.push('obstacle');
  const markerNames: Record<string, string> = {
    clear: 'clear event here',
    ci: 'clear event imminent',
    cp: 'clear event perimeter',
  };
  for (const marker of contents.markers) lines.push(markerNames[marker] ?? `marker ${marker}`);
  if (contents.goalZone) lines.push('goal zone');
  if (contents.roleZone) lines.push('role zone');
  if (lines.length === 0) lines.push('empty');
  return lines;
}
