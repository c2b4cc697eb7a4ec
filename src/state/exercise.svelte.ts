/**
 * The exercise the page is: a plain visit (the page's own storage, a link applied on top of it), or a
 * named or embedded exercise with storage of its own (`storageScopeOf`). An exercise keeps the learner's
 * work: the link's configuration (the teacher's original) is applied only when the exercise has nothing
 * stored yet, so a reload of the course page never wipes an edit; "reset to the original" forgets the
 * exercise's storage and opens the link again.
 */
import { configurationFragment, readEmbedOptions, storageScopeOf, type EmbedOptions } from './embed-options';
import { loadStoredState } from '../storage/workspace-storage';
import { forgetScope, useStorageScope } from '../storage/storage-scope';

/** Marks, across the reload, an exercise whose storage must be forgotten before it is read. */
const RESET_MARK = 'protoplay:reset-exercise';

/** How the page was opened, and whether it resumed the learner's work. */
export class Exercise {
  readonly options: EmbedOptions;
  /** True when the page is in a frame (a course page embeds it). */
  readonly framed: boolean;
  /** The storage scope, or undefined for the page's own storage. */
  readonly scope: string | undefined;
  /** The fragment the page was opened with (the teacher's link). */
  readonly openedFragment: string;
  /** True when the learner's stored work was restored instead of the link's configuration. */
  resumed = $state(false);

  constructor(fragment: string, framed: boolean) {
    this.openedFragment = fragment;
    this.framed = framed;
    this.options = readEmbedOptions(fragment);
    this.scope = storageScopeOf(fragment, framed);
    useStorageScope(this.scope);
  }

  /** True when the exercise keeps storage of its own (and the link is its original, not its state). */
  get ownStorage(): boolean {
    return this.scope !== undefined;
  }

  /**
   * The fragment whose configuration the page applies at start-up: the link's, unless the exercise has
   * stored work (then none: the learner's work stands). Forgets the storage first after a reset.
   */
  async linkToApply(): Promise<string> {
    const configuration = configurationFragment(this.openedFragment);
    if (!this.ownStorage) return configuration;
    if (sessionStorageGet(RESET_MARK) === this.scope) {
      sessionStorageRemove(RESET_MARK);
      await forgetScope().catch(() => undefined);
      return configuration;
    }
    const stored = await loadStoredState();
    this.resumed = stored.workspace !== undefined;
    return this.resumed ? '' : configuration;
  }

  /** Back to the teacher's version: forgets the exercise's storage and reopens the link. */
  async resetToOriginal(): Promise<void> {
    if (!this.ownStorage) return;
    // Forgotten on the next start, before anything is read or a pending write can land; without session
    // storage, forgotten now.
    if (!sessionStorageSet(RESET_MARK, this.scope!)) await forgetScope().catch(() => undefined);
    location.reload();
  }
}

// Session storage may be refused (a sandboxed frame); a refused reset mark only means no reset.
function sessionStorageGet(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function sessionStorageSet(key: string, value: string): boolean {
  try {
    sessionStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

function sessionStorageRemove(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // see above
  }
}
