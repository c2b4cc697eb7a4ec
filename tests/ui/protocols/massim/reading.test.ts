import { describe, expect, it } from 'vitest';
import type { MassimFrame, MassimNews } from '../../../../src/core/protocols/massim/reading';
import { MassimReading } from '../../../../src/ui/protocols/massim/reading.svelte';

const NO_ROWS = { from: 0, conn: [], dir: [], t: [], type: [], frame: [], gist: [], unreadable: [] };

function frame(step: number, world: boolean): MassimFrame {
  return { simulation: 0, step, index: step * 10, scores: { A: step }, world };
}

/** News of frames `from` on, worlds at the steps listed. */
function news(from: number, count: number, worlds: number[] = []): MassimNews {
  const frames = Array.from({ length: count }, (_, i) => frame(from + i, worlds.includes(from + i)));
  return {
    rows: NO_ROWS,
    framesFrom: from,
    frames,
    results: frames.map(() => []),
    stops: [],
    resumed: [],
    notes: [],
  };
}

/** The newest frame with a world, searched for the slow way. */
function searched(reading: MassimReading): number {
  return reading.frames.findLastIndex((f) => f.world);
}

describe('the MASSim views’ reading', () => {
  it('follows the newest frame with a world as frames arrive, are re-sent or replaced', () => {
    const reading = new MassimReading();
    expect(reading.newestWorld).toBe(-1);
    const steps: [MassimNews, number][] = [
      [news(0, 5), -1],
      [news(5, 5, [6, 8]), 8],
      [news(10, 5), 8],
      // The last frames re-sent, now with a world.
      [news(12, 4, [13]), 13],
      // Re-sent from before the newest world, which is gone.
      [news(11, 2), 8],
      [news(3, 1), -1],
      [news(4, 3, [4, 5, 6]), 6],
    ];
    for (const [arrived, newest] of steps) {
      reading.apply(arrived);
      expect(reading.newestWorld).toBe(newest);
      expect(reading.newestWorld).toBe(searched(reading));
    }
  });
});
