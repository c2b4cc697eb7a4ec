/**
 * Keeps the last transcript on show across reloads, in IndexedDB through idb-keyval. The page stores an
 * imported one's as its Protoplay JSON file (a Blob: IndexedDB stores it without a copy in memory). The
 * session worker stores a live session's in parts (`JournalPart`): a head, rewritten with every part, and
 * the parts in order, each with only what was recorded since the one before; reading assembles the file.
 * Either replaces the other. What comes back is opened like any imported file, so it is read, checked and
 * validated again.
 */
import { createStore, delMany, getMany, promisifyRequest } from 'idb-keyval';
import { assembleJournal, type JournalOutcome, type JournalPart } from '../core/session/transcript-journal';
import { scopedKey } from './storage-scope';
import { describeStorageFailure, isQuotaExceeded } from './storage-failure';

const KEY = 'protoplay:last-transcript:v2';
/** Set with the transcript when it was stored while its session was still going (not ended). */
const UNFINISHED_KEY = 'protoplay:unfinished-session:v1';
/** The head of a transcript stored in parts (`StoredHead`). */
const HEAD_KEY = 'protoplay:kept-session:v3';
/** Part `n` of it (`StoredPart`); the scope stays at the key's end (`forgetScope`). */
const partKey = (n: number) => scopedKey(`protoplay:kept-session-part:v3:${n}`);

/** What is stored of a transcript kept in parts, besides the parts. */
interface StoredHead {
  session: string;
  /** How many parts are stored (keys 0 to parts - 1). */
  parts: number;
  head: string;
  connections: string;
  unfinished: boolean;
  /** Bytes of the parts' text so far (UTF-8). */
  bytes: number;
}

type StoredPart = Pick<JournalPart, 'messages' | 'annotations'>;

/** idb-keyval's own database and object store, for reads and writes that must be one transaction. */
let keyvalStore: ReturnType<typeof createStore> | undefined;
const transcriptStore = () => (keyvalStore ??= createStore('keyval-store', 'keyval'));

const isHead = (value: unknown): value is StoredHead =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredHead).session === 'string' &&
  Number.isInteger((value as StoredHead).parts) &&
  typeof (value as StoredHead).head === 'string' &&
  typeof (value as StoredHead).connections === 'string';

const isPart = (value: unknown): value is StoredPart =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredPart).messages === 'string' &&
  typeof (value as StoredPart).annotations === 'string';

/** Deletes, in `store`'s transaction, the transcript kept in parts that `head` describes. */
function deleteParts(store: IDBObjectStore, head: unknown): void {
  if (isHead(head)) for (let n = 0; n < head.parts; n++) store.delete(partKey(n));
  store.delete(scopedKey(HEAD_KEY));
}

/** Reads one key in `store`'s transaction. */
const read = (store: IDBObjectStore, key: string) => promisifyRequest<unknown>(store.get(key));

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
    const [stored, unfinished, head] = await getMany<unknown>([
      scopedKey(KEY),
      scopedKey(UNFINISHED_KEY),
      scopedKey(HEAD_KEY),
    ]);
    if (isHead(head)) {
      const parts = await getMany<unknown>(Array.from({ length: head.parts }, (_, n) => partKey(n)));
      // A part missing or mangled (storage cleared under the page): the rest still opens, and is checked.
      const json = assembleJournal(head, parts.filter(isPart));
      return { json: new Blob(json, { type: 'application/json' }), unfinished: head.unfinished };
    }
    return stored instanceof Blob ? { json: stored, unfinished: unfinished === true } : undefined;
  } catch {
    return undefined;
  }
}

/** The result of `keepTranscriptPart`: how it went, and why it was not kept. */
export interface PartOutcome {
  outcome: JournalOutcome;
  /** Why not (`not-kept`), in words for the learner. */
  reason?: string;
}

/**
 * Adds a part to the transcript kept in parts: part 0 replaces whatever is stored (a transcript in
 * either form), a later part follows the one before of the same session, in one transaction with the
 * head. A part that does not follow (another session's transcript was stored meanwhile) is `replaced`.
 * A part not kept (the size limit, or the browser's storage refused it) forgets what was stored: a
 * reload must not show a transcript that silently misses a part; the keeper then starts afresh.
 */
