/**
 * The request-action percept as JSON text, written straight from the world: exactly the characters
 * `JSON.stringify` makes of the percept object (`percepts.ts`), without building that object.
 *
 * A percept is mostly the same pieces over and over: each visible thing is one of a few kinds at one of the
 * vision diamond's offsets, and tasks, norms and key names are shared by every agent of a step. So the text
 * is written as phrases of a phrase book, each piece made once (by `JSON.stringify` itself, so escaping and
 * number forms cannot differ) and then reused by number: a percept costs about sixty integer writes. A
 * transcript store keeps those numbers as the message; anyone needing the text joins the phrases.
 */
import type { MassimPhraseBook, MassimPhraseOutput } from './api';
import type { StepShared } from './percepts';
import type { Entity } from './things';
import { THING_TYPES, type VisionScan } from './vision';
import type { World } from './world';

/** Numbers below this are cached as phrases in an array rather than looked up by their text. */
const CACHED_NUMBERS = 1024;

/** Writes percepts as phrases of one book; caches phrase numbers, so it must not change books. */
export class PerceptJsonWriter {
  readonly book: MassimPhraseBook;
  /** Largest vision radius the offset tables cover. */
  readonly #radius: number;
  readonly #side: number;
  /** Per thing type (by code) and details: phrase + 1 of each offset's element, without and with a comma. */
  readonly #thingRows: Map<string, Int32Array>[] = THING_TYPES.map(() => new Map());
  /** `[x,y]` elements of zone and attachment lists, per offset, without and with a comma. */
  readonly #pairRow: Int32Array;
  readonly #numbers = new Int32Array(CACHED_NUMBERS).fill(-1);
  readonly #stringPhrases = new Map<string, number>();
  /** Lists of one string (`["n"]`, a violated norm), the usual case, by that string. */
  readonly #singletons = new Map<string, number>();
  /** The last row looked up per thing type: most things in a view share their details (`""` obstacles). */
  readonly #lastDetails: (string | undefined)[] = THING_TYPES.map(() => undefined);
  readonly #lastRow: Int32Array[] = THING_TYPES.map(() => new Int32Array(0));
  readonly #roleKeys = new Map<string, number>();
  #step: { shared: StepShared; normsThings: number; tasksEvents: number } | undefined;

  readonly #open: number;
  readonly #emptyList: number;
  readonly #activeGoalZones: number;
  readonly #deactivatedGoalZones: number;
  readonly #roleZonesKey: number;
  readonly #scoreKey: number;
  readonly #lastActionKey: number;
  readonly #attachedKey: number;
  readonly #resultKey: number;
  readonly #energyKey: number;
  readonly #close: number;

  constructor(book: MassimPhraseBook, maxVision: number) {
    this.book = book;
    this.#radius = maxVision;
    this.#side = 2 * maxVision + 1;
    this.#pairRow = new Int32Array(this.#side * this.#side * 2);
    this.#open = book.intern('{"lastActionParams":');
    this.#emptyList = book.intern('[]');
    this.#activeGoalZones = book.intern(',"deactivated":false,"goalZones":[');
    this.#deactivatedGoalZones = book.intern(',"deactivated":true,"goalZones":[');
    this.#roleZonesKey = book.intern('],"roleZones":[');
    this.#scoreKey = book.intern('],"score":');
    this.#lastActionKey = book.intern(',"lastAction":');
    this.#attachedKey = book.intern('],"attached":[');
    this.#resultKey = book.intern('],"lastActionResult":');
    this.#energyKey = book.intern(',"energy":');
    this.#close = book.intern('}');
  }

