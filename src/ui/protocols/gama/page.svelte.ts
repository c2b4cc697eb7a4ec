/**
 * GAMA's page state: the session settings besides the shell's workspace (cycles, observation, terminal,
 * quirks, batch mode), kept in storage and in the share link, the scavenger the views follow, and how a
 * run is started (the shell's scenario, episodes as rounds, seed and policy, with these settings).
 */
import type { GamaEvaluationSettings } from '../../../core/protocols/gama/evaluation';
import {
  DEFAULT_GAMA_SESSION_OPTIONS,
  sanitizeGamaOptions,
  type GamaSessionOptions,
} from '../../../core/protocols/gama/playground/options';
import { gamaProtocol } from '../../../core/protocols/gama/protocol';
import { PROTOCOLS } from '../../../core/protocols/registry';
import { loadProtocolState, storeProtocolState } from '../../../storage/workspace-storage';
import { storeActivity } from '../../../state/store-activity.svelte';
import type { ProtocolPage, Shell } from '../adapter';
import { gamaLinkFragment, gamaOptionsFromLink } from './link';

/** The GAMA page. */
export class GamaPage implements ProtocolPage {
  options = $state<GamaSessionOptions>({ ...DEFAULT_GAMA_SESSION_OPTIONS, cycles: 300 });
  /** The scavenger whose observation is shown. */
  scavenger = $state('Scav. 1');
  readonly shareDescription = 'it opens this scenario, the GAMA settings, seed, episodes and policy.';
  readonly #shell: Shell;

  constructor(shell: Shell) {
    this.#shell = shell;
  }

  get lastNote(): string | undefined {
    return this.#shell.session.transcript.notes.findLast((n) => n.kind === 'note' || n.kind === 'violation')
      ?.text;
  }

  /** Stored settings, then a link's on top. */
  async restore(fragment: string): Promise<void> {
    const stored = await loadProtocolState(gamaProtocol.id, 'settings').catch(() => undefined);
    if (stored) this.options = sanitizeGamaOptions(stored);
    const shared = gamaOptionsFromLink(fragment);
    if (shared) this.options = sanitizeGamaOptions({ ...this.options, ...shared });
  }

  keep(): () => void {
    this.#adoptWorkspace();
    const data = $state.snapshot(this.options);
    return storeActivity.later(() => storeProtocolState(gamaProtocol.id, 'settings', data), 400);
  }

  /**
   * Back from another protocol, the shell's workspace still holds that protocol's environment, and maybe
   * its untouched sample: GAMA's default scenario and sample replace them (code the learner wrote stays).
   */
  #adoptWorkspace(): void {
    const workspace = this.#shell.workspace;
    if (!gamaProtocol.environments.some((e) => e.id === workspace.environment))
      workspace.environment = gamaProtocol.defaultEnvironment;
    const code = workspace.code;
    const foreignSample = PROTOCOLS.some(
      (p) => p.id !== gamaProtocol.id && p.samples.some((sample) => sample.code === code),
    );
    const sample = gamaProtocol.samples.find((s) => s.id === gamaProtocol.defaultSample);
    if (sample && (foreignSample || code.trim() === ''))
      workspace.replaceCode(sample.code, sample.language, sample.level);
  }

  /** Changes a setting (for the next run). */
  set<K extends keyof GamaSessionOptions>(key: K, value: GamaSessionOptions[K]): void {
    this.options = sanitizeGamaOptions({ ...this.options, [key]: value });
  }

  async run(startPaused: boolean): Promise<void> {
    await this.#shell.run({ startPaused, options: $state.snapshot(this.options) });
  }

  evaluationSettings(): Promise<GamaEvaluationSettings> {
    const { cycles, observation, sendTerminal, faithfulQuirks } = this.options;
    return Promise.resolve({
      scenario: this.#shell.workspace.environment,
      maxCycles: cycles,
      observation: { kind: observation },
      sendTerminal,
      faithfulQuirks,
    });
  }

  shareFragment(): string {
    return gamaLinkFragment(this.options);
  }
}
