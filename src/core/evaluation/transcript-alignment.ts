/**
 * Two transcripts of the same seed, one per policy, lined up for reading side by side: row by row, the
 * messages that belong to the same place of the session (round and turn as the protocol's reader reads
 * them, then connection, agent and direction), and the rows where the policies' sides sent something
 * different: the divergent actions. It names no protocol: everything it knows comes from the reader's
 * summaries and the direction the policy's messages travel (`ProtocolEvaluation.policyDirection`: the
 * client's for rddlsim, MASSim and aisys, the server's for GAMA, whose simulation is the client), so an
 * rddlsim session, a MASSim match, an aisys session and GAMA episodes line up the same way.
 *
 * Only what the policy's side sent is compared. What the other side sent follows from the seed and the
 * actions, and may carry clocks (time left, deadlines) that differ between two runs without meaning much.
 */
import type { MessageSummary } from '../protocols/reading';
import type { Direction, TranscriptMessage } from '../transcript/model';

/** One side: the reader's summaries of a transcript and the transcript's messages (by index). */
export interface AlignmentSide {
  summaries: readonly MessageSummary[];
  messages: readonly TranscriptMessage[];
}

/** One row of the side-by-side view. */
export interface AlignedRow {
  /** Position in the first side's summaries; absent when that side has nothing here. */
  a?: number;
  /** Position in the second side's summaries. */
  b?: number;
  /** The policies' sides sent different things here (or only one of them sent anything): a divergent action. */
  differs: boolean;
}

/** Both transcripts lined up. */
export interface TranscriptAlignment {
  rows: AlignedRow[];
  /** Positions (in `rows`) of the rows that differ, in order; the first is where the two part. */
  differences: number[];
}

/** Where a message belongs: its round and turn (empty when outside them). */
function placeOf(m: MessageSummary): string {
  return `${m.round ?? ''}/${m.turn ?? ''}`;
}

/** Who said it: connection, agent and direction. */
function speakerOf(m: MessageSummary): string {
  return `${m.conn}|${m.channel ?? ''}|${m.dir}`;
}

/** Makes keys unique by counting earlier occurrences: `k#0`, `k#1`... */
function numbered(keys: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return keys.map((key) => {
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return `${key}#${n}`;
  });
}

/**
 * Pairs two lists of unique keys, keeping the order of both: equal keys share a row; a key the other list
 * has further on is shown alone until the other catches up; two keys neither list has elsewhere share a
 * row (they stand at the same place). Linear in the lengths.
 */
export function mergeByKey(
  a: readonly string[],
  b: readonly string[],
): [number | undefined, number | undefined][] {
  const inA = new Map(a.map((key, i) => [key, i]));
  const inB = new Map(b.map((key, j) => [key, j]));
  const pairs: [number | undefined, number | undefined][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ka = a[i]!;
    const kb = b[j]!;
    if (ka === kb) pairs.push([i++, j++]);
    else if ((inA.get(kb) ?? -1) > i) pairs.push([i++, undefined]);
    else if ((inB.get(ka) ?? -1) > j) pairs.push([undefined, j++]);
    else pairs.push([i++, j++]);
  }
  while (i < a.length) pairs.push([i++, undefined]);
  while (j < b.length) pairs.push([undefined, j++]);
  return pairs;
}

/** Runs of consecutive summaries at the same place: [start, end) positions. */
function blocksOf(summaries: readonly MessageSummary[]): { start: number; end: number; place: string }[] {
  const blocks: { start: number; end: number; place: string }[] = [];
  for (let k = 0; k < summaries.length; k++) {
    const place = placeOf(summaries[k]!);
    const last = blocks.at(-1);
    if (last && last.place === place) last.end = k + 1;
    else blocks.push({ start: k, end: k + 1, place });
  }
  return blocks;
}

function sameMessage(x: TranscriptMessage | undefined, y: TranscriptMessage | undefined): boolean {
  return (
    x !== undefined &&
    y !== undefined &&
    x.kind === y.kind &&
    x.text === y.text &&
    x.base64 === y.base64 &&
    (x.http?.method ?? '') === (y.http?.method ?? '') &&
    (x.http?.path ?? '') === (y.http?.path ?? '')
  );
}

/**
 * Lines up two transcripts of the same seed and finds where the messages of the policies' side (those
 * travelling in `policyDirection`) differ.
 */
export function alignTranscripts(
  a: AlignmentSide,
  b: AlignmentSide,
  policyDirection: Direction = 'c2s',
): TranscriptAlignment {
  const blocksA = blocksOf(a.summaries);
  const blocksB = blocksOf(b.summaries);
  const rows: AlignedRow[] = [];
  const differences: number[] = [];
  const push = (pa: number | undefined, pb: number | undefined) => {
    const sa = pa === undefined ? undefined : a.summaries[pa];
    const sb = pb === undefined ? undefined : b.summaries[pb];
    const fromPolicy = sa?.dir === policyDirection || sb?.dir === policyDirection;
    const differs =
      fromPolicy &&
      !sameMessage(sa ? a.messages[sa.index] : undefined, sb ? b.messages[sb.index] : undefined);
    if (differs) differences.push(rows.length);
    rows.push({ ...(pa !== undefined ? { a: pa } : {}), ...(pb !== undefined ? { b: pb } : {}), differs });
  };
  const blockPairs = mergeByKey(
    numbered(blocksA.map((block) => block.place)),
    numbered(blocksB.map((block) => block.place)),
  );
  for (const [x, y] of blockPairs) {
    const blockA = x === undefined ? undefined : blocksA[x];
    const blockB = y === undefined ? undefined : blocksB[y];
    const keys = (side: AlignmentSide, block: typeof blockA) =>
      block ? numbered(side.summaries.slice(block.start, block.end).map(speakerOf)) : [];
    for (const [pa, pb] of mergeByKey(keys(a, blockA), keys(b, blockB)))
      push(
        pa === undefined ? undefined : blockA!.start + pa,
        pb === undefined ? undefined : blockB!.start + pb,
      );
  }
  return { rows, differences };
}

/** The difference after (`+1`) or before (`-1`) a row, or undefined when there is none that way. */
export function nextDifference(
  differences: readonly number[],
  row: number | undefined,
  direction: 1 | -1,
): number | undefined {
  if (differences.length === 0) return undefined;
  if (row === undefined) return direction > 0 ? differences[0] : differences.at(-1);
  // Binary search: the first difference after `row`.
  let low = 0;
  let high = differences.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (differences[mid]! <= row) low = mid + 1;
    else high = mid;
  }
  if (direction > 0) return differences[low];
  let k = low - 1;
  if (k >= 0 && differences[k] === row) k--;
  return k >= 0 ? differences[k] : undefined;
}
