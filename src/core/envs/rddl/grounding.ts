/**
 * Grounding: from a checked domain plus a non-fluents block and an instance block to the concrete world of
 * one instance. Decides the objects of every type (in rddlsim's order), gives every object and enum value a
 * numeric symbol, lays out every grounding of every fluent in flat arrays, fills in initial state and
 * non-fluent values, and works out the orders in which rddlsim evaluates and sends fluents.
 */
import type { SourceLocation } from '../../errors';
import type { FluentKind, RddlDiagnostic } from './api';
import type { Assignment, ConstValue, InstanceBlock, NonFluentsBlock, ObjectsDecl } from './ast';
import { checkConstant, DiagnosticSink, type Domain, type PvarInfo } from './domain';
import { javaHashMapOrder, javaStringHashCode } from '../../java/hash-map-order';
import { canonicalFluentName, didYouMean } from './names';
import type { ValueType } from './value-types';
import { constantLeaves, flattenVector, type VectorNode, type VectorShape } from './vector-shape';

export type { VectorShape } from './vector-shape';

/** Above this many groundings of state, action, interm and observation fluents an instance is refused. */
export const MAX_GROUNDINGS = 5_000_000;

/**
 * Non-fluent values, stored sparsely: only values that differ from the default are kept (as rddlsim does),
 * so a graph over 10,000 nodes costs its edges, not 10^8 entries. Indexes are absolute (`offset + i`).
 */
export class NonFluentValues {
  readonly #values = new Map<number, number>();
  readonly #trueCache = new Map<string, { index: number; args: string[] }[]>();

  constructor(private readonly defaults: ReadonlyMap<string, number>) {}

  get(layout: FluentLayout, index: number): number {
    return this.#values.get(index) ?? this.defaults.get(layout.info.canonical) ?? 0;
  }

  set(index: number, value: number): void {
    this.#values.set(index, value);
  }

  /** Groundings of a boolean non-fluent whose value is true, in grounding order. */
  trueGroundings(layout: FluentLayout): { index: number; args: string[] }[] {
    let list = this.#trueCache.get(layout.info.canonical);
    if (!list) {
      list = [];
      if ((this.defaults.get(layout.info.canonical) ?? 0) !== 0) {
        for (let i = 0; i < layout.count; i++) {
          if (this.get(layout, layout.offset + i) !== 0)
            list.push({ index: layout.offset + i, args: groundingArgs(layout, i) });
        }
      } else {
        for (const [index, value] of this.#values) {
          if (index >= layout.offset && index < layout.offset + layout.count && value !== 0) {
            list.push({ index, args: groundingArgs(layout, index - layout.offset) });
          }
        }
        list.sort((a, b) => a.index - b.index);
      }
      this.#trueCache.set(layout.info.canonical, list);
    }
    return list;
  }
}

/** Which flat array holds a fluent's values at run time. */
export type FluentStore = 'state' | 'action' | 'interm' | 'observ' | 'nonfluent';

const STORE_OF_KIND: Record<FluentKind, FluentStore> = {
  'state-fluent': 'state',
  'action-fluent': 'action',
  'interm-fluent': 'interm',
  'derived-fluent': 'interm',
  'observ-fluent': 'observ',
  'non-fluent': 'nonfluent',
};

/** Where a fluent's groundings live: `offset + sum(position_i * strides_i)` in its store. */
export interface FluentLayout {
  info: PvarInfo;
  store: FluentStore;
  offset: number;
  /** Slots: groundings, times the members of a vector-valued fluent. */
  count: number;
  /** The values each parameter ranges over (objects without `$`, enum values with `@`). */
  paramValues: string[][];
  /** Position of each value in `paramValues` (shared per type), for constant-time lookups. */
  paramPositions: ReadonlyMap<string, number>[];
  strides: number[];
  /** Present for vector-valued fluents: the members, the slots' extra last "parameter". */
  vector?: VectorShape;
}

/**
 * Every object and enum value gets a number; equal names share one (rddlsim compares constants by name).
 * Numbers, not strings, are what the compiled code compares.
 */
export class SymbolTable {
  readonly names: string[] = [];
  readonly #ids = new Map<string, number>();

