/**
 * Percepts compared as the real server means them: it writes several lists in hash-set order, which carries
 * no meaning and which Protoplay does not reproduce, so those lists are compared as sets.
 */
import type { JsonValue } from '../../../../src/core/envs/massim/api';

type JsonObject = { [key: string]: JsonValue };

const SET_LISTS = ['things', 'tasks', 'norms', 'attached', 'goalZones', 'roleZones', 'violations', 'events'];

/** Stable text of a JSON value with object keys sorted. */
export function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalText(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A percept with its hash-ordered lists sorted. */
export function normalisePercept(percept: object): JsonObject {
  const copy = structuredClone(percept) as { [key: string]: JsonValue };
  // Each element as its canonical text, sorted.
  const sortList = (list: JsonValue[]) => list.map(canonicalText).sort() as unknown as JsonValue[];
  for (const key of SET_LISTS) {
    const list = copy[key];
    if (!Array.isArray(list)) continue;
    if (key === 'tasks' || key === 'norms') {
      for (const item of list as { requirements: JsonValue[] }[])
        item.requirements = sortList(item.requirements);
    }
    copy[key] = sortList(list);
  }
  return copy;
}
