/**
 * Applying a joint action the way rddlsim's server does (research §1.5): names match case-insensitively with
 * `-` read as `_`; a value equal to the action's default is dropped and not counted; every other entry
 * counts toward max-nondef-actions, even one whose arguments name nothing (wrong arity, unknown objects),
 * which is then ignored; of duplicate entries any non-default one wins. "Equal to the default" is Java's
 * `equals`, so the value's kind matters: a real action declared with an int default (`default = 0`) never
 * equals a real value and always counts.
 */
import type { GroundAction, RddlValue } from './api';
import type { ConstValue } from './ast';
import { constantToNumber, type FluentLayout, type GroundedInstance } from './grounding';
import { canonicalFluentName } from './names';
import type { ValueType } from './value-types';
import { constantLeaves, leavesMatching, parseVectorText } from './vector-shape';

/** A resolved action entry. */
export type ResolvedAction =
  /**
   * Applies `value` at `index` of the action array; a vector-valued action applies `values`, one per
   * member, from `index` on (`value` is then the first member's).
   */
  | { kind: 'apply'; index: number; value: number; values?: readonly number[]; isDefault: boolean }
  /** Counts as a non-default action (unless `isDefault`) but changes nothing (unknown arguments). */
  | { kind: 'ignored'; isDefault: boolean }
  /** Not an action fluent of the domain. */
  | { kind: 'error'; message: string };

type ValueClass = 'bool' | 'int' | 'real' | 'enum' | 'object';

/** At most this many resolved vector actions are kept (the cache starts over when full). */
const VECTOR_CACHE_LIMIT = 4096;

/** Resolves actions against one grounded instance, caching by name and arguments. */
export class ActionResolver {
  readonly #layouts = new Map<string, FluentLayout>();
  readonly #positions = new Map<string, number>();
  /** Resolved vector-valued actions by name, arguments and text (policies tend to repeat a few values). */
  readonly #vectors = new Map<string, ResolvedAction>();

  constructor(private readonly grounded: GroundedInstance) {
    for (const layout of grounded.layouts.values()) this.#layouts.set(layout.info.canonical, layout);
  }