export async function keepTranscriptPart(
  part: JournalPart,
  maxBytes = MAX_STORED_TRANSCRIPT_BYTES,
): Promise<PartOutcome> {
  const bytes = new Blob([part.messages, part.annotations, part.head, part.connections]).size;
  let reason: string | undefined;
  let total = bytes;
  try {
    const outcome = await transcriptStore()('readwrite', async (store) => {
      const head = await read(store, scopedKey(HEAD_KEY));
      if (part.index > 0 && (!isHead(head) || head.session !== part.session || head.parts !== part.index))
        return 'replaced' as const;
      total = part.index > 0 && isHead(head) ? head.bytes + bytes : bytes;
      if (total > maxBytes) {
        deleteParts(store, head);
        await promisifyRequest(store.transaction);
        return 'not-kept' as const;
      }
      if (part.index === 0) {
        deleteParts(store, head);
        store.delete(scopedKey(KEY));
        store.delete(scopedKey(UNFINISHED_KEY));
      }
      const stored: StoredPart = { messages: part.messages, annotations: part.annotations };
      const next: StoredHead = {
        session: part.session,
        parts: part.index + 1,
        head: part.head,
        connections: part.connections,
        unfinished: part.unfinished,
        bytes: total,
      };
      store.put(stored, partKey(part.index));
      store.put(next, scopedKey(HEAD_KEY));
      await promisifyRequest(store.transaction);
      return 'kept' as const;
    });
    if (outcome !== 'not-kept') return { outcome };
    reason = `at ${(total / 1024 / 1024).toFixed(1)} MB it is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB the page keeps`;
  } catch (error) {
    const size = `${(total / 1024 / 1024).toFixed(1)} MB`;
    reason = isQuotaExceeded(error)
      ? `the browser refused to store its ${size} (storage quota exceeded)`
      : describeStorageFailure(error);
  }
  try {
    await transcriptStore()('readwrite', async (store) => {
      deleteParts(store, await read(store, scopedKey(HEAD_KEY)));
      await promisifyRequest(store.transaction);
    });
  } catch {
    // Nothing stored can be forgotten either: a reload then finds nothing, or what it finds is checked.
  }
  return { outcome: 'not-kept', reason };
}

/**
 * Keeps a transcript's JSON for the next reload, `unfinished` when its session is still going. Resolves
 * with why it was not kept (too large, or the browser's storage refused it, e.g. over its quota), or
 * undefined when it was. A transcript not kept also forgets the one stored before: a reload must not show
 * an older session as the last one.
 */
export async function keepLastTranscript(
  transcript: Blob | { bytes: number },
  maxBytes = MAX_STORED_TRANSCRIPT_BYTES,
  unfinished = false,
): Promise<string | undefined> {
  // A transcript too large to keep comes as its size alone (`{ bytes }`, measured where its text is, see
  // `utf8Length`): the Blob of a 100 MB transcript costs its thread a second or more, for nothing.
  const bytes = transcript instanceof Blob ? transcript.size : transcript.bytes;
  const size = `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  let reason: string;
  if (bytes > maxBytes) {
    reason = `at ${size} it is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB the page keeps`;
  } else {
    if (!(transcript instanceof Blob))
      throw new Error(`a transcript of ${size} was measured without its text: nothing to store`);
    try {
      // One transaction: the transcript and its flag are stored together or not at all, and replace a
      // transcript kept in parts.
      await transcriptStore()('readwrite', async (store) => {
        const head = await read(store, scopedKey(HEAD_KEY));
        deleteParts(store, head);
        store.put(transcript, scopedKey(KEY));
        store.put(unfinished, scopedKey(UNFINISHED_KEY));
        await promisifyRequest(store.transaction);
      });
      return undefined;
    } catch (error) {
      reason = isQuotaExceeded(error)
        ? `the browser refused to store its ${size} (storage quota exceeded)`
        : describeStorageFailure(error);
    }
  }
  try {
    await delMany([scopedKey(KEY), scopedKey(UNFINISHED_KEY), scopedKey(HEAD_KEY)]);
  } catch {
    // Nothing stored can be forgotten either: a reload then finds nothing, or what it finds is checked.
  }
  return reason;
}

/** The UTF-8 size of texts: their length where they are ASCII (nearly always), counted where they are not. */
export function utf8Length(texts: readonly string[]): number {
  let bytes = 0;
  for (const text of texts) {
    bytes += text.length;
    if (!NOT_ASCII.test(text)) continue;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x80) continue;
      if (code < 0x800) bytes += 1;
      else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        // A surrogate pair: 4 bytes for 2 code units; a lone surrogate is written as U+FFFD (3 bytes).
        if (next >= 0xdc00 && next <= 0xdfff) {
          bytes += 2;
          i++;
        } else bytes += 2;
      } else bytes += 2;
    }
  }
  return bytes;
}

const NOT_ASCII = /[\u0080-\uffff]/;
