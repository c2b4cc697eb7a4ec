/**
 * The shape of an RDDL2 vector (struct) type, nested vectors included, flattened to its scalar leaves.
 *
 * A member whose range is itself a vector type (`body : <@pos : point, @vel : point>`) is expanded into
 * that type's members, so every scalar leaf has one slot and one label: the path of member labels joined
 * with `.` (`@pos.@x`). A vector of scalars has one-label paths, so flat vectors are the special case.
 * The same paths are what `v.@pos.@x` reads, what `GroundFluent.members` lists and what an action's text
 * sets; the text itself nests as rddlsim prints it, `< @pos: < @x: 1, @y: 2 >, ... >`.
 */
import type { VectorMemberValue } from './api';
import type { ConstValue } from './ast';
import type { ValueType } from './value-types';

/** One member of a vector type: a scalar leaf (`type`) or a nested vector (`members`). */
export interface VectorNode {
  /** Enum values with `@`, objects without `$`. */
  label: string;
  type?: ValueType;
  /** The nested vector type's name and members. */
  typeName?: string;
  members?: VectorNode[];
}

/** A vector type flattened: its leaves' paths and types in slot order, and the tree they come from. */
export interface VectorShape {
  /** The struct type's name. */
  typeName: string;
  /** Leaf paths in slot order (`@a`, or `@pos.@x` for a nested member). */
  labels: string[];
  /** The type of each leaf. */
  types: ValueType[];
  /** The members as declared, nested vectors as subtrees. */
  tree: VectorNode[];
}

/** Joins member labels into a leaf path. */
export function memberPath(labels: readonly string[]): string {
  return labels.join('.');
}

/** The leaves of a tree, depth first, as paths and types. */
export function flattenVector(typeName: string, tree: VectorNode[]): VectorShape {
  const labels: string[] = [];
  const types: ValueType[] = [];
  const walk = (nodes: VectorNode[], prefix: string) => {
    for (const node of nodes) {
      const path = prefix + node.label;
      if (node.members) walk(node.members, `${path}.`);
      else {
        labels.push(path);
        types.push(node.type!);
      }
    }
  };
  walk(tree, '');
  return { typeName, labels, types, tree };
}

/**
 * The leaves under a path prefix (`@pos` of `< @pos: point, ... >`): their slots' positions among all
 * leaves and their paths relative to the prefix. An empty prefix is the whole vector; a full path is one
 * leaf with the relative path ''. Undefined when no leaf has that prefix.
 */
export function leavesUnder(
  shape: VectorShape,
  prefix: string,
): { positions: number[]; relative: string[] } | undefined {
  if (prefix === '') return { positions: shape.labels.map((_, i) => i), relative: shape.labels };
  const positions: number[] = [];
  const relative: string[] = [];
  shape.labels.forEach((label, i) => {
    if (label === prefix) {
      positions.push(i);
      relative.push('');
    } else if (label.startsWith(`${prefix}.`)) {
      positions.push(i);
      relative.push(label.slice(prefix.length + 1));
    }
  });
  return positions.length > 0 ? { positions, relative } : undefined;
}

/**
 * The scalar constants of a written vector value (`< ? : v >` for every member at its level, or
 * `< @a : v, ... >`, nested for nested members) in leaf order, or a message saying what is wrong.
 */
export function constantLeaves(
  tree: VectorNode[],
  written: ConstValue,
  name: string,
): { leaves: ConstValue[] } | { error: string } {
  const leaves: ConstValue[] = [];
  const walk = (nodes: VectorNode[], value: ConstValue, path: string): string | undefined => {
    if (value.kind !== 'struct') return `'${name}${path}' is a vector: its value is written < ... >`;
    for (const node of nodes) {
      const member = value.wildcard
        ? value.members[0]?.value
        : value.members.find((m) => m.label === node.label)?.value;
      const memberPathText = `${path}.${node.label}`;
      if (!member) return `the value of '${name}${path}' gives no member ${node.label}`;
      if (node.members) {
        const error = walk(node.members, member, memberPathText);
        if (error) return error;
      } else if (member.kind === 'struct') {
        return `'${name}${memberPathText}' is a scalar, not a vector`;
      } else {
        leaves.push(member);
      }
    }
    return undefined;
  };
  const error = walk(tree, written, '');
  return error ? { error } : { leaves };
}

/**
 * The text of a vector value as rddlsim prints it (its `STRUCT_VAL.toString`), nested members nested:
 * `< @a: 1, $o: < @x: 0.5 > >`, object labels and values with `$`. `scalar` writes one leaf's value.
 */
export function vectorText(
  members: readonly VectorMemberValue[],
  scalar: (member: VectorMemberValue) => string,
): string {
  const label = (text: string) => (text.startsWith('@') ? text : `$${text}`);
  const write = (entries: { path: string[]; member: VectorMemberValue }[]): string => {
    const parts: string[] = [];
    for (let i = 0; i < entries.length;) {
      const head = entries[i]!.path[0]!;
      let j = i;
      while (j < entries.length && entries[j]!.path[0] === head) j++;
      const group = entries.slice(i, j);
      const inner =
        group.length === 1 && group[0]!.path.length === 1
          ? scalar(group[0]!.member)
          : write(group.map((e) => ({ path: e.path.slice(1), member: e.member })));
      parts.push(`${label(head)}: ${inner}`);
      i = j;
    }
    return `< ${parts.join(', ')} >`;
  };
  return write(members.map((member) => ({ path: member.label.split('.'), member })));
}

/** One scalar of a vector's text: the path of labels leading to it (`?` for every member) and its text. */
export interface VectorTextEntry {
  path: string[];
  value: string;
}

/**
 * Reads a vector value's text (`< @a: 1, @b: < @x: 2 > >`, as rddlsim prints it and its client sends it)
 * into its scalars with their label paths (a `$` before an object label dropped), or a message.
 */
export function parseVectorText(text: string): { entries: VectorTextEntry[] } | { error: string } {
  let at = 0;
  const entries: VectorTextEntry[] = [];
  const skip = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const fail = (what: string) => ({ error: `${what} at character ${at + 1} of ${JSON.stringify(text)}` });
  const vector = (path: string[]): { error: string } | undefined => {
    skip();
    if (text[at] !== '<') return fail('expected <');
    at++;
    skip();
    if (text[at] === '>') {
      at++;
      return undefined;
    }
    for (;;) {
      skip();
      const colon = text.indexOf(':', at);
      if (colon < 0) return fail('expected label:');
      const raw = text.slice(at, colon).trim();
      if (raw === '' || /[<>,\s]/.test(raw)) return fail('expected a member label');
      const label = raw.startsWith('$') ? raw.slice(1) : raw;
      at = colon + 1;
      skip();
      if (text[at] === '<') {
        const error = vector([...path, label]);
        if (error) return error;
      } else {
        const start = at;
        while (at < text.length && text[at] !== ',' && text[at] !== '>') at++;
        entries.push({ path: [...path, label], value: text.slice(start, at).trim() });
      }
      skip();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === '>') {
        at++;
        return undefined;
      }
      return fail('expected , or >');
    }
  };
  const error = vector([]);
  if (error) return error;
  skip();
  if (at < text.length) return fail('unexpected text after the vector');
  return { entries };
}

/** The leaves a text entry's path names: equal labels, `?` matching any label at its level. */
export function leavesMatching(shape: VectorShape, path: readonly string[]): number[] {
  const found: number[] = [];
  shape.labels.forEach((label, i) => {
    const segments = label.split('.');
    if (segments.length === path.length && segments.every((s, k) => path[k] === '?' || path[k] === s))
      found.push(i);
  });
  return found;
}