  resolve(action: GroundAction): ResolvedAction {
    const layout = this.#layouts.get(canonicalFluentName(action.name));
    if (!layout) return { kind: 'error', message: `unknown action '${action.name}'` };
    if (layout.store !== 'action') {
      return { kind: 'error', message: `'${action.name}' is a ${layout.info.kind}, not an action fluent` };
    }
    if (layout.vector) {
      const key = `${layout.info.canonical}(${action.args.join(',')})=${String(action.value)}`;
      let resolved = this.#vectors.get(key);
      if (!resolved) {
        resolved = this.resolveVector(layout, action);
        if (this.#vectors.size >= VECTOR_CACHE_LIMIT) this.#vectors.clear();
        this.#vectors.set(key, resolved);
      }
      return resolved;
    }
    const converted = this.convert(layout.info.name, layout.info.range, action.value);
    if ('error' in converted) return { kind: 'error', message: converted.error };
    const isDefault = this.sameAsDefault(layout.info.default, converted.valueClass, converted.number);
    const index = this.position(layout, action.args);
    if (index < 0) return { kind: 'ignored', isDefault };
    return { kind: 'apply', index, value: converted.number, isDefault };
  }

  /**
   * A vector-valued action's value is written as rddlsim prints vectors (and its client sends them):
   * `< @a: 1, @b: 0.5 >`, members by label in any order (`$` before an object label optional), a member
   * left out keeping the default's value, `< ? : v >` for every member, a nested vector's members nested
   * (`< @pos: < @x: 1 > >`). It is the action's default
   * (and not counted) when every member equals the default's, kind included, as Java's `equals` decides.
   */
  private resolveVector(layout: FluentLayout, action: GroundAction): ResolvedAction {
    const vector = layout.vector!;
    const name = layout.info.name;
    const text = typeof action.value === 'string' ? action.value.trim() : '';
    if (!text.startsWith('<') || !text.endsWith('>')) {
      return {
        kind: 'error',
        message: `'${name}' is a vector (${vector.typeName}): its value is written < ${vector.labels[0]}: ..., ... >, not ${JSON.stringify(action.value)}`,
      };
    }
    const written = this.defaultMembers(layout);
    const classes: (ValueClass | undefined)[] = vector.types.map(() => undefined);
    const parsed = parseVectorText(text);
    if ('error' in parsed) return { kind: 'error', message: `'${name}': ${parsed.error}` };
    for (const entry of parsed.entries) {
      const slots = leavesMatching(vector, entry.path);
      if (slots.length === 0) {
        return {
          kind: 'error',
          message: `'${name}' has no member ${JSON.stringify(entry.path.join('.'))} (its members: ${vector.labels.join(', ')})`,
        };
      }
      for (const slot of slots) {
        const converted = this.convert(`${name}.${vector.labels[slot]}`, vector.types[slot]!, entry.value);
        if ('error' in converted) return { kind: 'error', message: converted.error };
        written[slot] = converted.number;
        classes[slot] = converted.valueClass;
      }
    }
    const defaults = this.defaultLeaves(layout);
    const isDefault =
      defaults !== undefined &&
      defaults.every((member, i) => {
        const valueClass = classes[i] ?? (member.kind as ValueClass);
        return this.sameAsDefault(member, valueClass, written[i]!);
      });
    const index = this.position(layout, [...action.args, vector.labels[0]!]);
    if (index < 0) return { kind: 'ignored', isDefault };
    return { kind: 'apply', index, value: written[0]!, values: written, isDefault };
  }

  /** The scalar members of a vector-valued action's default, in slot order (nested members flattened). */
  private defaultLeaves(layout: FluentLayout): ConstValue[] | undefined {
    const written = layout.info.default;
    if (written?.kind !== 'struct') return undefined;
    const found = constantLeaves(layout.vector!.tree, written, layout.info.name);
    return 'leaves' in found ? found.leaves : undefined;
  }

  /** The members of a vector-valued action's default, in the vector type's order. */
  private defaultMembers(layout: FluentLayout): number[] {
    const leaves = this.defaultLeaves(layout);
    return layout.vector!.labels.map((_, i) => {
      const member = leaves?.[i];
      return member ? constantToNumber(member, this.grounded.symbols) : NaN;
    });
  }

  /** Index of the grounding named by `args`, or -1 when they name none. */
  private position(layout: FluentLayout, args: readonly string[]): number {
    const key = `${layout.info.canonical}(${args.join(',')})`;
    const cached = this.#positions.get(key);
    if (cached !== undefined) return cached;
    let index = -1;
    if (args.length === layout.paramValues.length) {
      index = layout.offset;
      for (let i = 0; i < args.length; i++) {
        const raw = args[i]!;
        const name = raw.startsWith('$') ? raw.slice(1) : raw;
        const position = layout.paramPositions[i]!.get(name);
        if (position === undefined) {
          index = -1;
          break;
        }
        index += position * layout.strides[i]!;
      }
    }
    this.#positions.set(key, index);
    return index;
  }

  private convert(
    name: string,
    range: ValueType,
    value: RddlValue,
  ): { number: number; valueClass: ValueClass } | { error: string } {
    switch (range.kind) {
      case 'bool': {
        // rddlsim reads bools with Boolean.valueOf: only "true" (any case) is true.
        const truth =
          typeof value === 'boolean'
            ? value
            : typeof value === 'string'
              ? value.toLowerCase() === 'true'
              : value !== 0;
        return { number: truth ? 1 : 0, valueClass: 'bool' };
      }
      case 'int': {
        const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
        if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) {
          return { error: `'${name}' takes an int, not ${JSON.stringify(value)}` };
        }
        return { number: n, valueClass: 'int' };
      }
      case 'real': {
        const n =
          typeof value === 'number'
            ? value
            : typeof value === 'string' && value.trim() !== ''
              ? Number(value)
              : NaN;
        if (Number.isNaN(n) && value !== 'NaN' && !(typeof value === 'number')) {
          return { error: `'${name}' takes a real number, not ${JSON.stringify(value)}` };
        }
        return { number: n, valueClass: 'real' };
      }
      case 'enum':
      case 'object': {
        if (typeof value !== 'string') {
          return {
            error: `'${name}' takes a value of ${range.name}, not ${JSON.stringify(value)}`,
          };
        }
        // An enum value without `@` is taken as an object name: it is stored, and equals no enum value.
        const symbol = value.startsWith('$') ? value.slice(1) : value;
        return {
          number: this.grounded.symbols.id(symbol),
          valueClass: symbol.startsWith('@') ? 'enum' : 'object',
        };
      }
      case 'struct':
        return { error: `'${name}' is a vector: its value is written < ... >` };
    }
  }

  /** Java's `equals` between the declared default and a value: same kind and same value. */
  private sameAsDefault(
    defaultValue: ConstValue | undefined,
    valueClass: ValueClass,
    value: number,
  ): boolean {
    if (!defaultValue || defaultValue.kind === 'struct' || defaultValue.kind !== valueClass) return false;
    switch (defaultValue.kind) {
      case 'bool':
        return (defaultValue.value ? 1 : 0) === value;
      case 'int':
      case 'real':
        return defaultValue.value === value;
      case 'enum':
      case 'object':
        return this.grounded.symbols.lookup(defaultValue.value) === value;
    }
  }

  /** Values to put in the action array before applying a step's actions. */
  defaults(size: number): Float64Array {
    const values = new Float64Array(size);
    for (const layout of this.#layouts.values()) {
      if (layout.store !== 'action' || !layout.info.default) continue;
      const written = layout.info.default;
      if (layout.vector && written.kind === 'struct') {
        // A vector-valued action's members sit side by side; each grounding starts from the default's.
        const labels = layout.vector.labels;
        const members = this.defaultMembers(layout);
        for (let slot = 0; slot < layout.count; slot++)
          values[layout.offset + slot] = members[slot % labels.length]!;
        continue;
      }
      values.fill(
        constantToNumber(layout.info.default, this.grounded.symbols),
        layout.offset,
        layout.offset + layout.count,
      );
    }
    return values;
  }
}
