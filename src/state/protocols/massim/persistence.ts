/**
 * Keeps the MASSim workspace and the last MASSim transcript across reloads, in IndexedDB, apart from the
 * other protocols' workspace. The transcript is kept as its Protoplay JSON file (a Blob: IndexedDB stores
 * it without a copy in the page's memory). What comes back is sanitised by the caller.
 */
import { del, get, set } from 'idb-keyval';

const KEYS = {
  workspace: 'protoplay:massim-workspace:v1',
  transcript: 'protoplay:massim-last-transcript:v1',
} as const;

/** Transcripts larger than this are not kept (storage quotas; a contest match is hundreds of megabytes). */
export const MAX_STORED_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/**
 * Matches with more messages than this are not even written out for keeping: the JSON of a contest match
 * takes the session worker seconds to write, during which the views would wait for their answers.
 * The default match has about 4,300 messages.
 */
export const MAX_STORED_TRANSCRIPT_MESSAGES = 40_000;

/** The stored workspace (untrusted), or undefined. Storage failures read as "nothing stored". */
export async function loadMassimWorkspace(): Promise<unknown> {
  try {
    return await get(KEYS.workspace);
  } catch {
    return undefined;
  }
}

/** Stores the workspace. */
export async function storeMassimWorkspace(data: unknown): Promise<void> {
  await set(KEYS.workspace, data);
}

/** The last transcript, as its JSON file, or undefined. */
export async function loadLastMassimTranscript(): Promise<Blob | undefined> {
  try {
    const stored = await get<unknown>(KEYS.transcript);
    return stored instanceof Blob ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a transcript (forgetting the stored one when it is too large to keep). */
export async function storeLastMassimTranscript(json: Blob): Promise<void> {
  if (json.size > MAX_STORED_TRANSCRIPT_BYTES) await del(KEYS.transcript);
  else await set(KEYS.transcript, json);
}
