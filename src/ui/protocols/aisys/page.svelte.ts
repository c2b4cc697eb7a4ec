/**
 * aisys's page state: the session settings besides the shell's workspace (parallel runs, abandon old
 * runs, the real server's bugs), the learner's agent config and the emulated server's accounts made from
 * it, kept in storage (the settings also in the share link, never the config), what the views look at
 * (the agent, the run, the tab), and how a run is started.
 */
import {
  accountFor,
  DEFAULT_AISYS_OPTIONS,
  readAgentConfig,
  sanitizeAisysOptions,
  withAccountFor,
  withPasswordOf,
  type AisysPlaygroundOptions,
} from '../../../core/protocols/aisys/playground/options';
import type { AisysEvaluationSettings } from '../../../core/protocols/aisys/evaluation';
import { aisysProtocol } from '../../../core/protocols/aisys/protocol';
import { PROTOCOLS } from '../../../core/protocols/registry';
import { storeActivity } from '../../../state/store-activity.svelte';
import { loadProtocolState, storeProtocolState } from '../../../storage/workspace-storage';
import type { ProtocolPage, Shell } from '../adapter';
import { aisysLinkFragment, aisysOptionsFromLink } from './link';

/** The views of the side pane. */
export type AisysView = 'runs' | 'run' | 'http';

/** The aisys page. */
export class AisysPage implements ProtocolPage {
  options = $state<AisysPlaygroundOptions>({ ...DEFAULT_AISYS_OPTIONS });
  /** The agent config as the learner pasted or opened it. */
  configText = $state('');
  /** Why the config text cannot be used, located. */
  configError = $state<string | undefined>();
  /** The view on show in the side pane. */
  view = $state<AisysView>('runs');
  /** The run whose history is shown. */
  selectedRun = $state<string | undefined>();
  /** The agent (`env/agent`) the views follow; undefined: the one with most exchanges. */
  channel = $state<string | undefined>();
  readonly shareDescription =
    'it opens this environment, the aisys settings, seed, runs and policy (never your agent config).';
  readonly #shell: Shell;

  constructor(shell: Shell) {
    this.#shell = shell;
  }

  get lastNote(): string | undefined {
    return this.#shell.session.transcript.notes.findLast((n) => n.kind === 'note' || n.kind === 'violation')
      ?.text;
  }

  /**
   * What the emulated server will say about the config's agent: nothing when the account matches, else
   * why the next run will be refused.
   */
  get accountProblem(): string | undefined {
    const config = this.options.config;
    if (!config) return undefined;
    const account = accountFor(this.options.accounts, config);
    if (account && account.pwd !== config.pwd)
      return `The emulated server made ${config.agent} on ${config.env} with another password: the server will answer 401 wrong password, as the real one would.`;
    return undefined;
  }

  /** Stored settings and config, then a link's settings on top. */
  async restore(fragment: string): Promise<void> {
    const stored = (await loadProtocolState(aisysProtocol.id, 'settings').catch(() => undefined)) as
      { options?: unknown; configText?: unknown } | undefined;
    if (stored) {
      this.options = sanitizeAisysOptions(stored.options);
      if (typeof stored.configText === 'string') this.configText = stored.configText;
    }
    const shared = aisysOptionsFromLink(fragment);
    if (shared) this.options = sanitizeAisysOptions({ ...this.options, ...shared });
  }

  keep(): () => void {
    this.#adoptWorkspace();
    const data = { options: $state.snapshot(this.options), configText: this.configText };
    // Counted and reported like the shell's work: a refused write (the storage quota) is said in the page.
    return storeActivity.later(() => storeProtocolState(aisysProtocol.id, 'settings', data), 400);
  }

  /**
   * Back from another protocol, the shell's workspace holds that protocol's environment and maybe its
   * untouched sample: aisys's default environment and sample replace them (code the learner wrote stays).
   */
  #adoptWorkspace(): void {
    const workspace = this.#shell.workspace;
    if (!aisysProtocol.environments.some((e) => e.id === workspace.environment))
      workspace.environment = aisysProtocol.defaultEnvironment;
    const code = workspace.code;
    const foreignSample = PROTOCOLS.some(
      (p) => p.id !== aisysProtocol.id && p.samples.some((sample) => sample.code === code),
    );
    const sample = aisysProtocol.samples.find((s) => s.id === aisysProtocol.defaultSample);
    if (sample && (foreignSample || code.trim() === ''))
      workspace.replaceCode(sample.code, sample.language, sample.level);
  }

  /** Changes a setting (for the next run). */
  set<K extends 'parallelRuns' | 'abandonOldRuns' | 'faithfulBugs'>(key: K, value: boolean): void {
    this.options = { ...this.options, [key]: value };
  }

  /**
   * Uses the config text: the client plays as its agent; the emulated server makes the agent's account
   * (with the config's password) the first time it sees it, and serves the config's environment (a
   * ready-made one by that id, else the environment picked, under the config's name). True when it could.
   */
  applyConfig(text = this.configText): boolean {
    this.configText = text;
    const reading = readAgentConfig(text);
    if (!reading.ok) {
      this.configError = reading.error;
      return false;
    }
    this.configError = undefined;
    const config = reading.config;
    this.options = { ...this.options, config, accounts: withAccountFor(this.options.accounts, config) };
    if (aisysProtocol.environments.some((e) => e.id === config.env))
      this.#shell.workspace.environment = config.env;
    return true;
  }

  /** Plays as the playground's own agent again (the emulated server keeps the config's account). */
  forgetConfig(): void {
    const { config: _config, ...rest } = this.options;
    this.options = rest;
    this.configText = '';
    this.configError = undefined;
  }

  /** Gives the emulated server's account the config's password (a new account, as an admin would). */
  useConfigPassword(): void {
    const config = this.options.config;
    if (config) this.options = { ...this.options, accounts: withPasswordOf(this.options.accounts, config) };
  }

  async run(startPaused: boolean): Promise<void> {
    // A config pasted but not used yet is the one the learner means.
    if (this.configText.trim() && !this.#configInUse() && !this.applyConfig()) {
      this.#shell.notify(`The agent config cannot be used: ${this.configError}`);
      return;
    }
    this.selectedRun = undefined;
    await this.#shell.run({ startPaused, options: $state.snapshot(this.options) });
  }

  /** Whether the config text says what the client plays with now. */
  #configInUse(): boolean {
    const reading = readAgentConfig(this.configText);
    const used = this.options.config;
    return (
      reading.ok &&
      used !== undefined &&
      (['agent', 'env', 'pwd', 'url'] as const).every((key) => reading.config[key] === used[key])
    );
  }

  /**
   * What Evaluate and Compare play: the environment picked, with the parallel runs and the real server's
   * bugs as set (each seed one emulated session of as many runs as asked for).
   */
  evaluationSettings(): Promise<AisysEvaluationSettings> {
    const { parallelRuns, faithfulBugs } = this.options;
    return Promise.resolve({ env: this.#shell.workspace.environment, parallelRuns, faithfulBugs });
  }

  shareFragment(): string {
    return aisysLinkFragment(this.options);
  }
}
