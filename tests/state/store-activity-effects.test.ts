import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ClientModules, svelteClient } from '../support/svelte-client-module';

/**
 * The page counts its storage writes from inside effects: each keeper effect asks for a debounced write
 * and cancels it in its cleanup when what it stores changes again. This runs the real module on Svelte's
 * client runtime, where cleanups see the state as it was before the current update.
 */

type Activity = {
  pending: number;
  later(write: () => Promise<unknown>, delayMs: number): () => void;
};

/** Two keepers as the page has them: the shell's workspace and the page adapter's own state. */
const KEEPERS = `
export function mountKeepers(activity: any, write: () => Promise<unknown>, workspaceDelayMs: number) {
  const shown = $state({ workspace: 0, page: 'first' });
  const stop = $effect.root(() => {
    $effect(() => {
      void shown.workspace;
      return activity.later(write, workspaceDelayMs);
    });
    // The adapter of another protocol keeps nothing of this one's.
    $effect(() => {
      if (shown.page === 'first') return activity.later(write, 60_000);
    });
  });
  return { shown, stop };
}
`;

async function load(): Promise<{
  activity: Activity;
  mountKeepers: (
    activity: Activity,
    write: () => Promise<unknown>,
    delayMs: number,
  ) => { shown: { workspace: number; page: string }; stop: () => void };
  flushSync: () => void;
}> {
  const modules = new ClientModules();
  const failureUrl = modules.add('storage-failure', readFileSync('src/storage/storage-failure.ts', 'utf8'));
  const activityUrl = modules.add(
    'store-activity',
    readFileSync('src/state/store-activity.svelte.ts', 'utf8'),
    { '../storage/storage-failure': failureUrl },
  );
  const keepersUrl = modules.add('keepers', KEEPERS);
  const { storeActivity } = (await import(activityUrl)) as { storeActivity: Activity };
  const { mountKeepers } = (await import(keepersUrl)) as Awaited<ReturnType<typeof load>>;
  const { flushSync } = await svelteClient();
  return { activity: storeActivity, mountKeepers, flushSync };
}

describe('the page’s storage activity inside effects', () => {
  it('keeps counting right when one keeper asks for a write and another cancels its own in the same update', async () => {
    const { activity, mountKeepers, flushSync } = await load();
    let writes = 0;
    const write = async () => {
      writes++;
    };
    const { shown, stop } = mountKeepers(activity, write, 1);
    flushSync();
    // Both keepers wait; the workspace's write runs soon and ends.
    expect(activity.pending).toBe(2);
    await expect.poll(() => writes).toBe(1);
    await expect.poll(() => activity.pending).toBe(1);

    // One update: the workspace changed (a new write) and another protocol was picked (the page's
    // pending write is cancelled by its effect's cleanup).
    shown.workspace++;
    shown.page = 'second';
    flushSync();
    expect(activity.pending).toBe(1);

    // Once the new write has ended, nothing is pending: the page says everything is stored.
    await expect.poll(() => writes).toBe(2);
    await expect.poll(() => activity.pending).toBe(0);
    stop();
  });
});
