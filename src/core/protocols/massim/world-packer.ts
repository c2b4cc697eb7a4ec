/**
 * World snapshots of an emulated MASSim session, kept compactly in a transcript store: one per step, each
 * about 30-50 KB as JSON on contest maps, mostly the same as the step before. Agents (which change every
 * step) are kept as columns of small integers; every other part (obstacles, blocks, zones, markers, tasks,
 * norms, events...) is kept once per distinct value, as a phrase of its JSON text that later snapshots refer
 * to: the keyframe of that part, with unchanged steps as empty deltas. The obstacle list, which the
 * scenario shares between snapshots until it changes, is recognised by reference without being written;
 * when it changes (a clear event), only the cells added and removed are kept, with the whole list as a
 * keyframe every few changes.
 * Unpacking any step is direct (no replay of earlier steps) and gives data equal to what was packed.
 */
import type { MassimEntitySnapshot, MassimWorldSnapshot } from '../../envs/massim/api';
import type { Annotation } from '../../transcript/model';
import { readVarint, VarintWriter } from '../../transcript/store/columns';
import { PhraseBook } from '../../transcript/store/phrases';
import type { AnnotationPacker } from '../../transcript/store/store';
import type { MassimWorldAnnotation } from './host';

/** The parts of a snapshot kept as phrases of their JSON text, in snapshot key order after `entities`. */
const PHRASED_AFTER_ENTITIES = [
  'attachments',
  'clearAreas',
  'markers',
  'scores',
  'tasks',
  'norms',
  'violations',
  'events',
] as const;
const PHRASED_BEFORE_ENTITIES = ['blocks', 'dispensers', 'goalZones', 'roleZones'] as const;

/** Integers per agent: x, y, energy, vision, deactivated, then phrases of role, action, params, result. */
const ENTITY_FIELDS = 9;

/** Packs `world` annotations of kind `snapshot`; everything else is left to the store. */
export class MassimWorldPacker implements AnnotationPacker {
  /**
   * Texts of the parts, apart from the transcript's own phrases: those are sent to policy workers as they
   * grow, and snapshots are nobody's wire text.
   */
  readonly #book = new PhraseBook();
  /** Start of each packed snapshot in `#log`. */
  readonly #starts: number[] = [];
  readonly #log = new VarintWriter();
  readonly #obstacleSets: ObstacleSet[] = [];
  #lastObstacles: readonly number[] | undefined;
  #lastKeyframe = -1;
  /** The obstacle list last unpacked per set, so consecutive unpacked snapshots share it as packed ones did. */
  readonly #unpackedObstacles = new Map<number, number[]>();

