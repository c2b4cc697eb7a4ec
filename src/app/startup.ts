/**
 * Start-up and keeping state: restore the workspace and settings from storage, let a shared link override
 * them, then keep storage and the URL up to date as the learner works.
 */
import type { PolicyLanguage, PolicyLevel } from '../core/policy/types';
import { loadStoredState, storeWorkspace } from '../storage/workspace-storage';
import { protocolOrDefault } from '../core/protocols/registry';
import { fittingSample, isUneditedSample } from '../state/fitting-sample';
import { storeActivity } from '../state/store-activity.svelte';
import type { Settings, SettingsData } from '../state/settings.svelte';
import { decodeSharedConfig, encodeSharedConfig } from '../state/share';
import type { Workspace, WorkspaceData } from '../state/workspace.svelte';

interface AppState {
  workspace: Workspace;
  settings: Settings;
}

/** A workspace from untrusted data, completed with the protocol's defaults. */
function sanitizeWorkspace(data: Partial<WorkspaceData> | undefined): WorkspaceData {
  const adapter = protocolOrDefault(data?.protocol);
  const environment = adapter.environments.some((e) => e.id === data?.environment)
    ? data!.environment!
    : adapter.defaultEnvironment;
  const sample = fittingSample(adapter.samples, adapter.defaultSample, environment);
  const hasCode = typeof data?.code === 'string';
  const language: PolicyLanguage =
    hasCode && (data?.language === 'js' || data?.language === 'ts')
      ? data.language
      : (sample?.language ?? 'ts');
  const level: PolicyLevel =
    hasCode && data?.level === 'wire' ? 'wire' : hasCode ? 'policy' : (sample?.level ?? 'policy');
  return {
    protocol: adapter.id,
    environment,
    code: hasCode ? data!.code! : (sample?.code ?? ''),
    language,
    level,
  };
}

/** What the shell knows of the protocols' pages when it restores. */
export interface RestoreOptions {
  /** The protocol a link naming none belongs to (an older link format), if any. */
  linkProtocol?: string;
  /** False for a protocol that keeps a workspace of its own: its link only picks it. */
  usesShellWorkspace: (protocol: string) => boolean;
  /** The link's configuration to apply on top of storage (empty: none; see `Exercise.linkToApply`). */
  fragment: string;
}

/** Restores stored state, then applies the configuration of the link (`options.fragment`), if any, on top. */
export async function restoreState(state: AppState, options: RestoreOptions): Promise<void> {
  const stored = await loadStoredState();
  state.workspace.apply(sanitizeWorkspace(stored.workspace as Partial<WorkspaceData> | undefined));
  state.settings.apply((stored.settings ?? {}) as Partial<SettingsData>);
  applyLinkedConfiguration(state, options);
}

/** Applies a link's configuration (`options.fragment`) on top of the workspace and settings. */
export function applyLinkedConfiguration(
  { workspace, settings }: AppState,
  { linkProtocol, usesShellWorkspace, fragment }: RestoreOptions,
): void {
  const linked = decodeSharedConfig(fragment);
  const shared = linked?.protocol || !linkProtocol ? linked : { ...linked, protocol: linkProtocol };
  if (shared?.protocol && !usesShellWorkspace(shared.protocol)) {
    workspace.protocol = shared.protocol;
  } else if (shared) {
    const base = workspace.toData();
    const protocolChanged = shared.protocol !== undefined && shared.protocol !== base.protocol;
    const environmentChanged = shared.environment !== undefined && shared.environment !== base.environment;
    workspace.apply(
      sanitizeWorkspace({
        protocol: shared.protocol ?? base.protocol,
        environment: shared.environment ?? (protocolChanged ? undefined : base.environment),
        ...(shared.code !== undefined
          ? { code: shared.code, language: shared.language ?? base.language, level: shared.level ?? 'policy' }
          : protocolChanged ||
              (environmentChanged && isUneditedSample(protocolOrDefault(base.protocol).samples, base.code))
            ? {}
            : { code: base.code, language: base.language, level: base.level }),
      }),
    );
    settings.apply({
      ...(shared.seed !== undefined ? { seed: shared.seed } : {}),
      ...(shared.rounds !== undefined ? { rounds: shared.rounds } : {}),
    });
  }
}

/**
 * Stores the workspace and settings shortly after they change. Call inside an effect: it reads what it
 * stores, so the effect re-runs on every change, and the returned cleanup cancels the pending write.
 */
export function keepWorkspaceStored({
  workspace,
  settings,
}: Pick<AppState, 'workspace' | 'settings'>): () => void {
  const workspaceData = workspace.toData();
  const settingsData = settings.toData();
  return storeActivity.later(() => storeWorkspace(workspaceData, settingsData), 300);
}

/**
 * The shareable link of the current configuration; `extraFragment` adds a protocol's own parameters
 * (`a=1&b=2`, e.g. rddlsim's edited RDDL).
 */
export function shareLink(
  { workspace, settings }: Pick<AppState, 'workspace' | 'settings'>,
  extraFragment = '',
  withWorkspace = true,
): string {
  const fragment = encodeSharedConfig(
    withWorkspace ? sharedWorkspace({ workspace, settings }) : { protocol: workspace.protocol },
  );
  return `${location.origin}${location.pathname}#${[fragment, extraFragment].filter(Boolean).join('&')}`;
}

/** What a link carries of the shell's workspace and settings. */
function sharedWorkspace({ workspace, settings }: Pick<AppState, 'workspace' | 'settings'>) {
  return {
    protocol: workspace.protocol,
    environment: workspace.environment,
    seed: settings.seed,
    rounds: settings.rounds,
    language: workspace.language,
    level: workspace.level,
    code: workspace.code,
  };
}

/**
 * Keeps the URL fragment equal to the shareable configuration (debounced, without adding history entries),
 * so the address bar can be copied at any time and a reload reopens the same configuration. Call inside an
 * effect, like `keepStored`.
 */
export function keepUrlInSync(
  state: Pick<AppState, 'workspace' | 'settings'>,
  extraFragment = '',
  withWorkspace = true,
): () => void {
  const link = shareLink(state, extraFragment, withWorkspace);
  const timer = setTimeout(() => history.replaceState(history.state, '', link), 500);
  return () => clearTimeout(timer);
}