  /** The id of a name, allocating one for names never seen (e.g. an unknown action argument). */
  id(name: string): number {
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.#ids.set(name, id);
    }
    return id;
  }

  lookup(name: string): number | undefined {
    return this.#ids.get(name);
  }

  name(id: number): string {
    return this.names[id] ?? `#${id}`;
  }
}

/** A grounded instance: everything the compiler and the simulator need about one instance. */
export interface GroundedInstance {
  domain: Domain;
  instance: InstanceBlock;
  nonFluents?: NonFluentsBlock;
  /** Values of each object/enum type, in rddlsim's order (subtypes included in parents). */
  typeValues: Map<string, string[]>;
  symbols: SymbolTable;
  /** By canonical fluent name. */
  layouts: Map<string, FluentLayout>;
  sizes: Record<FluentStore, number>;
  /** Initial state values (defaults overridden by init-state). */
  initialState: Float64Array;
  /** Value type of each initial state value (an int written for a real fluent stays an int, as in rddlsim). */
  initialStateTypes: ValueType[];
  /** Non-fluent values (defaults overridden by the non-fluents block, then the instance's). */
  nonFluentValues: NonFluentValues;
  /** State fluents in the order rddlsim evaluates their cpfs (its pvariable HashMap order). */
  stateEvaluationOrder: PvarInfo[];
  /** Observation fluents in rddlsim's evaluation order. */
  observEvaluationOrder: PvarInfo[];
  /** State fluents in the order rddlsim sends them (HashMap order of its state map). */
  stateWireOrder: PvarInfo[];
  /** Observation fluents in the order rddlsim sends them. */
  observWireOrder: PvarInfo[];
}

/** Position of a value in the list of its type. */
export function valuePosition(layout: FluentLayout, param: number, value: string): number {
  return layout.paramPositions[param]!.get(value) ?? -1;
}

/** The argument names of the grounding at `index` (0-based within the fluent). */
export function groundingArgs(layout: FluentLayout, index: number): string[] {
  return layout.strides.map(
    (stride, i) => layout.paramValues[i]![Math.floor(index / stride) % layout.paramValues[i]!.length]!,
  );
}

