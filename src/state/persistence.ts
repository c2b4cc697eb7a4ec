/**
 * Keeps the workspace, the settings and the last session's transcript across reloads, in IndexedDB
 * through idb-keyval. Stored data is treated as untrusted on the way back (an older version may have
 * written it): callers sanitise what they load.
 */
import { del, get, set } from 'idb-keyval';
import type { Transcript } from '../core/transcript/model';
import type { SettingsData } from './settings.svelte';
import type { WorkspaceData } from './workspace.svelte';

const KEYS = {
  workspace: 'protoplay:workspace:v1',
  settings: 'protoplay:settings:v1',
  transcript: 'protoplay:last-transcript:v1',
} as const;

/** Everything restored at start-up; each part is absent when nothing was stored. */
export interface StoredState {
  workspace?: Partial<WorkspaceData>;
  settings?: Partial<SettingsData>;
  transcript?: Transcript;
}

/** Reads everything stored. Storage failures (private mode, quota) read as "nothing stored". */
export async function loadStoredState(): Promise<StoredState> {
  try {
    const [workspace, settings, transcript] = await Promise.all([
      get<Partial<WorkspaceData>>(KEYS.workspace),
      get<Partial<SettingsData>>(KEYS.settings),
      get<Transcript>(KEYS.transcript),
    ]);
    return {
      ...(workspace && typeof workspace === 'object' ? { workspace } : {}),
      ...(settings && typeof settings === 'object' ? { settings } : {}),
      ...(transcript?.format === 'protoplay-transcript' ? { transcript } : {}),
    };
  } catch {
    return {};
  }
}

/** Stores the workspace and settings. */
export async function storeWorkspace(workspace: WorkspaceData, settings: SettingsData): Promise<void> {
  await Promise.all([set(KEYS.workspace, workspace), set(KEYS.settings, settings)]);
}

/** Stores the last session's transcript (structured clone: no JSON round trip needed). */
export async function storeTranscript(transcript: Transcript | undefined): Promise<void> {
  if (transcript) await set(KEYS.transcript, transcript);
  else await del(KEYS.transcript);
}
