/**
 * Start-up and keeping state: restore the workspace, settings and last transcript from storage, let a
 * shared link override them, then keep storage and the URL up to date as the learner works.
 */
import type { PolicyLanguage, PolicyLevel } from '../core/policy/types';
import { loadStoredState, storeTranscript, storeWorkspace } from '../state/persistence';
import { protocolOrDefault } from '../core/protocols/registry';
import type { Session } from '../state/session.svelte';
import type { Settings } from '../state/settings.svelte';
import { decodeSharedConfig, encodeSharedConfig } from '../state/share';
import type { Workspace, WorkspaceData } from '../state/workspace.svelte';

interface AppState {
  workspace: Workspace;
  settings: Settings;
  session: Session;
}

/** A workspace from untrusted data, completed with the protocol's defaults. */
function sanitizeWorkspace(data: Partial<WorkspaceData> | undefined): WorkspaceData {
  const adapter = protocolOrDefault(data?.protocol ?? 'rddlsim');
  const sample = adapter.samples.find((s) => s.id === adapter.defaultSample) ?? adapter.samples[0];
  const environment = adapter.environments.some((e) => e.id === data?.environment)
    ? data!.environment!
    : adapter.defaultEnvironment;
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

/** Restores stored state, then applies the configuration in the URL fragment, if any, on top. */
export async function restoreState({ workspace, settings, session }: AppState): Promise<void> {
  const stored = await loadStoredState();
  workspace.apply(sanitizeWorkspace(stored.workspace));
  settings.apply(stored.settings ?? {});
  if (stored.transcript)
    session.show(stored.transcript, protocolOrDefault(stored.transcript.protocol), 'restored');

  const shared = decodeSharedConfig(location.hash);
  if (shared) {
    const base = workspace.toData();
    const protocolChanged = shared.protocol !== undefined && shared.protocol !== base.protocol;
    workspace.apply(
      sanitizeWorkspace({
        protocol: shared.protocol ?? base.protocol,
        environment: shared.environment ?? (protocolChanged ? undefined : base.environment),
        ...(shared.code !== undefined
          ? { code: shared.code, language: shared.language ?? base.language, level: shared.level ?? 'policy' }
          : protocolChanged
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
  const timer = setTimeout(
    () => void storeWorkspace(workspaceData, settingsData).catch(() => undefined),
    300,
  );
  return () => clearTimeout(timer);
}

/**
 * Writes the transcript on screen to storage once the session is quiet (paused, finished, stopped, or a
 * transcript was loaded). Not while it runs: storing copies the whole transcript, which for a long session
 * would stall the page every time.
 */
export class TranscriptSaver {
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #session: Session;

  constructor(session: Session) {
    this.#session = session;
  }

  /** Notes a change; `active` says whether the session is still under way. */
  changed(active: boolean): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (active && this.#session.phase === 'running') return;
    if (this.#session.workerKeepsTranscript && this.#session.transcript.origin === 'live') return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void storeTranscript(this.#session.transcript.transcript).catch(() => undefined);
    }, 200);
  }
}

/**
 * The shareable link of the current configuration; `extraFragment` adds a protocol's own parameters
 * (`a=1&b=2`, e.g. rddlsim's edited RDDL).
 */
export function shareLink(
  { workspace, settings }: Pick<AppState, 'workspace' | 'settings'>,
  extraFragment = '',
): string {
  const fragment = encodeSharedConfig({
    protocol: workspace.protocol,
    environment: workspace.environment,
    seed: settings.seed,
    rounds: settings.rounds,
    language: workspace.language,
    level: workspace.level,
    code: workspace.code,
  });
  return `${location.origin}${location.pathname}#${[fragment, extraFragment].filter(Boolean).join('&')}`;
}

/**
 * Keeps the URL fragment equal to the shareable configuration (debounced, without adding history entries),
 * so the address bar can be copied at any time and a reload reopens the same configuration. Call inside an
 * effect, like `keepStored`.
 */
export function keepUrlInSync(
  state: Pick<AppState, 'workspace' | 'settings'>,
  extraFragment = '',
): () => void {
  const link = shareLink(state, extraFragment);
  const timer = setTimeout(() => history.replaceState(history.state, '', link), 500);
  return () => clearTimeout(timer);
}
