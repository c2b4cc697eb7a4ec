/**
 * Keeps the last transcript on show across reloads, in IndexedDB through idb-keyval, as its Protoplay
 * JSON file (a Blob: IndexedDB stores it without a copy in memory). The session worker stores a live
 * session's; the page stores an imported one's. What comes back is opened like any imported file, so it
 * is read, checked and validated again.
 */
import { delMany, getMany, setMany } from 'idb-keyval';
import { scopedKey } from './storage-scope';
import { describeStorageFailure, isQuotaExceeded } from './storage-failure';

const KEY = 'protoplay:last-transcript:v2';
/** Set with the transcript when it was stored while its session was still going (not ended). */
const UNFINISHED_KEY = 'protoplay:unfinished-session:v1';

/** The last transcript kept: its JSON file, and whether its session had not ended when it was stored. */
export interface KeptTranscript {
  json: Blob;
  /** Stored while the session ran or waited: a reload or a crashed tab interrupted it. */
  unfinished: boolean;
}

/** Transcripts larger than this are not kept (storage quotas; a contest match is hundreds of megabytes). */
export const MAX_STORED_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** The last transcript, or undefined. Storage failures read as "nothing stored". */
export async function loadLastTranscript(): Promise<KeptTranscript | undefined> {
  try {
    const [stored, unfinished] = await getMany<unknown>([scopedKey(KEY), scopedKey(UNFINISHED_KEY)]);
    return stored instanceof Blob ? { json: stored, unfinished: unfinished === true } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps a transcript's JSON for the next reload, `unfinished` when its session is still going. Resolves
 * with why it was not kept (too large, or the browser's storage refused it, e.g. over its quota), or
 * undefined when it was. A transcript not kept also forgets the one stored before: a reload must not show
 * an older session as the last one.
 */
export async function keepLastTranscript(
  json: Blob,
  maxBytes = MAX_STORED_TRANSCRIPT_BYTES,
  unfinished = false,
): Promise<string | undefined> {
  const size = `${(json.size / 1024 / 1024).toFixed(1)} MB`;
  let reason: string;
  if (json.size > maxBytes) {
    reason = `at ${size} it is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB the page keeps`;
  } else {
    try {
      // One transaction: the transcript and its flag are stored together or not at all.
      await setMany([
        [scopedKey(KEY), json],
        [scopedKey(UNFINISHED_KEY), unfinished],
      ]);
      return undefined;
    } catch (error) {
      reason = isQuotaExceeded(error)
        ? `the browser refused to store its ${size} (storage quota exceeded)`
        : describeStorageFailure(error);
    }
  }
  try {
    await delMany([scopedKey(KEY), scopedKey(UNFINISHED_KEY)]);
  } catch {
    // Nothing stored can be forgotten either: a reload then finds nothing, or what it finds is checked.
  }
  return reason;
}