  /** Writes the percept of `entity` for the step `shared` belongs to; `scan` is scratch space. */
  write(world: World, entity: Entity, shared: StepShared, scan: VisionScan, out: MassimPhraseOutput): void {
    scan.scan(world, entity);
    const step = this.#stepPhrases(shared);
    out.push(this.#open);
    out.push(this.#stringList(entity.lastActionParams));
    out.push(this.#roleKey(entity.role.name));
    out.push(this.#stringList(shared.violations.get(entity)));
    out.push(entity.deactivated ? this.#deactivatedGoalZones : this.#activeGoalZones);
    this.#pairs(scan.goalX, scan.goalY, scan.goalCount, out);
    out.push(this.#roleZonesKey);
    this.#pairs(scan.roleX, scan.roleY, scan.roleCount, out);
    out.push(this.#scoreKey);
    out.push(this.#number(shared.scores.get(entity.team) ?? 0));
    out.push(this.#lastActionKey);
    out.push(this.#string(entity.lastAction));
    out.push(step.normsThings);
    this.#things(scan, out);
    out.push(this.#attachedKey);
    this.#pairs(scan.attachedX, scan.attachedY, scan.attachedCount, out);
    out.push(this.#resultKey);
    out.push(this.#string(entity.lastActionResult));
    out.push(step.tasksEvents);
    out.push(this.#list(entity.events));
    out.push(this.#energyKey);
    out.push(this.#number(entity.energy));
    if (shared.absolutePosition) {
      const torus = world.torus;
      out.push(
        this.book.intern(
          `,"absolutePosition":${JSON.stringify([torus.x(entity.cell), torus.y(entity.cell)])}`,
        ),
      );
    }
    out.push(this.#close);
  }

  /** The phrases every agent of a step shares, made once per step. */
  #stepPhrases(shared: StepShared): { normsThings: number; tasksEvents: number } {
    if (this.#step?.shared !== shared) {
      this.#step = {
        shared,
        normsThings: this.book.intern(`,"norms":${JSON.stringify(shared.norms)},"things":[`),
        tasksEvents: this.book.intern(`,"tasks":${JSON.stringify(shared.tasks)},"events":`),
      };
    }
    return this.#step;
  }

  #things(scan: VisionScan, out: MassimPhraseOutput): void {
    for (let i = 0; i < scan.thingCount; i++) {
      const code = scan.thingCode[i]!;
      const details = scan.thingDetails[i]!;
      let row = this.#lastRow[code]!;
      if (this.#lastDetails[code] !== details) {
        const rows = this.#thingRows[code]!;
        const known = rows.get(details);
        if (known) row = known;
        else rows.set(details, (row = new Int32Array(this.#side * this.#side * 2)));
        this.#lastDetails[code] = details;
        this.#lastRow[code] = row;
      }
      const x = scan.thingX[i]!;
      const y = scan.thingY[i]!;
      const comma = i === 0 ? 0 : 1;
      const slot = this.#slot(x, y);
      if (slot < 0) {
        out.push(
          this.book.intern((comma ? ',' : '') + JSON.stringify({ x, y, details, type: THING_TYPES[code] })),
        );
        continue;
      }
      let phrase = row[slot + comma]! - 1;
      if (phrase < 0) {
        phrase = this.book.intern(
          (comma ? ',' : '') + JSON.stringify({ x, y, details, type: THING_TYPES[code] }),
        );
        row[slot + comma] = phrase + 1;
      }
      out.push(phrase);
    }
  }

  #pairs(xs: Int32Array, ys: Int32Array, count: number, out: MassimPhraseOutput): void {
    for (let i = 0; i < count; i++) {
      const x = xs[i]!;
      const y = ys[i]!;
      const comma = i === 0 ? 0 : 1;
      const slot = this.#slot(x, y);
      if (slot < 0) {
        out.push(this.book.intern((comma ? ',' : '') + JSON.stringify([x, y])));
        continue;
      }
      let phrase = this.#pairRow[slot + comma]! - 1;
      if (phrase < 0) {
        phrase = this.book.intern((comma ? ',' : '') + JSON.stringify([x, y]));
        this.#pairRow[slot + comma] = phrase + 1;
      }
      out.push(phrase);
    }
  }

  /** Where an offset's two phrases are kept in a row, or -1 beyond the largest vision. */
  #slot(x: number, y: number): number {
    const r = this.#radius;
    if (x < -r || x > r || y < -r || y > r) return -1;
    return ((y + r) * this.#side + (x + r)) * 2;
  }

  #number(value: number): number {
    if (Number.isInteger(value) && value >= 0 && value < CACHED_NUMBERS) {
      let phrase = this.#numbers[value]!;
      if (phrase < 0) this.#numbers[value] = phrase = this.book.intern(JSON.stringify(value));
      return phrase;
    }
    return this.book.intern(JSON.stringify(value));
  }

  #string(value: string): number {
    let phrase = this.#stringPhrases.get(value);
    if (phrase === undefined) {
      phrase = this.book.intern(JSON.stringify(value));
      this.#stringPhrases.set(value, phrase);
    }
    return phrase;
  }

  #list(values: readonly unknown[]): number {
    if (values.length === 0) return this.#emptyList;
    return this.book.intern(JSON.stringify(values));
  }

  #stringList(values: readonly string[] | undefined): number {
    if (values === undefined || values.length === 0) return this.#emptyList;
    if (values.length > 1) return this.book.intern(JSON.stringify(values));
    const only = values[0]!;
    let phrase = this.#singletons.get(only);
    if (phrase === undefined) {
      phrase = this.book.intern(JSON.stringify(values));
      this.#singletons.set(only, phrase);
    }
    return phrase;
  }

  #roleKey(role: string): number {
    let phrase = this.#roleKeys.get(role);
    if (phrase === undefined) {
      phrase = this.book.intern(`,"role":${JSON.stringify(role)},"violations":`);
      this.#roleKeys.set(role, phrase);
    }
    return phrase;
  }
}
