import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { exportAs } from './playground-page';

/** Helpers of the browser fault tests: what the page shows, exports and stored for a reload. */

export async function ready(page: Page): Promise<void> {
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
}

/** The Protoplay JSON export of what is on show: its messages and annotations. */
export async function exportedTranscript(page: Page): Promise<{
  messages: { type?: string; text?: string }[];
  annotations: { type: string; data?: { source?: string; message?: string } }[];
}> {
  const [file] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  return JSON.parse(readFileSync(await file.path(), 'utf8')) as Awaited<
    ReturnType<typeof exportedTranscript>
  >;
}

/** The messages of the Protoplay JSON export of what is on show. */
export async function exportedMessages(page: Page): Promise<{ type?: string; text?: string }[]> {
  return (await exportedTranscript(page)).messages;
}

/** The page's stored value under `key` (its IndexedDB key-value store), undefined when there is none. */
export function storedValue(page: Page, key: string): Promise<unknown> {
  return page.evaluate(
    (key) =>
      new Promise<unknown>((done) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => done(undefined);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('keyval')) return done(undefined);
          const read = db.transaction('keyval').objectStore('keyval').get(key);
          read.onsuccess = () => done(read.result);
          read.onerror = () => done(undefined);
        };
      }),
    key,
  );
}

/** Stores `value` under `key` in the page's IndexedDB key-value store, as the page itself stores. */
export function storeValue(page: Page, key: string, value: unknown): Promise<void> {
  return page.evaluate(
    ({ key, value }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('keyval', 'readwrite');
          tx.objectStore('keyval').put(value, key);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
    { key, value },
  );
}

/** The shown message count of the status line. */
export async function shownCount(page: Page): Promise<number> {
  const text = await page.getByText(/^[\d,.]+ messages$/).textContent();
  return Number(text!.replace(/\D/g, ''));
}

/**
 * True once the page has stored the running session for a reload with messages in it, marked unfinished.
 * A session stores every so often from its start: its first store may come before its first message.
 */
export async function storedWhileRunning(page: Page): Promise<boolean> {
  const kept = await stored(page);
  return kept?.unfinished === true && kept.messages > 0;
}

/**
 * The transcript the page stored for a reload: its message count, and whether it was marked unfinished.
 * A live session's is stored in parts (a head, then parts of messages, see `transcript-storage.ts`); an
 * imported one's as one file.
 */
export function stored(page: Page): Promise<{ messages: number; unfinished: boolean } | undefined> {
  return page.evaluate(
    () =>
      new Promise<{ messages: number; unfinished: boolean } | undefined>((done) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => done(undefined);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('keyval')) return done(undefined);
          const store = db.transaction('keyval', 'readonly').objectStore('keyval');
          const head = store.get('protoplay:kept-session:v3');
          const blob = store.get('protoplay:last-transcript:v2');
          const flag = store.get('protoplay:unfinished-session:v1');
          flag.onsuccess = () => {
            const kept = head.result as { parts: number; unfinished: boolean } | undefined;
            if (kept) {
              const parts = Array.from({ length: kept.parts }, (_, n) =>
                store.get(`protoplay:kept-session-part:v3:${n}`),
              );
              parts.at(-1)!.onsuccess = () => {
                const lists = parts.map((part) => (part.result as { messages: string }).messages);
                const messages = (JSON.parse(`[${lists.filter(Boolean).join(',')}]`) as unknown[]).length;
                done({ messages, unfinished: kept.unfinished });
              };
              return;
            }
            if (!(blob.result instanceof Blob)) return done(undefined);
            void (blob.result as Blob).text().then((text) => {
              const messages = (JSON.parse(text) as { messages: unknown[] }).messages.length;
              done({ messages, unfinished: flag.result === true });
            });
          };
        };
      }),
  );
}

/** The channel the test's storage quota listens on, in the page and in each of its workers. */
const QUOTA_CHANNEL = 'protoplay-test-storage-quota';

