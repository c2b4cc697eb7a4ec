import { describe, expect, it } from 'vitest';
import type { MessageSummary } from '../../src/core/protocols/reading';
import {
  MIN_PER_PX,
  SequenceLanes,
  binView,
  clampView,
  fitView,
  hitTest,
  moveSelection,
  panView,
  positionX,
  revealPosition,
  sequenceMarkers,
  visibleMarkers,
  visibleRange,
  zoomView,
} from '../../src/ui/sequence-layout';

/** Log rows: `conn[/channel]:dir` per message. */
function rows(...specs: string[]): MessageSummary[] {
  return specs.map((spec, index) => {
    const [where, dir] = spec.split(':') as [string, 'c2s' | 's2c'];
    const [conn, channel] = where.split('/') as [string, string | undefined];
    return {
      index,
      conn,
      ...(channel ? { channel } : {}),
      dir,
      t: index,
      type: 'm',
      gist: '',
    };
  });
}

/** `count` rows over `lanes` connections, taking turns. */
function many(count: number, lanes: number): MessageSummary[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    conn: `c${index % lanes}`,
    dir: index % 2 ? 's2c' : 'c2s',
    t: index,
    type: 'm',
    gist: '',
  }));
}

describe('lanes', () => {
  it('gives one lane per connection, and one per agent on a shared connection, in order of appearance', () => {
    const lanes = new SequenceLanes();
    lanes.update(rows('b:c2s', 'a:s2c', 'b:s2c', 'ws/Scav. 1:s2c', 'ws/Scav. 2:c2s', 'ws/Scav. 1:c2s'));
    expect(lanes.lanes.map((l) => l.label)).toEqual(['b', 'a', 'ws · Scav. 1', 'ws · Scav. 2']);
    expect(lanes.lanes.map((l) => l.positions)).toEqual([[0, 2], [1], [3, 5], [4]]);
    expect([...lanes.laneOf.subarray(0, 6)]).toEqual([0, 1, 0, 2, 3, 2]);
  });

  it('reads only the new rows as a session grows, and starts over for another transcript', () => {
    const lanes = new SequenceLanes();
    const first = rows('a:c2s', 'b:c2s');
    expect(lanes.update(first)).toBe(true);
    expect(lanes.update(first.slice())).toBe(false);
    // The rows laid out already are not read again (a row changed behind its back stays in its lane).
    const grown = [first[0]!, { ...first[1]!, conn: 'changed' }, rows('a:c2s', 'b:c2s', 'c:s2c')[2]!];
    expect(lanes.update(grown)).toBe(true);
    expect(lanes.lanes.map((l) => l.conn)).toEqual(['a', 'b', 'c']);
    expect(lanes.count).toBe(3);
    // Another transcript: another first row.
    lanes.update(rows('z:c2s'));
    expect(lanes.lanes.map((l) => l.conn)).toEqual(['z']);
    expect(lanes.count).toBe(1);
  });

  it('lays out 100,000 messages with every position in exactly one lane', () => {
    const lanes = new SequenceLanes();
    const messages = many(100_000, 7);
    lanes.update(messages.slice(0, 30_000));
    lanes.update(messages);
    expect(lanes.lanes).toHaveLength(7);
    expect(lanes.lanes.reduce((n, lane) => n + lane.positions.length, 0)).toBe(100_000);
    expect(lanes.laneOf[99_999]).toBe(99_999 % 7);
  });
});

describe('views', () => {
  it('fits every message, and never zooms out past that or pans off the ends', () => {
    expect(fitView(1000, 500)).toEqual({ start: 0, perPx: 2 });
    expect(clampView({ start: -50, perPx: 10 }, 1000, 500)).toEqual({ start: 0, perPx: 2 });
    expect(clampView({ start: 990, perPx: 1 }, 1000, 500)).toEqual({ start: 500, perPx: 1 });
    // A few messages are never drawn wider than the widest mark.
    expect(fitView(3, 500).perPx).toBe(MIN_PER_PX);
  });

  it('zooms around the pixel asked, and pans by pixels', () => {
    const view = { start: 100, perPx: 1 };
    const zoomed = zoomView(view, 2, 200, 10_000, 400);
    expect(zoomed.perPx).toBe(0.5);
    // The message under pixel 200 stays under it.
    expect(zoomed.start + 200 * zoomed.perPx).toBe(view.start + 200 * view.perPx);
    expect(panView(zoomed, 40, 10_000, 400).start).toBe(zoomed.start + 20);
  });

  it('reveals a position out of view by centring it, and leaves one in view alone', () => {
    const view = { start: 0, perPx: 1 };
    expect(revealPosition(view, 100, 10_000, 400)).toBe(view);
    const moved = revealPosition(view, 5_000, 10_000, 400);
    expect(positionX(moved, 5_000)).toBeCloseTo(200, 5);
  });

  it('shows only the positions inside the view', () => {
    expect(visibleRange({ start: 10.5, perPx: 0.5 }, 1000, 100)).toEqual({ from: 10, to: 61 });
    expect(visibleRange({ start: 0, perPx: 1 }, 30, 100)).toEqual({ from: 0, to: 30 });
  });
});

