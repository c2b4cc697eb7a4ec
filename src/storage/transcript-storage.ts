/**
 * Keeps the last transcript on show across reloads, in IndexedDB through idb-keyval, as its Protoplay
 * JSON file (a Blob: IndexedDB stores it without a copy in memory). The session worker stores a live
 * session's; the page stores an imported one's. What comes back is opened like any imported file, so it
 * is read, checked and validated again.
 */
import { del, get, set } from 'idb-keyval';
import { scopedKey } from './storage-scope';

const KEY = 'protoplay:last-transcript:v2';

/** Transcripts larger than this are not kept (storage quotas; a contest match is hundreds of megabytes). */
export const MAX_STORED_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** The last transcript, as its JSON file, or undefined. Storage failures read as "nothing stored". */
export async function loadLastTranscript(): Promise<Blob | undefined> {
  try {
    const stored = await get<unknown>(scopedKey(KEY));
    return stored instanceof Blob ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a transcript's JSON (forgetting the stored one when this one is too large to keep). */
export async function storeLastTranscript(json: Blob): Promise<void> {
  if (json.size > MAX_STORED_TRANSCRIPT_BYTES) await del(scopedKey(KEY));
  else await set(scopedKey(KEY), json);
}
