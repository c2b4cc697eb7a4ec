/**
 * The sequence chart's layout, apart from drawing: which lane each message goes in (one per connection,
 * and per agent on a shared connection), which messages a view shows, how they are binned when more than
 * one falls on a pixel, which message a point hits, and where the arrow keys lead. It knows no protocol:
 * everything comes from the log rows every reader gives (`MessageSummary`).
 *
 * The x axis is the message's position in the transcript. A view is the position at its left edge and the
 * positions per pixel, so its cost follows its width, never the transcript's length.
 */
import type { MessageSummary, RoundSummary, SessionNote } from '../core/protocols/reading';

/** One lane: a connection, or one agent on a shared connection. */
export interface Lane {
  key: string;
  conn: string;
  channel?: string;
  /** What the lane's label says (`conn` or `conn · channel`). */
  label: string;
  /** Positions of the lane's messages in the transcript, increasing. */
  positions: number[];
}

/** The key of a message's lane. */
export function laneKey(message: Pick<MessageSummary, 'conn' | 'channel'>): string {
  return message.channel === undefined ? message.conn : `${message.conn}\u0000${message.channel}`;
}

/**
 * Lanes of a growing transcript, kept up as rows arrive: appending reads only the new rows, and a
 * different transcript (fewer rows, or another first row) starts over. Lanes come in order of first
 * appearance.
 */
export class SequenceLanes {
  readonly lanes: Lane[] = [];
  /** The lane of the message at each position. */
  laneOf = new Int32Array(1024);
  /** 1 where the message at a position was sent by the client (binning reads these, not the rows). */
  fromClient = new Uint8Array(1024);
  #byKey = new Map<string, number>();
  #first: MessageSummary | undefined;
  #count = 0;

  /** How many messages are laid out. */
  get count(): number {
    return this.#count;
  }