describe('bins', () => {
  it('counts messages per lane, pixel column and direction, reading only what is in view', () => {
    const lanes = new SequenceLanes();
    const messages = many(100_000, 2);
    lanes.update(messages);
    // 1,000 messages in view over 100 px: 10 per column, 5 per lane (each lane one direction here).
    // What the view's positions are read from: each read is counted.
    let read = 0;
    const laneOf = new Proxy(lanes.laneOf, {
      get: (target, key) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) read++;
        return Reflect.get(target, key) as unknown;
      },
    });
    const bins = binView({ start: 50_000, perPx: 10 }, 100, laneOf, 2, lanes.fromClient, messages.length);
    expect(read).toBe(1000);
    expect(bins.max).toBe(5);
    expect(bins.c2s[0 * 100 + 3]).toBe(5);
    expect(bins.s2c[1 * 100 + 3]).toBe(5);
    expect(bins.s2c[0 * 100 + 3]).toBe(0);
    const total = [...bins.c2s, ...bins.s2c].reduce((a, b) => a + b, 0);
    expect(total).toBe(1000);
  });
});

describe('picking and moving', () => {
  const lanes = new SequenceLanes();
  lanes.update(rows('a:c2s', 'b:c2s', 'a:s2c', 'c:s2c', 'b:s2c', 'a:c2s'));
  const view = { start: 0, perPx: 0.1 }; // 10 px per message

  it('hits the nearest mark of the lane under the point, and nothing far from one', () => {
    expect(hitTest(view, lanes.lanes, 0, positionX(view, 2) + 2)).toBe(2);
    expect(hitTest(view, lanes.lanes, 1, positionX(view, 4) - 3)).toBe(4);
    // Lane c has only message 3: a point 20 px off is no hit.
    expect(hitTest(view, lanes.lanes, 2, positionX(view, 1))).toBeUndefined();
    expect(hitTest(view, lanes.lanes, 7, 5)).toBeUndefined();
  });

  it('moves along the transcript and to the nearest message of the lane above or below', () => {
    const move = (m: Parameters<typeof moveSelection>[0], from: number | undefined) =>
      moveSelection(m, from, 6, lanes.lanes, lanes.laneOf);
    expect(move('next', 2)).toBe(3);
    expect(move('previous', 0)).toBeUndefined();
    expect(move('next', 5)).toBeUndefined();
    expect(move('first', 4)).toBe(0);
    expect(move('last', 0)).toBe(5);
    expect(move('next', undefined)).toBe(5);
    // From a's message 2 down to b (nearest: 1 or 4; 1 is as near and earlier), then to c's 3.
    expect(move('lane-down', 2)).toBe(1);
    expect(move('lane-down', 4)).toBe(3);
    expect(move('lane-up', 3)).toBe(4);
    expect(move('lane-up', 0)).toBeUndefined();
    expect(move('lane-down', 3)).toBeUndefined();
  });
});

describe('markers', () => {
  it('marks broken rules, errors and round ends in order, not policy logs or notes', () => {
    const markers = sequenceMarkers(
      [
        { index: 9, kind: 'violation', text: 'late' },
        { index: 2, kind: 'policy-log', text: 'hi' },
        { index: 4, kind: 'error', text: 'policy timed out' },
        { index: 5, kind: 'note', text: 'a real server would…' },
      ],
      [
        { round: 1, total: 3, stepRewards: [], endIndex: 6 },
        { round: 2, stepRewards: [] },
      ],
    );
    expect(markers.map((m) => [m.position, m.kind])).toEqual([
      [4, 'error'],
      [6, 'round-end'],
      [9, 'violation'],
    ]);
    expect(markers[1]!.text).toBe('round 1 ends, total 3');
  });

  it('draws at most one marker per pixel column and kind', () => {
    const markers = Array.from({ length: 50_000 }, (_, i) => ({
      position: i * 2,
      kind: 'violation' as const,
      text: '',
    }));
    const shown = visibleMarkers(markers, { start: 0, perPx: 1000 }, 100);
    expect(shown.length).toBeLessThanOrEqual(101);
    expect(shown.length).toBeGreaterThan(90);
    const zoomed = visibleMarkers(markers, { start: 1000, perPx: 0.5 }, 100);
    expect(zoomed.map((s) => s.marker.position)).toEqual(Array.from({ length: 25 }, (_, i) => 1000 + i * 2));
  });
});
