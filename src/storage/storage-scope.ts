/**
 * Which exercise's storage the page reads and writes. A page opened plainly keeps one workspace per
 * browser; an exercise (`exercise=NAME` in the link, or an embedded link) keeps its own, so two exercises
 * embedded in one course page never share the learner's code, settings or last session. Every stored key
 * goes through `scopedKey`; the session worker learns the scope from its name (`workerNameWithScope`).
 */
import { delMany, keys } from 'idb-keyval';

let scope: string | undefined;

/** Uses an exercise's storage from now on (`undefined`: the page's own). Call before the first read. */
export function useStorageScope(name: string | undefined): void {
  scope = name || undefined;
}

/** The exercise whose storage is used, or undefined for the page's own. */
export function storageScope(): string | undefined {
  return scope;
}

/** A stored key in the current scope. The unscoped key is unchanged, so older storage still reads. */
export function scopedKey(key: string): string {
  return scope === undefined ? key : `${key}@${scope}`;
}

/** Forgets everything stored in the current scope (the page's own storage is never forgotten this way). */
export async function forgetScope(): Promise<void> {
  if (scope === undefined) return;
  const suffix = `@${scope}`;
  const stored = await keys();
  await delMany(stored.filter((key) => typeof key === 'string' && key.endsWith(suffix)));
}

const WORKER_SCOPE_SEPARATOR = ' @';

/** A worker's name carrying the scope, so a worker stores in the same exercise as the page. */
export function workerNameWithScope(name: string): string {
  return scope === undefined ? name : `${name}${WORKER_SCOPE_SEPARATOR}${scope}`;
}

/** The scope a worker's name carries (see `workerNameWithScope`), or undefined. */
export function scopeFromWorkerName(name: string): string | undefined {
  const at = name.indexOf(WORKER_SCOPE_SEPARATOR);
  return at < 0 ? undefined : name.slice(at + WORKER_SCOPE_SEPARATOR.length);
}
