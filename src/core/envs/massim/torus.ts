/**
 * Geometry of the MASSim grid: a torus of `width x height` cells, numbered `y * width + x`. Distances and
 * relative positions follow the real server's arithmetic exactly, including its treatment of the half-way
 * point on even-sized grids, because agents see the results (percept coordinates, survey distances).
 */

/** The four move and attach directions. */
export type Direction = 'n' | 's' | 'e' | 'w';

/** True for the strings the scenario accepts as a direction. */
export function isDirection(value: string | undefined): value is Direction {
  return value === 'n' || value === 's' || value === 'e' || value === 'w';
}

/** One cell of a Manhattan diamond: its offset from the centre. */
export interface DiamondOffset {
  dx: number;
  dy: number;
}

export class Torus {
  readonly width: number;
  readonly height: number;
  readonly cells: number;
  readonly #diamonds = new Map<number, readonly DiamondOffset[]>();

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.cells = width * height;
  }

  /** The cell at (x, y), wrapping any integer coordinates onto the grid. */
  cellAt(x: number, y: number): number {
    const w = this.width;
    const h = this.height;
    return (((y % h) + h) % h) * w + (((x % w) + w) % w);
  }

  x(cell: number): number {
    return cell % this.width;
  }

  y(cell: number): number {
    return (cell / this.width) | 0;
  }

  /** The cell reached from `cell` by an offset. */
  offset(cell: number, dx: number, dy: number): number {
    return this.cellAt(this.x(cell) + dx, this.y(cell) + dy);
  }

  /** The neighbour of `cell` in a direction. */
  neighbour(cell: number, direction: Direction): number {
    switch (direction) {
      case 'n':
        return this.offset(cell, 0, -1);
      case 's':
        return this.offset(cell, 0, 1);
      case 'e':
        return this.offset(cell, 1, 0);
      case 'w':
        return this.offset(cell, -1, 0);
    }
  }

  /** Manhattan distance the short way round each axis. */
  distance(a: number, b: number): number {
    let dx = Math.abs(this.x(a) - this.x(b));
    if (dx > this.width / 2) dx = this.width - dx;
    let dy = Math.abs(this.y(a) - this.y(b));
    if (dy > this.height / 2) dy = this.height - dy;
    return dx + dy;
  }

  /** The x offset of `x` seen from `originX`, in [-width/2, width/2] (both ends possible on even widths). */
  relativeX(x: number, originX: number): number {
    let dx = x - originX;
    if (dx < -this.width / 2) dx += this.width;
    else if (dx > this.width / 2) dx -= this.width;
    return dx;
  }

  relativeY(y: number, originY: number): number {
    let dy = y - originY;
    if (dy < -this.height / 2) dy += this.height;
    else if (dy > this.height / 2) dy -= this.height;
    return dy;
  }

  /** Where `cell` is as seen from `origin`. */
  relative(cell: number, origin: number): [number, number] {
    return [this.relativeX(this.x(cell), this.x(origin)), this.relativeY(this.y(cell), this.y(origin))];
  }

  /**
   * The offsets of a Manhattan diamond of `radius`, column by column from west to east and north to south
   * within a column. On grids smaller than the diamond the same cell appears more than once, as it does for
   * the real server (an agent then perceives such a cell twice).
   */
  diamond(radius: number): readonly DiamondOffset[] {
    let offsets = this.#diamonds.get(radius);
    if (!offsets) {
      const list: DiamondOffset[] = [];
      for (let dx = 0 - radius; dx <= radius; dx++) {
        const reach = radius - Math.abs(dx);
        // `0 - r` rather than `-r`: no -0 offsets, which would reach percepts.
        for (let dy = 0 - reach; dy <= reach; dy++) list.push({ dx, dy });
      }
      offsets = list;
      this.#diamonds.set(radius, offsets);
    }
    return offsets;
  }

  /** The cells of a diamond around `center`, duplicates included (see `diamond`). */
  diamondCells(center: number, radius: number): number[] {
    const cx = this.x(center);
    const cy = this.y(center);
    return this.diamond(radius).map(({ dx, dy }) => this.cellAt(cx + dx, cy + dy));
  }

  /** `cell` turned by 90 degrees around `center`, through their relative position. */
  rotated(cell: number, center: number, clockwise: boolean): number {
    const [dx, dy] = this.relative(cell, center);
    return clockwise ? this.offset(center, -dy, dx) : this.offset(center, dy, -dx);
  }
}
