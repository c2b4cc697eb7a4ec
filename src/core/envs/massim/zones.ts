/**
 * Goal or role zones: Manhattan diamonds keyed by their centre cell. Membership is a per-cell counter so
 * overlapping zones work, and so that adding a zone at a centre that already has one replaces the entry
 * but keeps counting both areas, which is what the real server does (agents can observe the leftover cells).
 */
import type { MassimZone } from './api';
import { javaHashOrder, javaPositionHash } from '../../java/hash-map-order';
import type { Torus } from './torus';

interface Zone {
  center: number;
  radius: number;
}

export class ZoneSet {
  readonly #torus: Torus;
  readonly #zones = new Map<number, Zone>();
  readonly #cover: Uint16Array;

  constructor(torus: Torus) {
    this.#torus = torus;
    this.#cover = new Uint16Array(torus.cells);
  }

  add(center: number, radius: number): void {
    this.#zones.set(center, { center, radius });
    for (const cell of this.#torus.diamondCells(center, radius)) this.#cover[cell]!++;
  }

  remove(center: number): void {
    const zone = this.#zones.get(center);
    if (!zone) return;
    this.#zones.delete(center);
    for (const cell of this.#torus.diamondCells(center, zone.radius)) this.#cover[cell]!--;
  }

  /** True when the cell belongs to some zone. */
  covers(cell: number): boolean {
    return this.#cover[cell]! > 0;
  }

  /** How many zones cover each cell (read-only; for walks over many cells, like a percept's). */
  coverage(): Readonly<Uint16Array> {
    return this.#cover;
  }

  /** True when a zone is centred on the cell. */
  hasCenter(cell: number): boolean {
    return this.#zones.has(cell);
  }

  get size(): number {
    return this.#zones.size;
  }

  /** Distance from `cell` to the nearest zone centre, or undefined without zones. */
  distanceToNearestCenter(cell: number): number | undefined {
    let best: number | undefined;
    for (const zone of this.#zones.values()) {
      const d = this.#torus.distance(zone.center, cell);
      if (best === undefined || d < best) best = d;
    }
    return best;
  }

  /**
   * The zone whose diamond contains `cell`; of overlapping zones the first in the real server's hash-map
   * order of zone centres, since agents see which one moves after a submission.
   */
  zoneAt(cell: number): { center: number; radius: number } | undefined {
    const torus = this.#torus;
    const containing = [...this.#zones.values()].filter(
      (zone) => torus.distance(zone.center, cell) <= zone.radius,
    );
    if (containing.length <= 1) return containing[0];
    const order = javaHashOrder([...this.#zones.keys()], (center) =>
      javaPositionHash(torus.x(center), torus.y(center)),
    );
    return order.map((center) => this.#zones.get(center)!).find((zone) => containing.includes(zone));
  }

  /** The zones in absolute coordinates, for the world view. */
  list(): MassimZone[] {
    return [...this.#zones.values()].map((zone) => ({
      x: this.#torus.x(zone.center),
      y: this.#torus.y(zone.center),
      radius: zone.radius,
    }));
  }
}