/** Grounds an instance; problems are reported as diagnostics (nothing is thrown). */
export function groundInstance(
  domain: Domain,
  instance: InstanceBlock,
  nonFluents: NonFluentsBlock | undefined,
  options: { rddlsimSemantics?: boolean } = {},
): { grounded?: GroundedInstance; diagnostics: RddlDiagnostic[] } {
  const sink = new DiagnosticSink();
  const typeValues = collectTypeValues(domain, nonFluents, instance, sink);
  const symbols = new SymbolTable();
  for (const values of typeValues.values()) for (const value of values) symbols.id(value);

  const positionsByType = new Map<string, Map<string, number>>();
  const positionsOf = (type: string) => {
    let positions = positionsByType.get(type);
    if (!positions) {
      positions = new Map((typeValues.get(type) ?? []).map((value, i) => [value, i]));
      positionsByType.set(type, positions);
    }
    return positions;
  };
  const sizes: Record<FluentStore, number> = { state: 0, action: 0, interm: 0, observ: 0, nonfluent: 0 };
  const layouts = new Map<string, FluentLayout>();
  let total = 0;
  for (const info of domain.pvariableList) {
    const paramValues = info.params.map((type) => typeValues.get(type) ?? []);
    const paramPositions = info.params.map(positionsOf);
    const vector = info.range.kind === 'struct' ? vectorShape(domain, typeValues, info, sink) : undefined;
    if (vector) {
      paramValues.push(vector.labels);
      paramPositions.push(new Map(vector.labels.map((label, i) => [label, i])));
    }
    const missing = info.params.find((type) => (typeValues.get(type)?.length ?? 0) === 0);
    if (missing !== undefined && domain.types.has(missing)) {
      sink.error(
        `type '${missing}' has no ${domain.types.get(missing)!.kind === 'enum' ? 'values' : 'objects'}, so '${info.name}' has no groundings (declare them in an objects section)`,
        info.decl.nameLoc,
      );
    }
    const strides: number[] = [];
    let count = 1;
    for (let i = paramValues.length - 1; i >= 0; i--) {
      strides.unshift(count);
      count *= paramValues[i]!.length;
    }
    const store = STORE_OF_KIND[info.kind];
    if (store !== 'nonfluent') total += count;
    if (total > MAX_GROUNDINGS || count > Number.MAX_SAFE_INTEGER / 2) {
      sink.error(
        `this instance is too big to simulate: '${info.name}' alone has ${count.toLocaleString('en-US')} groundings (the limit is ${MAX_GROUNDINGS.toLocaleString('en-US')} in total)`,
        info.decl.nameLoc,
      );
      return { diagnostics: sink.diagnostics };
    }
    layouts.set(info.canonical, {
      info,
      store,
      offset: sizes[store],
      count,
      paramValues,
      paramPositions,
      strides,
      ...(vector ? { vector } : {}),
    });
    sizes[store] += count;
  }
  if (sink.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: sink.diagnostics };

  const ground: GroundContext = {
    domain,
    rddlsimSemantics: options.rddlsimSemantics ?? false,
    layouts,
    symbols,
    typeValues,
    sink,
  };
  for (const info of domain.pvariableList) {
    if (info.default)
      checkObjectValue(ground, info.default, info.range, info.decl.defaultLoc ?? info.decl.loc);
  }
  const initialState = new Float64Array(sizes.state);
  const initialStateTypes: ValueType[] = new Array(sizes.state);
  for (const layout of layouts.values()) {
    if (layout.store !== 'state' || !layout.info.default) continue;
    if (layout.vector) {
      vectorDefaults(ground, layout).forEach(({ value, type }, slot) => {
        initialState[layout.offset + slot] = value;
        initialStateTypes[layout.offset + slot] = type;
      });
      continue;
    }
    initialState.fill(
      constantToNumber(layout.info.default, symbols),
      layout.offset,
      layout.offset + layout.count,
    );
    initialStateTypes.fill(
      constantType(layout.info.default, layout.info.range),
      layout.offset,
      layout.offset + layout.count,
    );
  }
  const setState = (index: number, value: number, type: ValueType) => {
    initialState[index] = value;
    initialStateTypes[index] = type;
  };
  const nonFluentDefaults = new Map<string, number>();
  for (const layout of layouts.values()) {
    if (layout.store === 'nonfluent' && layout.info.default) {
      nonFluentDefaults.set(layout.info.canonical, constantToNumber(layout.info.default, symbols));
    }
  }
  const nonFluentValues = new NonFluentValues(nonFluentDefaults);
  for (const layout of layouts.values()) {
    if (layout.store !== 'nonfluent' || !layout.vector || !layout.info.default) continue;
    vectorDefaults(ground, layout).forEach(({ value }, slot) =>
      nonFluentValues.set(layout.offset + slot, value),
    );
  }
  const setNonFluent = (index: number, value: number) => nonFluentValues.set(index, value);
  applyAssignments(ground, instance.initState, 'state', setState, 'init-state');
  if (nonFluents) applyAssignments(ground, nonFluents.assignments, 'nonfluent', setNonFluent, 'non-fluents');
  applyAssignments(ground, instance.nonFluentAssignments, 'nonfluent', setNonFluent, 'non-fluents');

  const pvarOrder = rddlsimPvariableOrder(domain);
  const stateEvaluationOrder = pvarOrder.filter((p) => p.kind === 'state-fluent');
  const observEvaluationOrder = pvarOrder.filter((p) => p.kind === 'observ-fluent');
  const byCanonicalHash = (list: PvarInfo[]) =>
    javaHashMapOrder(list.map((p) => ({ key: p, hashCode: javaStringHashCode(p.canonical) })));
  if (sink.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: sink.diagnostics };
  return {
    grounded: {
      domain,
      instance,
      nonFluents,
      typeValues,
      symbols,
      layouts,
      sizes,
      initialState,
      initialStateTypes,
      nonFluentValues,
      stateEvaluationOrder,
      observEvaluationOrder,
      stateWireOrder: byCanonicalHash(stateEvaluationOrder),
      observWireOrder: byCanonicalHash(observEvaluationOrder),
    },
    diagnostics: sink.diagnostics,
  };
}

/**
 * rddlsim keeps pvariables in a HashMap keyed by canonical name; its lists of state, observation and
 * action names are filled by iterating that map.
 */
