/**
 * The grid and everything on it: which attachables occupy which cell, how they are attached, dispensers,
 * markers and zones. Operations keep the real server's rules (a cell is blocked by any attachable, moves
 * and rotations take the whole attached cluster along, attaching respects `attachLimit`) and run in time
 * proportional to the things involved, never to the grid size, because the server does this every step.
 */
import type { SimRandom } from './draws';
import type { MassimRoleConfig } from './api';
import { Attachable, Entity } from './things';
import { type Direction, Torus } from './torus';
import { ZoneSet } from './zones';

/** Marker kinds: inside a clear area, inside one about to fire (`ci`), or on its perimeter (`cp`). */
export type MarkerType = 'clear' | 'ci' | 'cp';

export class World {
  readonly torus: Torus;
  readonly attachLimit: number;
  readonly goalZones: ZoneSet;
  readonly roleZones: ZoneSet;
  /** Every entity, in creation order. */
  readonly entities: Entity[] = [];
  /** Cells holding a dispenser, in creation order. */
  readonly dispenserCells: number[] = [];
  /**
   * Bumped by the simulation whenever the world has changed, so caches used while building percepts
   * (which never change the world) know they are stale.
   */
  epoch = 0;

  readonly #top: (Attachable | null)[];
  readonly #dispenserType: (string | undefined)[];
  readonly #markers: (MarkerType[] | undefined)[];
  #markerCells: number[] = [];
  /** Blocks and linked things, so snapshots need not scan the grid. */
  readonly #blocks = new Set<Attachable>();
  readonly #linked = new Set<Attachable>();
  /** Obstacle cells, rebuilt only after obstacles changed (rarely: clears and clear events). */
  #obstacleCells: number[] | undefined;
  #nextId = 1;
  #stamp = 0;

  constructor(width: number, height: number, attachLimit: number) {
    this.torus = new Torus(width, height);
    this.attachLimit = attachLimit;
    this.goalZones = new ZoneSet(this.torus);
    this.roleZones = new ZoneSet(this.torus);
    this.#top = new Array<Attachable | null>(this.torus.cells).fill(null);
    this.#dispenserType = new Array<string | undefined>(this.torus.cells).fill(undefined);
    this.#markers = new Array<MarkerType[] | undefined>(this.torus.cells).fill(undefined);
  }

  // --- occupancy ------------------------------------------------------------------------------------

  /** The first attachable in a cell (follow `nextInCell` for the others), or null. */
  firstAt(cell: number): Attachable | null {
    return this.#top[cell]!;
  }

  /**
   * The per-cell tables a percept walk reads (read-only): first attachable, markers, dispenser type. Direct
   * reads save the method calls of `firstAt`, `markersAt` and `dispenserAt` over the ~100 cells of a view.
   */
  cellTables(): {
    things: readonly (Attachable | null)[];
    markers: readonly (readonly MarkerType[] | undefined)[];
    dispensers: readonly (string | undefined)[];
  } {
    return { things: this.#top, markers: this.#markers, dispensers: this.#dispenserType };
  }

  /** True when no attachable is in the cell. */
  isFree(cell: number): boolean {
    return this.#top[cell] === null;
  }

  /** The attachable in a cell when there is exactly one, as attach, connect, submit etc. require. */
  uniqueAt(cell: number): Attachable | null {
    const top = this.#top[cell]!;
    return top !== null && top.nextInCell === null ? top : null;
  }

  /** The thing of a kind in a cell (there is at most one obstacle and one block per cell). */
  kindAt(cell: number, kind: 'block' | 'obstacle'): Attachable | null {
    for (let thing: Attachable | null = this.#top[cell]!; thing; thing = thing.nextInCell)
      if (thing.kind === kind) return thing;
    return null;
  }

  entitiesAt(cell: number): Entity[] {
    const result: Entity[] = [];
    for (let thing: Attachable | null = this.#top[cell]!; thing; thing = thing.nextInCell) {
      if (thing instanceof Entity) result.push(thing);
    }
    return result;
  }

  #insert(thing: Attachable): void {
    thing.nextInCell = this.#top[thing.cell]!;
    this.#top[thing.cell] = thing;
  }

  #unlinkFromCell(thing: Attachable): void {
    let previous: Attachable | null = null;
    for (let current: Attachable | null = this.#top[thing.cell]!; current; current = current.nextInCell) {
      if (current === thing) {
        if (previous) previous.nextInCell = current.nextInCell;
        else this.#top[thing.cell] = current.nextInCell;
        current.nextInCell = null;
        return;
      }
      previous = current;
    }
  }

