/**
 * Keeps the versions saved for Compare across reloads, one per protocol, in IndexedDB (idb-keyval), in the
 * exercise's scope like the workspace. Stored data is untrusted on the way back: what is not a saved
 * version with its code is left out.
 */
import { get, set } from 'idb-keyval';
import type { EvaluatedPolicySource } from '../core/protocols/evaluation-contract';
import { scopedKey } from './storage-scope';

const KEY = 'protoplay:evaluation-saved:v1';

/** A version saved for Compare. */
export interface StoredPolicyVersion {
  label: string;
  savedAt: number;
  source: EvaluatedPolicySource;
}

/** The saved versions by protocol id (none when storage fails or holds nothing usable). */
export async function loadSavedVersions(): Promise<Record<string, StoredPolicyVersion>> {
  let stored: unknown;
  try {
    stored = await get(scopedKey(KEY));
  } catch {
    return {};
  }
  const versions: Record<string, StoredPolicyVersion> = {};
  if (!stored || typeof stored !== 'object') return versions;
  for (const [protocol, value] of Object.entries(stored as Record<string, unknown>)) {
    const version = readVersion(value);
    if (version) versions[protocol] = version;
  }
  return versions;
}

/** Stores the saved version of a protocol (plain data), keeping the other protocols'. */
export async function storeSavedVersion(protocol: string, version: StoredPolicyVersion): Promise<void> {
  const versions = await loadSavedVersions();
  versions[protocol] = version;
  await set(scopedKey(KEY), versions);
}

function readVersion(value: unknown): StoredPolicyVersion | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { label, savedAt, source } = value as Record<string, unknown>;
  if (typeof label !== 'string' || typeof savedAt !== 'number' || !source || typeof source !== 'object')
    return undefined;
  const { code, language, level, fileName } = source as Record<string, unknown>;
  if (typeof code !== 'string' || typeof fileName !== 'string') return undefined;
  return {
    label,
    savedAt,
    source: {
      code,
      fileName,
      language: language === 'js' ? 'js' : 'ts',
      level: level === 'wire' ? 'wire' : 'policy',
    },
  };
}
