/**
 * The world of every cycle of the episodes a playground session played, kept in the session worker for
 * the world view: never on the wire, so neither in the transcript nor in an imported recording. A snapshot
 * is about 1.5 KB on the largest scenario, so a 1000-cycle episode keeps about 1.5 MB; only the latest
 * episodes are kept.
 */
import { FACING_DX, FACING_DY } from '../../../envs/scavenger/actions';
import type { ScavengerWorldSnapshot } from '../../../envs/scavenger';
import type { GamaBeam, GamaWorldView } from './options';

/** How many episodes' worlds are kept (the latest). */
const KEPT_EPISODES = 20;
/** The beam, as the world fires it: 21 cells long, 2 to each side; quirky east and south beams start 20 ahead. */
const BEAM_LENGTH = 21;
const BEAM_HALF_WIDTH = 2;

/** Where a beam fired from a cell and facing reaches, clipped to the map; undefined when wholly outside. */
export function beamRectangle(
  shooter: { id: string; x: number; y: number; facing: number },
  width: number,
  height: number,
  faithfulQuirks: boolean,
): GamaBeam | undefined {
  const forwardX = FACING_DX[shooter.facing] ?? 0;
  const forwardY = FACING_DY[shooter.facing] ?? -1;
  const start = faithfulQuirks && (shooter.facing === 1 || shooter.facing === 2) ? BEAM_LENGTH - 1 : 0;
  const end = start + BEAM_LENGTH - 1;
  const acrossX = forwardX === 0 ? 1 : 0;
  const acrossY = forwardX === 0 ? 0 : 1;
  const xs = [start, end].flatMap((ahead) =>
    [-BEAM_HALF_WIDTH, BEAM_HALF_WIDTH].map((side) => shooter.x + ahead * forwardX + side * acrossX),
  );
  const ys = [start, end].flatMap((ahead) =>
    [-BEAM_HALF_WIDTH, BEAM_HALF_WIDTH].map((side) => shooter.y + ahead * forwardY + side * acrossY),
  );
  const x0 = Math.max(0, Math.min(...xs));
  const x1 = Math.min(width - 1, Math.max(...xs));
  const y0 = Math.max(0, Math.min(...ys));
  const y1 = Math.min(height - 1, Math.max(...ys));
  if (x0 > x1 || y0 > y1) return undefined;
  return { shooter: shooter.id, x0, y0, x1, y1 };
}

/** One episode's worlds: index c is the world after cycle c (0: the start). */
interface EpisodeWorlds {
  worlds: ScavengerWorldSnapshot[];
  /** Who fired a beam in each cycle (index c: during cycle c, counted from 1). */
  shooters: string[][];
}

/** The worlds of a session's episodes. */
export class GamaWorldHistory {
  readonly #episodes = new Map<number, EpisodeWorlds>();

  constructor(
    readonly width: number,
    readonly height: number,
    readonly faithfulQuirks: boolean,
  ) {}

  /** Starts an episode with its first world. */
  begin(episode: number, start: ScavengerWorldSnapshot): void {
    this.#episodes.set(episode, { worlds: [start], shooters: [] });
    for (const old of this.#episodes.keys()) {
      if (this.#episodes.size <= KEPT_EPISODES) break;
      this.#episodes.delete(old);
    }
  }

  /** Notes a beam fired during the cycle being played (cycle `cycle`, counted from 1). */
  tag(episode: number, cycle: number, shooter: string): void {
    const worlds = this.#episodes.get(episode);
    if (worlds) (worlds.shooters[cycle] ??= []).push(shooter);
  }

  /** Keeps the world after a cycle. */
  cycleEnded(episode: number, world: ScavengerWorldSnapshot): void {
    this.#episodes.get(episode)?.worlds.push(world);
  }

  /** The world after a cycle (the last one kept when the cycle is beyond it), with that cycle's beams. */
  view(episode: number, cycle: number): GamaWorldView | undefined {
    const kept = this.#episodes.get(episode);
    if (!kept || !Number.isInteger(cycle) || cycle < 0) return undefined;
    const at = Math.min(cycle, kept.worlds.length - 1);
    const world = kept.worlds[at]!;
    const beams = (kept.shooters[at] ?? []).flatMap((id) => {
      // A scavenger acts once a cycle and a time-out does not move it: where it is now is where it fired.
      const shooter = world.scavengers.find((s) => s.id === id);
      const beam = shooter && beamRectangle(shooter, this.width, this.height, this.faithfulQuirks);
      return beam ? [beam] : [];
    });
    return { episode, width: this.width, height: this.height, world, beams };
  }
}