  /** Adds an entity; several may share a cell (the two teams' agents start stacked). */
  addEntity(cell: number, name: string, team: string, role: MassimRoleConfig, energy: number): Entity {
    const entity = new Entity(this.#nextId++, cell, name, team, role, energy);
    this.#insert(entity);
    this.entities.push(entity);
    return entity;
  }

  /** Adds an obstacle unless the cell already has one. */
  addObstacle(cell: number): Attachable | null {
    if (this.kindAt(cell, 'obstacle')) return null;
    const obstacle = new Attachable(this.#nextId++, 'obstacle', cell, '');
    this.#insert(obstacle);
    this.#obstacleCells = undefined;
    return obstacle;
  }

  /** Adds a block unless the cell already has one. */
  addBlock(cell: number, type: string): Attachable | null {
    if (this.kindAt(cell, 'block')) return null;
    const block = new Attachable(this.#nextId++, 'block', cell, type);
    this.#insert(block);
    this.#blocks.add(block);
    return block;
  }

  /** Removes a block or obstacle from the world, releasing its attachments. */
  destroy(thing: Attachable): void {
    this.detachAll(thing);
    this.#unlinkFromCell(thing);
    this.#blocks.delete(thing);
    if (thing.kind === 'obstacle') this.#obstacleCells = undefined;
  }

  /** Every cell with its attachables (cost proportional to the grid). */
  *occupiedCells(): Generator<[number, Attachable]> {
    for (let cell = 0; cell < this.#top.length; cell++) {
      for (let thing: Attachable | null = this.#top[cell]!; thing; thing = thing.nextInCell)
        yield [cell, thing];
    }
  }

  /**
   * Cells holding an obstacle, ascending. The same array is returned until obstacles change, so consecutive
   * snapshots share it; callers must not modify it.
   */
  obstacleCells(): readonly number[] {
    if (!this.#obstacleCells) {
      // A plain loop over the cells: clear events change obstacles every few steps on contest maps.
      const cells: number[] = [];
      const top = this.#top;
      for (let cell = 0; cell < top.length; cell++) {
        for (let thing: Attachable | null = top[cell]!; thing; thing = thing.nextInCell) {
          if (thing.kind === 'obstacle') {
            cells.push(cell);
            break;
          }
        }
      }
      this.#obstacleCells = cells;
    }
    return this.#obstacleCells;
  }

  /** Every block, in creation order. */
  blocks(): Iterable<Attachable> {
    return this.#blocks;
  }

  /** Every thing attached to at least one other. */
  linkedThings(): Iterable<Attachable> {
    return this.#linked;
  }

  // --- dispensers and markers -----------------------------------------------------------------------

  /** Places a dispenser unless the cell has one already. */
  addDispenser(cell: number, type: string): boolean {
    if (this.#dispenserType[cell] !== undefined) return false;
    this.#dispenserType[cell] = type;
    this.dispenserCells.push(cell);
    return true;
  }

  dispenserAt(cell: number): string | undefined {
    return this.#dispenserType[cell];
  }

  clearMarkers(): void {
    for (const cell of this.#markerCells) this.#markers[cell] = undefined;
    this.#markerCells = [];
  }

  addMarker(cell: number, type: MarkerType): void {
    const list = this.#markers[cell];
    if (list) list.push(type);
    else {
      this.#markers[cell] = [type];
      this.#markerCells.push(cell);
    }
  }

  markersAt(cell: number): readonly MarkerType[] | undefined {
    return this.#markers[cell];
  }

  /** Cells with markers, in the order they got their first one. */
  markerCells(): readonly number[] {
    return this.#markerCells;
  }

  // --- attachments ----------------------------------------------------------------------------------

  /** The thing and everything transitively attached to it; all of them carry `mark` = the returned stamp. */
  cluster(thing: Attachable): { members: Attachable[]; stamp: number } {
    const stamp = ++this.#stamp;
    thing.mark = stamp;
    const members = [thing];
    for (let i = 0; i < members.length; i++) {
      for (const next of members[i]!.links) {
        if (next.mark !== stamp) {
          next.mark = stamp;
          members.push(next);
        }
      }
    }
    return { members, stamp };
  }

  /** How many things are attached to `thing`, directly or not (itself excluded). */
  attachedCount(thing: Attachable): number {
    return thing.links.length === 0 ? 0 : this.cluster(thing).members.length - 1;
  }

  /** True when some entity other than `thing` is in its cluster. */
  attachedToAnotherEntity(thing: Attachable): boolean {
    if (thing.links.length === 0) return false;
    return this.cluster(thing).members.some((member) => member !== thing && member instanceof Entity);
  }

  /** `attachedToAnotherEntity` with a per-cluster cache, valid while `epoch` does not change. */
  perceivedAsAttached(thing: Attachable): boolean {
    if (thing.links.length === 0) return false;
    if (thing.clusterEpoch !== this.epoch) {
      const { members } = this.cluster(thing);
      let entities = 0;
      for (const member of members) if (member instanceof Entity) entities++;
      for (const member of members) {
        member.clusterEpoch = this.epoch;
        member.entitiesInCluster = entities;
      }
    }
    return thing.entitiesInCluster - (thing instanceof Entity ? 1 : 0) > 0;
  }

  /** Attaches two neighbours unless the joined cluster would exceed `attachLimit`. */
  attach(a: Attachable, b: Attachable): boolean {
    if (this.torus.distance(a.cell, b.cell) !== 1) return false;
    const first = this.cluster(a);
    const size =
      b.mark === first.stamp ? first.members.length : first.members.length + this.cluster(b).members.length;
    if (size > this.attachLimit) return false;
    if (!a.links.includes(b)) {
      a.links.push(b);
      b.links.push(a);
      this.#linked.add(a).add(b);
    }
    return true;
  }

  /** Removes the direct link between two neighbours; false when they are not neighbours or not linked. */
  detachNeighbours(a: Attachable, b: Attachable): boolean {
    if (this.torus.distance(a.cell, b.cell) !== 1) return false;
    const index = a.links.indexOf(b);
    if (index < 0) return false;
    a.links.splice(index, 1);
    b.links.splice(b.links.indexOf(a), 1);
    this.#forgetIfUnlinked(a);
    this.#forgetIfUnlinked(b);
    return true;
  }

  detachAll(thing: Attachable): void {
    for (const other of thing.links) {
      other.links.splice(other.links.indexOf(thing), 1);
      this.#forgetIfUnlinked(other);
    }
    thing.links.length = 0;
    this.#linked.delete(thing);
  }

  #forgetIfUnlinked(thing: Attachable): void {
    if (thing.links.length === 0) this.#linked.delete(thing);
  }

  #isFreeExcept(cell: number, stamp: number): boolean {
    for (let thing: Attachable | null = this.#top[cell]!; thing; thing = thing.nextInCell)
      if (thing.mark !== stamp) return false;
    return true;
  }

  #relocate(members: readonly Attachable[], targets: readonly number[]): void {
    for (const member of members) {
      this.#unlinkFromCell(member);
      if (member.kind === 'obstacle') this.#obstacleCells = undefined;
    }
    members.forEach((member, i) => {
      member.cell = targets[i]!;
      this.#insert(member);
    });
  }

  /** Puts a thing without attachments on a free cell (setup scripts); does nothing otherwise. */
  placeAlone(thing: Attachable, cell: number): void {
    if (this.isFree(cell) && thing.links.length === 0) this.#relocate([thing], [cell]);
  }

  /** Moves `anchor` and its cluster one cell; false (nothing moves) when any target cell is blocked. */
  moveCluster(anchor: Attachable, direction: Direction): boolean {
    if (anchor.links.length === 0) {
      const target = this.torus.neighbour(anchor.cell, direction);
      if (this.#top[target] !== null) return false;
      this.#relocate([anchor], [target]);
      return true;
    }
    const { members, stamp } = this.cluster(anchor);
    const targets = members.map((member) => this.torus.neighbour(member.cell, direction));
    if (!targets.every((cell) => this.#isFreeExcept(cell, stamp))) return false;
    this.#relocate(members, targets);
    return true;
  }

  /**
   * Turns the cluster of `anchor` by 90 degrees around it. Only the final cells must be free (the real server
   * does not check the cells swept on the way), and the cluster must hold no other entity.
   */
  rotateCluster(anchor: Attachable, clockwise: boolean): boolean {
    const { members, stamp } = this.cluster(anchor);
    if (members.some((member) => member !== anchor && member instanceof Entity)) return false;
    const targets = members.map((member) => this.torus.rotated(member.cell, anchor.cell, clockwise));
    if (!targets.every((cell) => this.#isFreeExcept(cell, stamp))) return false;
    this.#relocate(members, targets);
    return true;
  }

  // --- random placement -----------------------------------------------------------------------------

  randomCell(rng: SimRandom): number {
    return this.torus.cellAt(rng.nextInt(this.torus.width), rng.nextInt(this.torus.height));
  }

  /** A free cell: from a random start, the first free one scanning east then south; undefined if none. */
  findFreeCell(rng: SimRandom): number | undefined {
    return this.#scanFrom(this.randomCell(rng), (cell) => this.isFree(cell));
  }

  /**
   * A free cell within `maxDistance` on both axes (a square) around `center`, or undefined after 50 misses,
   * as where a clear event puts new obstacles.
   */
  findFreeCellNear(center: number, maxDistance: number, rng: SimRandom): number | undefined {
    for (let attempt = 0; attempt < 50; attempt++) {
      const dx = rng.nextInt(maxDistance + 1);
      const dy = rng.nextInt(maxDistance + 1);
      const cell = this.torus.offset(
        center,
        rng.nextFloat() < 0.5 ? dx : -dx,
        rng.nextFloat() < 0.5 ? dy : -dy,
      );
      if (this.isFree(cell)) return cell;
    }
    return undefined;
  }

  /**
   * Start cells for a cluster of `size` agents: a free cell whose diamond of radius floor(log2(size)) has
   * at least `size` free cells, and the first `size` free cells of that diamond. Undefined when none exists.
   */
  findFreeCluster(size: number, rng: SimRandom): number[] | undefined {
    const radius = Math.floor(Math.log(size) / Math.log(2));
    const freeCellsAround = (center: number) =>
      this.torus.diamondCells(center, radius).filter((cell) => this.isFree(cell));
    const center = this.#scanFrom(
      this.randomCell(rng),
      (cell) => this.isFree(cell) && freeCellsAround(cell).length >= size,
    );
    return center === undefined ? undefined : freeCellsAround(center).slice(0, size);
  }

  #scanFrom(start: number, accept: (cell: number) => boolean): number | undefined {
    for (let i = 0; i < this.torus.cells; i++) {
      const cell = (start + i) % this.torus.cells;
      if (accept(cell)) return cell;
    }
    return undefined;
  }
}