export function rddlsimPvariableOrder(domain: Domain): PvarInfo[] {
  const inserted = domain.block.pvariableInsertionOrder
    .map((decl) => domain.pvariables.get(canonicalFluentName(decl.name)))
    .filter((p): p is PvarInfo => p !== undefined && p.decl === domain.pvariables.get(p.canonical)?.decl);
  return javaHashMapOrder(inserted.map((p) => ({ key: p, hashCode: javaStringHashCode(p.canonical) })));
}

interface GroundContext {
  domain: Domain;
  /** rddlsim's semantics: an assignment to a grounding that does not exist is kept by rddlsim, unread. */
  rddlsimSemantics: boolean;
  layouts: Map<string, FluentLayout>;
  symbols: SymbolTable;
  typeValues: Map<string, string[]>;
  sink: DiagnosticSink;
}

/** The runtime number for a constant: bools 0/1, numbers themselves, enum values and objects their symbol. */
export function constantToNumber(value: ConstValue, symbols: SymbolTable): number {
  switch (value.kind) {
    case 'bool':
      return value.value ? 1 : 0;
    case 'int':
    case 'real':
      return value.value;
    case 'enum':
    case 'object':
      return symbols.id(value.value);
    case 'struct':
      return NaN;
  }
}

/** The value type a written constant has at run time. */
export function constantType(value: ConstValue, range: ValueType): ValueType {
  switch (value.kind) {
    case 'bool':
      return { kind: 'bool' };
    case 'int':
      return { kind: 'int' };
    case 'real':
      return { kind: 'real' };
    default:
      return range;
  }
}

/**
 * The members of a vector-valued fluent's range: `[t] <? : range>` has one member per value of `t`,
 * `<@a : range, ...>` the members listed; a member whose range is a vector type is that type's members
 * (nested vectors), flattened to scalar leaves (`@a.@x`).
 */
function vectorShape(
  domain: Domain,
  typeValues: Map<string, string[]>,
  info: PvarInfo,
  sink: DiagnosticSink,
): VectorShape | undefined {
  const typeName = info.range.kind === 'struct' ? info.range.name : '';
  const members = (name: string, seen: readonly string[]): VectorNode[] | string => {
    const decl = domain.types.get(name)?.decl;
    if (decl?.kind !== 'struct') return `'${name}' is not a vector type`;
    if (seen.includes(name)) return `vector type '${name}' contains itself (${[...seen, name].join(' > ')})`;
    const labels =
      decl.indexType !== undefined
        ? (typeValues.get(decl.indexType) ?? [])
        : decl.members.map((m) => m.label);
    if (labels.length === 0) return `vector type '${name}' of '${info.name}' has no members`;
    const nodes: VectorNode[] = [];
    for (const [i, label] of labels.entries()) {
      const range = decl.indexType !== undefined ? decl.members[0]!.range : decl.members[i]!.range;
      if (range === 'bool' || range === 'int' || range === 'real') {
        nodes.push({ label, type: { kind: range } });
        continue;
      }
      const type = domain.types.get(range);
      if (type?.kind === 'enum' || type?.kind === 'object') {
        nodes.push({ label, type: { kind: type.kind, name: range } });
        continue;
      }
      const inner = members(range, [...seen, name]);
      if (typeof inner === 'string') return inner;
      nodes.push({ label, typeName: range, members: inner });
    }
    return nodes;
  };
  if (domain.types.get(typeName)?.decl.kind !== 'struct') return undefined;
  const tree = members(typeName, []);
  if (typeof tree === 'string') {
    sink.error(tree, info.decl.nameLoc);
    return undefined;
  }
  return flattenVector(typeName, tree);
}

/** The value of every slot of a vector-valued fluent before anything assigns it: its default's members. */
function vectorDefaults(ground: GroundContext, layout: FluentLayout): { value: number; type: ValueType }[] {
  const written = layout.info.default!;
  const location = layout.info.decl.defaultLoc ?? layout.info.decl.nameLoc;
  const members = vectorMembers(ground, layout, written, location);
  if (!members) return [];
  // Slots run over the groundings, members last.
  return Array.from({ length: layout.count }, (_, slot) => members[slot % members.length]!);
}

/**
 * The members of a written vector constant (`< ? : v >` for all, or `< @a : v, ... >`) in the order of the
 * fluent's vector type, or undefined after reporting what is wrong.
 */
