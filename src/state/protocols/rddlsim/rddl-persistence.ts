/**
 * Keeping the RDDL across reloads and links: the drafts (edited examples, opened files), the domain shown
 * and the quirks switch are stored in IndexedDB (through idb-keyval, beside the workspace); at start-up
 * they are restored, then a shared link's RDDL, if any, is applied on top.
 */
import { get, set } from 'idb-keyval';
import { scopedKey } from '../../../storage/storage-scope';
import { decodeSharedConfig } from '../../share';
import type { Workspace } from '../../workspace.svelte';
import { storeActivity } from '../../store-activity.svelte';
import {
  RDDL_FILES_ENVIRONMENT,
  sanitizeStoredRddl,
  type RddlDocuments,
  type RddlStoredState,
} from './rddl-documents.svelte';
import { decodeRddlShare, encodeRddlShare } from './rddl-share';

const KEY = 'protoplay:rddl:v1';

/** The stored RDDL state, sanitised; undefined when nothing (readable) is stored. */
export async function loadStoredRddl(): Promise<RddlStoredState | undefined> {
  try {
    return sanitizeStoredRddl(await get<unknown>(scopedKey(KEY)));
  } catch {
    return undefined;
  }
}

/** Stores the RDDL state. */
export async function storeRddl(state: RddlStoredState): Promise<void> {
  await set(scopedKey(KEY), state);
}

/**
 * Restores the RDDL at start-up, after the workspace: stored drafts first, then the link's RDDL. A link
 * naming a built-in domain (`e=`) without texts shows that domain; otherwise the domain stored last is
 * shown, opened files included. The workspace's environment follows the domain shown.
 */
export async function restoreRddl(
  documents: RddlDocuments,
  workspace: Workspace,
  fragment: string,
): Promise<void> {
  const stored = await loadStoredRddl();
  if (stored) documents.restore(stored);
  const shared = decodeRddlShare(fragment);
  if (shared?.quirks !== undefined) documents.quirks = shared.quirks;
  const linked = decodeSharedConfig(fragment)?.environment;
  if (shared?.draft && shared.environment) documents.applyShared(shared.environment, shared.draft);
  else if (linked && linked !== RDDL_FILES_ENVIRONMENT) documents.choose(workspace.environment);
  else if (!stored) documents.choose(workspace.environment);
  if (workspace.protocol === 'rddlsim') workspace.environment = documents.environment;
}

/**
 * Stores the RDDL state shortly after it changes. Call inside an effect: it reads what it stores, so the
 * effect re-runs on every change, and the returned cleanup cancels the pending write.
 */
export function keepRddlStored(documents: RddlDocuments): () => void {
  const state = documents.toStored();
  return storeActivity.later(() => storeRddl(state), 300);
}

/** The RDDL part of the shareable link (URL fragment parameters), for the domain shown now. */
export function rddlShareFragment(documents: RddlDocuments): string {
  const draft = documents.sharedDraft();
  return encodeRddlShare({
    ...(draft ? { environment: documents.environment, draft } : {}),
    quirks: documents.quirks,
  });
}
