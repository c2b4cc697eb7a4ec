/**
 * Keeps the workspace and the settings across reloads, in IndexedDB through idb-keyval: the shell's part
 * (protocol, environment, policy code, rounds, seed) and each protocol's own part under its id. Stored
 * data is untrusted on the way back (an older version may have written it): callers sanitise it. Keys are
 * in the exercise's scope (`storage-scope.ts`).
 */
import { get, set } from 'idb-keyval';
import { announceStored } from './other-tabs';
import { scopedKey } from './storage-scope';

const KEYS = {
  workspace: 'protoplay:workspace:v1',
  settings: 'protoplay:settings:v1',
} as const;

/** The key of a protocol's own stored state. */
const protocolKey = (protocol: string, part: string) => scopedKey(`protoplay:${protocol}-${part}:v1`);

/** Everything the shell restores at start-up; each part is absent when nothing was stored. */
export interface StoredState {
  workspace?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

/** Reads the shell's stored state. Storage failures (private mode, quota) read as "nothing stored". */
export async function loadStoredState(): Promise<StoredState> {
  try {
    const [workspace, settings] = await Promise.all([
      get<unknown>(scopedKey(KEYS.workspace)),
      get<unknown>(scopedKey(KEYS.settings)),
    ]);
    const record = (value: unknown) =>
      value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
    const w = record(workspace);
    const s = record(settings);
    return { ...(w ? { workspace: w } : {}), ...(s ? { settings: s } : {}) };
  } catch {
    return {};
  }
}

/** Stores the workspace and settings (plain data). */
export async function storeWorkspace(workspace: object, settings: object): Promise<void> {
  await Promise.all([set(scopedKey(KEYS.workspace), workspace), set(scopedKey(KEYS.settings), settings)]);
  announceStored();
}

/** A protocol's own stored part (untrusted), or undefined. */
export async function loadProtocolState(protocol: string, part: string): Promise<unknown> {
  try {
    return await get(protocolKey(protocol, part));
  } catch {
    return undefined;
  }
}

/** Stores a protocol's own part (plain data); the other tabs of the exercise hear of it like the shell's. */
export async function storeProtocolState(protocol: string, part: string, data: unknown): Promise<void> {
  await set(protocolKey(protocol, part), data);
  announceStored();
}