/**
 * Makes the page's storage full on demand, in the page and in its workers (the session worker stores a
 * live session's transcript), the way a real browser reports it: each write is queued by the real
 * IndexedDB, then its transaction aborts with a `QuotaExceededError` as its `error` (the request's error
 * event bubbles to the transaction, then `abort` fires), so the product meets the failure on the same
 * path as over a real quota. Installed before the page's scripts and prepended to the workers' module
 * scripts (served by the test, with service workers blocked so the requests reach it). `setStorageFull`
 * switches it; every refused write is counted in the page (`refusedWrites`).
 */
export async function installStorageQuota(page: Page): Promise<void> {
  const script = `(${quotaFault.toString()})(${JSON.stringify(QUOTA_CHANNEL)});\n`;
  await page.addInitScript({ content: script });
  await page.route(/\/assets\/[\w.-]*worker[\w.-]*\.js(\?.*)?$/, async (route) => {
    try {
      const response = await route.fetch();
      await route.fulfill({ response, body: script + (await response.text()) });
    } catch (error) {
      // A worker started as the test ends needs no script: the page is closing, or its context already
      // disposed of the response. Anything else is a failure of the test's own plumbing.
      const ending = page.isClosed() || /disposed|closed/i.test(String(error));
      if (!ending) throw error;
      await route.abort().catch(() => undefined);
    }
  });
}

/** Fills the storage (`true`) or frees it again, everywhere. */
export async function setStorageFull(page: Page, full: boolean): Promise<void> {
  await page.evaluate(([channel, value]) => new BroadcastChannel(channel).postMessage({ full: value }), [
    QUOTA_CHANNEL,
    full,
  ] as const);
}

/** How many writes the full storage refused so far (in the page and its workers). */
export function refusedWrites(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as { refusedWrites?: number }).refusedWrites ?? 0);
}

/** Runs in the page and in every worker, before their own code. */
function quotaFault(channelName: string): void {
  const scope = globalThis as typeof globalThis & { refusedWrites?: number };
  scope.refusedWrites = 0;
  let full = false;
  const channel = new BroadcastChannel(channelName);
  channel.onmessage = (event: MessageEvent<{ full?: boolean; refused?: boolean }>) => {
    if (typeof event.data.full === 'boolean') full = event.data.full;
    if (event.data.refused) scope.refusedWrites! += 1;
  };
  const refusing = new WeakSet<IDBTransaction>();
  const refuse = (transaction: IDBTransaction) => {
    if (refusing.has(transaction)) return;
    refusing.add(transaction);
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    Object.defineProperty(transaction, 'error', { configurable: true, get: () => quota });
    scope.refusedWrites! += 1;
    channel.postMessage({ refused: true });
    // After the caller has queued all its writes and listens: the transaction then aborts.
    queueMicrotask(() => transaction.abort());
  };
  for (const method of ['put', 'add'] as const) {
    const original = IDBObjectStore.prototype[method];
    IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: [unknown, IDBValidKey?]) {
      const request = original.apply(this, args);
      if (full) refuse(this.transaction);
      return request;
    };
  }
}

/** The message count of the status line (`1,234 messages`, `12.3k messages`). */
export async function shownMessages(page: Page): Promise<number> {
  const text = await page.getByText(/^[\d,.]+k? messages$/).textContent();
  const [, digits, thousands] = /^([\d,.]+)(k?)/.exec(text ?? '')!;
  return Number(digits!.replace(/,/g, '')) * (thousands ? 1000 : 1);
}

/**
 * The page's query that installs the benchmark hooks (`src/app/bench-hook.ts`), among them the one that
 * sets how often a running session stores its transcript for a reload.
 */
export const WITH_HOOKS = '?bench';

/**
 * Has the sessions started from now on store their transcript every `ms` while running, instead of the
 * product's every five seconds (`KEEP_WHILE_RUNNING_MS`), through the hook of a page opened with
 * `WITH_HOOKS`. The tests that wait for such stores (a reload mid-session, the storage full while a
 * session runs) see the same stores on the same path, without waiting five seconds for each.
 */
export async function storeWhileRunningEvery(page: Page, ms = 1000): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => 'protoplayKeepWhileRunning' in window), { timeout: 30_000 })
    .toBe(true);
  await page.evaluate(
    (every) =>
      (
        window as unknown as { protoplayKeepWhileRunning: (ms: number) => Promise<void> }
      ).protoplayKeepWhileRunning(every),
    ms,
  );
}