function vectorMembers(
  ground: GroundContext,
  layout: FluentLayout,
  written: ConstValue,
  location: SourceLocation,
): { value: number; type: ValueType }[] | undefined {
  const vector = layout.vector!;
  const name = layout.info.name;
  if (written.kind !== 'struct') {
    ground.sink.error(`'${name}' is a vector (${vector.typeName}): its value is written < ... >`, location);
    return undefined;
  }
  const found = constantLeaves(vector.tree, written, name);
  if ('error' in found) {
    ground.sink.error(found.error, location);
    return undefined;
  }
  return found.leaves.map((value, m) => ({
    value: constantToNumber(value, ground.symbols),
    type: constantType(value, vector.types[m]!),
  }));
}

/** Java's `equals` between a default and an assigned constant: same class and same value. */
function sameConstant(a: ConstValue | undefined, b: ConstValue): boolean {
  if (!a) return false;
  if (a.kind !== b.kind) return false;
  return a.kind !== 'struct' && b.kind !== 'struct' && a.value === b.value;
}

function applyAssignments(
  ground: GroundContext,
  assignments: Assignment[],
  store: FluentStore,
  set: (index: number, value: number, type: ValueType) => void,
  section: string,
): void {
  const { layouts, sink, domain } = ground;
  const expectedKind = store === 'state' ? 'state-fluent' : 'non-fluent';
  for (const assignment of assignments) {
    const layout = layouts.get(canonicalFluentName(assignment.name));
    if (!layout) {
      const candidates = domain.pvariableList.filter((p) => p.kind === expectedKind).map((p) => p.name);
      sink.error(
        `unknown fluent '${assignment.name}'${didYouMean(assignment.name, candidates)}`,
        assignment.nameLoc,
      );
      continue;
    }
    const info = layout.info;
    if (layout.store !== store) {
      sink.error(
        `${section} can only set ${expectedKind}s, and '${info.name}' is a ${info.kind}`,
        assignment.nameLoc,
      );
      continue;
    }
    if (assignment.args.length !== info.params.length) {
      sink.error(
        `'${info.name}' takes ${info.params.length} argument${info.params.length === 1 ? '' : 's'}, but ${assignment.args.length} ${assignment.args.length === 1 ? 'is' : 'are'} given`,
        assignment.loc,
      );
      continue;
    }
    let index = layout.offset;
    let ok = true;
    assignment.args.forEach((arg, i) => {
      const position = valuePosition(layout, i, arg.value);
      if (position < 0 && arg.value.startsWith('@') && ground.rddlsimSemantics) {
        // rddlsim stores the value under arguments no grounding has, where nothing reads it.
        ok = false;
        sink.warning(
          `${describeUnknownValue(ground, info.params[i]!, arg.value)}: rddlsim runs it and sets a grounding that no expression reads, so this line has no effect`,
          arg.loc,
        );
      } else if (position < 0) {
        ok = false;
        reportUnknownValue(ground, info.params[i]!, arg.value, arg.loc);
      } else {
        index += position * layout.strides[i]!;
      }
    });
    if (!ok) continue;
    if (layout.vector) {
      const members = vectorMembers(ground, layout, assignment.value, assignment.loc);
      members?.forEach(({ value, type }, m) => set(index + m, value, type));
      continue;
    }
    if (
      !checkConstant(
        assignment.value,
        info.range,
        domain.types,
        sink,
        assignment.loc,
        `the value of '${info.name}'`,
      )
    )
      continue;
    if (!checkObjectValue(ground, assignment.value, info.range, assignment.loc)) continue;
    // rddlsim only stores values different from the default, so assigning the default changes nothing
    // (it cannot undo an earlier assignment of the same grounding).
    if (sameConstant(info.default, assignment.value)) continue;
    set(
      index,
      constantToNumber(assignment.value, ground.symbols),
      constantType(assignment.value, info.range),
    );
  }
}

/** An object-valued constant must name an object of the range type. */
export function checkObjectValue(
  ground: { typeValues: Map<string, string[]>; domain: Domain; sink: DiagnosticSink },
  value: ConstValue,
  range: ValueType,
  location: SourceLocation,
): boolean {
  if (value.kind !== 'object' || range.kind !== 'object') return true;
  const objects = ground.typeValues.get(range.name) ?? [];
  if (objects.includes(value.value)) return true;
  ground.sink.error(
    `'${value.value}' is not an object of type ${range.name}${didYouMean(value.value, objects)}`,
    location,
  );
  return false;
}

