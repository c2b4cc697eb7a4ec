/**
 * Value types of expressions, following rddlsim's run-time rules: bools become 0/1 in arithmetic, int op
 * int stays int (32-bit) except `/` which is always real, enums and objects only compare with `==`/`~=`,
 * and enums written as numbers (`@3`) act as ints in arithmetic. rddlsim decides these while evaluating;
 * here they are decided once, before simulation, so the compiled code needs no type tests.
 */
import type { RddlValueType } from './api';

/** The type of a value: a primitive or a named enum/object/struct type. */
export type ValueType =
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'real' }
  | { kind: 'enum'; name: string }
  | { kind: 'object'; name: string }
  | { kind: 'struct'; name: string };

export const BOOL: ValueType = { kind: 'bool' };
export const INT: ValueType = { kind: 'int' };
export const REAL: ValueType = { kind: 'real' };

/** True for bool, int and real (what arithmetic accepts). */
export function isNumeric(type: ValueType): boolean {
  return type.kind === 'bool' || type.kind === 'int' || type.kind === 'real';
}

/** The type of `a op b` for `+ - *` (and the aggregations built on them); `/` is always real. */
export function arithmeticType(a: ValueType, b: ValueType, op: '+' | '-' | '*' | '/'): ValueType {
  if (op === '/') return REAL;
  const intLike = (t: ValueType) => t.kind === 'int' || t.kind === 'bool' || t.kind === 'enum';
  return intLike(a) && intLike(b) ? INT : REAL;
}

/** Readable name for messages: `bool`, `int`, `real`, or the declared type name. */
export function describeType(type: ValueType): string {
  return type.kind === 'bool' || type.kind === 'int' || type.kind === 'real' ? type.kind : type.name;
}

/** The wire-level value type. */
export function wireValueType(type: ValueType): RddlValueType {
  if (type.kind === 'struct') return 'object';
  return type.kind;
}

/** Same type (names compared exactly, as rddlsim does). */
export function sameType(a: ValueType, b: ValueType): boolean {
  return a.kind === b.kind && ('name' in a ? a.name === (b as { name: string }).name : true);
}
