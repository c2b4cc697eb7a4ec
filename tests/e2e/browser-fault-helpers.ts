import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { exportAs } from './playground-page';

/** Helpers of the browser fault tests: what the page shows, exports and stored for a reload. */

export async function ready(page: Page): Promise<void> {
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
}

/** The messages of the Protoplay JSON export of what is on show. */
export async function exportedMessages(page: Page): Promise<{ type?: string; text?: string }[]> {
  const [file] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const json = JSON.parse(readFileSync(await file.path(), 'utf8')) as { messages: { text?: string }[] };
  return json.messages;
}

/** The shown message count of the status line. */
export async function shownCount(page: Page): Promise<number> {
  const text = await page.getByText(/^[\d,.]+ messages$/).textContent();
  return Number(text!.replace(/\D/g, ''));
}

/** The transcript the page stored for a reload: its message count, and whether it was marked unfinished. */
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
          const blob = store.get('protoplay:last-transcript:v2');
          const flag = store.get('protoplay:unfinished-session:v1');
          flag.onsuccess = () => {
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