  /** Takes the rows as they are now; returns true when anything changed. */
  update(messages: readonly MessageSummary[]): boolean {
    if (messages.length < this.#count || (this.#count > 0 && messages[0] !== this.#first)) this.#clear();
    if (messages.length === this.#count) return false;
    if (this.laneOf.length < messages.length) {
      const grown = new Int32Array(Math.max(messages.length, this.laneOf.length * 2));
      grown.set(this.laneOf.subarray(0, this.#count));
      this.laneOf = grown;
      const dirs = new Uint8Array(grown.length);
      dirs.set(this.fromClient.subarray(0, this.#count));
      this.fromClient = dirs;
    }
    for (let position = this.#count; position < messages.length; position++) {
      const message = messages[position]!;
      const key = laneKey(message);
      let lane = this.#byKey.get(key);
      if (lane === undefined) {
        lane = this.lanes.length;
        this.#byKey.set(key, lane);
        this.lanes.push({
          key,
          conn: message.conn,
          ...(message.channel !== undefined ? { channel: message.channel } : {}),
          label: message.channel === undefined ? message.conn : `${message.conn} · ${message.channel}`,
          positions: [],
        });
      }
      this.laneOf[position] = lane;
      this.fromClient[position] = message.dir === 'c2s' ? 1 : 0;
      this.lanes[lane]!.positions.push(position);
    }
    this.#first = messages[0];
    this.#count = messages.length;
    return true;
  }

  #clear(): void {
    this.lanes.length = 0;
    this.#byKey.clear();
    this.#count = 0;
    this.#first = undefined;
  }
}

/** What part of the transcript a chart of a given width shows. */
export interface SequenceView {
  /** Position (fractional) at the left edge. */
  start: number;
  /** Positions per pixel: above 1 several messages share a pixel and are binned. */
  perPx: number;
}

/** Least positions per pixel: one message is at most this wide (zoomed in all the way). */
export const MIN_PER_PX = 1 / 24;

/** The view showing every message across `width` pixels. */
export function fitView(count: number, width: number): SequenceView {
  return { start: 0, perPx: Math.max(MIN_PER_PX, count / Math.max(1, width)) };
}

/** A view kept inside the transcript: never zoomed out past all of it, never panned off its ends. */
export function clampView(view: SequenceView, count: number, width: number): SequenceView {
  const w = Math.max(1, width);
  const perPx = Math.min(Math.max(view.perPx, MIN_PER_PX), Math.max(MIN_PER_PX, count / w));
  const span = perPx * w;
  const start = Math.min(Math.max(view.start, 0), Math.max(0, count - span));
  return { start, perPx };
}

/** Zooms by `factor` (above 1 zooms in) keeping the position under pixel `atPx` in place. */
export function zoomView(
  view: SequenceView,
  factor: number,
  atPx: number,
  count: number,
  width: number,
): SequenceView {
  const anchor = view.start + atPx * view.perPx;
  const perPx = view.perPx / factor;
  return clampView({ start: anchor - atPx * perPx, perPx }, count, width);
}

/** Pans by `px` pixels (positive shows later messages). */
export function panView(view: SequenceView, px: number, count: number, width: number): SequenceView {
  return clampView({ start: view.start + px * view.perPx, perPx: view.perPx }, count, width);
}

/** The view moved as little as needed to show `position` (with a margin), or the same view. */
export function revealPosition(
  view: SequenceView,
  position: number,
  count: number,
  width: number,
): SequenceView {
  const span = view.perPx * width;
  const margin = Math.min(span / 4, 8 * view.perPx + 0.5);
  if (position >= view.start + margin && position + 1 <= view.start + span - margin) return view;
  return clampView({ start: position + 0.5 - span / 2, perPx: view.perPx }, count, width);
}

/** The positions a view shows, `from` inclusive to `to` exclusive. */
export function visibleRange(view: SequenceView, count: number, width: number): { from: number; to: number } {
  const from = Math.max(0, Math.floor(view.start));
  const to = Math.min(count, Math.ceil(view.start + width * view.perPx));
  return { from, to: Math.max(from, to) };
}

/** The x pixel of a position's centre. */
export function positionX(view: SequenceView, position: number): number {
  return (position + 0.5 - view.start) / view.perPx;
}

/**
 * Messages per lane and pixel column, by direction, for a view where several share a pixel: the chart
 * draws one bar per non-empty cell. Reads only the visible positions.
 */
export interface SequenceBins {
  columns: number;
  lanes: number;
  /** `[lane * columns + column]`: messages sent by the client. */
  c2s: Uint32Array;
  /** Same for messages sent by the server (and connection events). */
  s2c: Uint32Array;
  /** The most messages in one cell, for shading. */
  max: number;
}

export function binView(
  view: SequenceView,
  width: number,
  laneOf: Int32Array,
  laneCount: number,
  fromClient: Uint8Array,
  count: number,
): SequenceBins {
  const columns = Math.max(1, Math.ceil(width));
  const c2s = new Uint32Array(columns * laneCount);
  const s2c = new Uint32Array(columns * laneCount);
  const { from, to } = visibleRange(view, count, width);
  let max = 0;
  for (let position = from; position < to; position++) {
    const column = Math.floor((position - view.start) / view.perPx);
    if (column < 0 || column >= columns) continue;
    const cell = laneOf[position]! * columns + column;
    const n = fromClient[position] ? ++c2s[cell]! : ++s2c[cell]!;
    if (n > max) max = n;
  }
  return { columns, lanes: laneCount, c2s, s2c, max };
}

/** First index in the increasing `sorted` whose value is at least `value`. */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The lane's message nearest `position`, or undefined for an empty lane. */
export function nearestInLane(lane: Lane, position: number): number | undefined {
  const { positions } = lane;
  if (positions.length === 0) return undefined;
  const at = lowerBound(positions, position);
  const after = positions[Math.min(at, positions.length - 1)]!;
  const before = positions[Math.max(0, at - 1)]!;
  return Math.abs(after - position) < Math.abs(position - before) ? after : before;
}

/**
 * The message a point hits: the nearest one of the lane at `laneIndex` within `tolerancePx` of pixel
 * `x`, or undefined.
 */
export function hitTest(
  view: SequenceView,
  lanes: readonly Lane[],
  laneIndex: number,
  x: number,
  tolerancePx = 6,
): number | undefined {
  const lane = lanes[laneIndex];
  if (!lane) return undefined;
  const position = view.start + x * view.perPx - 0.5;
  const nearest = nearestInLane(lane, position);
  if (nearest === undefined) return undefined;
  return Math.abs(positionX(view, nearest) - x) <= Math.max(tolerancePx, 0.5 / view.perPx)
    ? nearest
    : undefined;
}

/** Keys the chart answers to, as moves of the selection. */
export type SequenceMove = 'previous' | 'next' | 'lane-up' | 'lane-down' | 'first' | 'last';

/**
 * Where the selection goes from `position`: along the transcript (previous, next, first, last) or to the
 * nearest message of the lane above or below (skipping empty lanes). Undefined when it cannot move.
 */
export function moveSelection(
  move: SequenceMove,
  position: number | undefined,
  count: number,
  lanes: readonly Lane[],
  laneOf: Int32Array,
): number | undefined {
  if (count === 0) return undefined;
  if (move === 'first') return 0;
  if (move === 'last') return count - 1;
  if (position === undefined) return count - 1;
  if (move === 'previous') return position > 0 ? position - 1 : undefined;
  if (move === 'next') return position < count - 1 ? position + 1 : undefined;
  const step = move === 'lane-up' ? -1 : 1;
  for (let lane = laneOf[position]! + step; lane >= 0 && lane < lanes.length; lane += step) {
    const nearest = nearestInLane(lanes[lane]!, position);
    if (nearest !== undefined) return nearest;
  }
  return undefined;
}

/** A mark across every lane: a broken rule, an error (timeouts among them), a round's end. */
export interface SequenceMarker {
  position: number;
  kind: 'violation' | 'error' | 'round-end';
  text: string;
}

/** The markers of a transcript's notes and rounds, in position order. */
export function sequenceMarkers(
  notes: readonly SessionNote[],
  rounds: readonly RoundSummary[],
): SequenceMarker[] {
  const markers: SequenceMarker[] = [];
  for (const note of notes) {
    if (note.kind === 'violation' || note.kind === 'error')
      markers.push({ position: note.index, kind: note.kind, text: note.text });
  }
  for (const round of rounds) {
    if (round.endIndex !== undefined)
      markers.push({
        position: round.endIndex,
        kind: 'round-end',
        text: `round ${round.round} ends${round.total !== undefined ? `, total ${round.total}` : ''}`,
      });
  }
  return markers.sort((a, b) => a.position - b.position);
}

/**
 * The markers a view shows, at most one per pixel column and kind (the first), so thousands of violations
 * draw as a few hundred lines.
 */
export function visibleMarkers(
  markers: readonly SequenceMarker[],
  view: SequenceView,
  width: number,
): { x: number; marker: SequenceMarker }[] {
  let from = 0;
  let hi = markers.length;
  while (from < hi) {
    const mid = (from + hi) >>> 1;
    if (markers[mid]!.position < Math.floor(view.start)) from = mid + 1;
    else hi = mid;
  }
  const shown: { x: number; marker: SequenceMarker }[] = [];
  const taken = new Set<string>();
  for (let i = from; i < markers.length; i++) {
    const marker = markers[i]!;
    const x = positionX(view, marker.position);
    if (x > width) break;
    if (x < 0) continue;
    const key = `${Math.round(x)}:${marker.kind}`;
    if (taken.has(key)) continue;
    taken.add(key);
    shown.push({ x, marker });
  }
  return shown;
}