function reportUnknownValue(
  ground: GroundContext,
  type: string,
  value: string,
  location: SourceLocation,
): void {
  const rddlsimRuns = value.startsWith('@') && ground.domain.types.get(type)?.kind === 'enum';
  ground.sink.error(
    `${describeUnknownValue(ground, type, value)}${rddlsimRuns ? ' (rddlsim runs it, setting a grounding no expression reads, and so does `--semantics rddlsim`)' : ''}`,
    location,
  );
}

function describeUnknownValue(ground: GroundContext, type: string, value: string): string {
  const values = ground.typeValues.get(type) ?? [];
  const shown = values.length > 8 ? `${values.slice(0, 8).join(', ')}, ...` : values.join(', ');
  return `'${value}' is not ${value.startsWith('@') ? 'a value' : 'an object'} of type ${type} (${shown})${didYouMean(value, values)}`;
}

/**
 * The values of every object and enum type, merged the way rddlsim merges them: object lists from the
 * domain, then the non-fluents block, then the instance, each merge putting the newly listed objects first
 * and keeping earlier ones not repeated; enum values after that; then each object type receives the
 * objects of its subtypes (in front of its own). The HashMap iteration orders rddlsim uses along the way
 * are reproduced, so groundings come out in the order the real server sends them.
 */
function collectTypeValues(
  domain: Domain,
  nonFluents: NonFluentsBlock | undefined,
  instance: InstanceBlock,
  sink: DiagnosticSink,
): Map<string, string[]> {
  const values = new Map<string, string[]>();
  const valuesInsertion: string[] = [];
  const addConstants = (type: string, constants: string[]) => {
    const merged = [...constants];
    const present = new Set(merged);
    for (const existing of values.get(type) ?? []) if (!present.has(existing)) merged.push(existing);
    if (!values.has(type)) valuesInsertion.push(type);
    values.set(type, merged);
  };
  const typeOrder = (types: string[]) =>
    javaHashMapOrder(types.map((t) => ({ key: t, hashCode: javaStringHashCode(t) })));

  for (const decls of [domain.block.objects, nonFluents?.objects ?? [], instance.objects]) {
    const byType = new Map<string, ObjectsDecl>();
    for (const decl of decls) {
      const type = domain.types.get(decl.type);
      if (!type || type.kind === 'struct') {
        sink.error(
          type
            ? `objects are listed for object types, and '${decl.type}' is a vector type`
            : `objects for unknown type '${decl.type}'${didYouMean(decl.type, domain.types.keys())}`,
          decl.typeLoc,
        );
        continue;
      }
      const seen = new Set<string>();
      for (const object of decl.objects) {
        if (seen.has(object.name)) sink.error(`object '${object.name}' is listed twice`, object.loc);
        seen.add(object.name);
      }
      byType.set(decl.type, decl);
    }
    for (const type of typeOrder([...byType.keys()]))
      addConstants(
        type,
        byType.get(type)!.objects.map((o) => o.name),
      );
  }
  const declaredTypes = domain.block.typeInsertionOrder
    .map((t) => t.name)
    .filter((name, i, all) => all.indexOf(name) === i);
  for (const name of typeOrder(declaredTypes)) {
    const type = domain.types.get(name);
    if (type?.kind === 'enum') addConstants(name, type.values!);
  }

  // Subtype propagation, with rddlsim's list sharing: the list stored for a parent is the same list that
  // keeps growing while the walk continues upwards, so grandparents see parents' objects too.
  const inherited = new Map<string, string[]>();
  const inheritedInsertion: string[] = [];
  for (const name of typeOrder(valuesInsertion)) {
    let current = name;
    const childConstants: string[] = [];
    for (;;) {
      const type = domain.types.get(current);
      if (type?.kind !== 'object' || !type.parent) break;
      childConstants.push(...(values.get(current) ?? []));
      current = type.parent;
      const merged = inherited.get(current);
      if (merged) {
        merged.push(...childConstants);
      } else {
        inherited.set(current, childConstants);
        inheritedInsertion.push(current);
      }
    }
  }
  for (const name of typeOrder(inheritedInsertion)) addConstants(name, inherited.get(name)!);
  return values;
}