  pack(type: Annotation['type'], data: unknown): number | undefined {
    if (type !== 'world') return undefined;
    const annotation = data as MassimWorldAnnotation;
    if (annotation.kind !== 'snapshot' || !isIntegral(annotation.simulation)) return undefined;
    const world = annotation.world;
    if (!isSnapshot(world)) return undefined;
    const entities = packEntities(world.entities, this.#book);
    const knownObstacles = world.obstacles === this.#lastObstacles;
    if (!entities || !isIntegral(world.step) || !(knownObstacles || isIntegerList(world.obstacles)))
      return undefined;
    const book = this.#book;
    const log = this.#log;
    this.#starts.push(log.length);
    log.write(zigzag(annotation.simulation));
    log.write(zigzag(world.step));
    log.write(this.#obstacleSet(world.obstacles));
    for (const key of PHRASED_BEFORE_ENTITIES) log.write(book.intern(JSON.stringify(world[key])));
    log.write(entities.roster);
    log.write(entities.values.length);
    for (const value of entities.values) log.write(zigzag(value));
    for (const key of PHRASED_AFTER_ENTITIES) log.write(book.intern(JSON.stringify(world[key])));
    return this.#starts.length - 1;
  }

  unpack(packed: number): MassimWorldAnnotation {
    const book = this.#book;
    const log = this.#log.view();
    const cursor = { position: this.#starts[packed]! };
    const next = () => readVarint(log, cursor);
    const phrase = () => JSON.parse(book.text(next())) as unknown;
    const simulation = unzigzag(next());
    const step = unzigzag(next());
    const obstacles = this.#unpackObstacles(next());
    const [blocks, dispensers, goalZones, roleZones] = PHRASED_BEFORE_ENTITIES.map(phrase);
    const roster = JSON.parse(book.text(next())) as [string, string][];
    const values: number[] = [];
    for (let count = next(); count > 0; count--) values.push(unzigzag(next()));
    const entities = roster.map(([name, team], i): MassimEntitySnapshot => {
      const at = i * ENTITY_FIELDS;
      return {
        name,
        team,
        x: values[at]!,
        y: values[at + 1]!,
        role: book.text(values[at + 5]!),
        energy: values[at + 2]!,
        deactivated: values[at + 4] === 1,
        vision: values[at + 3]!,
        action: book.text(values[at + 6]!),
        actionParams: JSON.parse(book.text(values[at + 7]!)) as string[],
        actionResult: book.text(values[at + 8]!),
      };
    });
    const [attachments, clearAreas, markers, scores, tasks, norms, violations, events] =
      PHRASED_AFTER_ENTITIES.map(phrase);
    // Keys in the order the scenario's snapshot has them.
    const world = {
      step,
      obstacles,
      blocks,
      dispensers,
      goalZones,
      roleZones,
      entities,
      attachments,
      clearAreas,
      markers,
      scores,
      tasks,
      norms,
      violations,
      events,
    } as MassimWorldSnapshot;
    return { kind: 'snapshot', simulation, world };
  }

  get byteLength(): number {
    return (
      this.#log.byteLength +
      this.#starts.length * 8 +
      this.#book.characters * 2 +
      this.#obstacleSets.reduce(
        (total, set) =>
          total + ('cells' in set ? set.cells.byteLength : set.added.byteLength + set.removed.byteLength),
        0,
      )
    );
  }

  /** The number of an obstacle list: the same as the last one's while the scenario shares the list. */
  #obstacleSet(obstacles: readonly number[]): number {
    const previous = this.#lastObstacles;
    if (obstacles !== previous) {
      this.#lastObstacles = obstacles;
      const sets = this.#obstacleSets;
      const sinceKeyframe = sets.length - 1 - this.#lastKeyframe;
      const delta =
        previous && sinceKeyframe < KEYFRAME_EVERY && isAscending(previous) && isAscending(obstacles);
      if (!delta) {
        this.#lastKeyframe = sets.length;
        sets.push({ cells: Int32Array.from(obstacles) });
      } else sets.push(difference(previous!, obstacles));
    }
    return this.#obstacleSets.length - 1;
  }

  #unpackObstacles(set: number): number[] {
    let list = this.#unpackedObstacles.get(set);
    if (!list) {
      let keyframe = set;
      while (!('cells' in this.#obstacleSets[keyframe]!)) keyframe--;
      list = Array.from((this.#obstacleSets[keyframe] as { cells: Int32Array }).cells);
      for (let next = keyframe + 1; next <= set; next++)
        list = applyDifference(list, this.#obstacleSets[next] as ObstacleDifference);
      // Keep only the latest few, so scrubbing far and wide does not hold every list.
      if (this.#unpackedObstacles.size >= 4) this.#unpackedObstacles.clear();
      this.#unpackedObstacles.set(set, list);
    }
    return list;
  }
}

/** A list of obstacle cells: whole (a keyframe), or what changed since the list before. */
type ObstacleSet = { cells: Int32Array } | ObstacleDifference;

/** Cells added to and removed from the list before, both ascending. */
interface ObstacleDifference {
  added: Int32Array;
  removed: Int32Array;
}

/** Obstacle lists kept whole at least this often (changes between keyframes). */
const KEYFRAME_EVERY = 16;

function isAscending(cells: readonly number[]): boolean {
  for (let i = 1; i < cells.length; i++) if (cells[i]! <= cells[i - 1]!) return false;
  return true;
}

/** What changed from one ascending list to the next (both walked once, side by side). */
function difference(before: readonly number[], after: readonly number[]): ObstacleDifference {
  const added: number[] = [];
  const removed: number[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const b = before[i];
    const a = after[j];
    if (a === undefined || (b !== undefined && b < a)) {
      removed.push(b!);
      i++;
    } else if (b === undefined || a < b) {
      added.push(a);
      j++;
    } else {
      i++;
      j++;
    }
  }
  return { added: Int32Array.from(added), removed: Int32Array.from(removed) };
}

function applyDifference(before: readonly number[], { added, removed }: ObstacleDifference): number[] {
  const after: number[] = [];
  let r = 0;
  let a = 0;
  for (const cell of before) {
    while (a < added.length && added[a]! < cell) after.push(added[a++]!);
    if (r < removed.length && removed[r] === cell) r++;
    else after.push(cell);
  }
  while (a < added.length) after.push(added[a++]!);
  return after;
}

/** Agents as integers (strings as phrases), or undefined when some value does not fit (then not packed). */
function packEntities(
  entities: readonly MassimEntitySnapshot[],
  book: PhraseBook,
): { roster: number; values: number[] } | undefined {
  const values: number[] = [];
  for (const entity of entities) {
    const numbers = [entity.x, entity.y, entity.energy, entity.vision];
    const strings = [entity.name, entity.team, entity.role, entity.action, entity.actionResult];
    if (
      !numbers.every(isIntegral) ||
      typeof entity.deactivated !== 'boolean' ||
      !strings.every((value) => typeof value === 'string') ||
      !Array.isArray(entity.actionParams)
    )
      return undefined;
    values.push(
      ...numbers,
      entity.deactivated ? 1 : 0,
      book.intern(entity.role),
      book.intern(entity.action),
      book.intern(JSON.stringify(entity.actionParams)),
      book.intern(entity.actionResult),
    );
  }
  const roster = book.intern(JSON.stringify(entities.map((entity) => [entity.name, entity.team])));
  return { roster, values };
}

/** Whether every part a snapshot has is there (the store keeps anything else as it is). */
function isSnapshot(world: MassimWorldSnapshot | undefined): boolean {
  return (
    typeof world === 'object' &&
    world !== null &&
    Array.isArray(world.entities) &&
    Array.isArray(world.obstacles) &&
    [...PHRASED_BEFORE_ENTITIES, ...PHRASED_AFTER_ENTITIES].every((key) => world[key] !== undefined)
  );
}

function isIntegral(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) < 2 ** 30;
}

function isIntegerList(values: readonly unknown[]): boolean {
  return Array.isArray(values) && values.every(isIntegral);
}

/** Signed to unsigned, small magnitudes staying small (0, -1, 1, -2 → 0, 1, 2, 3). */
function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

function unzigzag(value: number): number {
  return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
}
