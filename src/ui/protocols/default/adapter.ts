/**
 * The page side of a protocol that brings no views of its own: the standard workbench (one policy, the
 * reward chart, the state panel, the messages and console) with an environment picker in the header.
 */
import type { Protocol } from '../../../core/protocols/contract';
import { PROTOCOLS } from '../../../core/protocols/registry';
import { pageAdapter, type ProtocolPage, type Shell, type AnyPageAdapter } from '../adapter';
import Header from './Header.svelte';
import Workbench from './Workbench.svelte';

/** A page that plays the shell's workspace as it is. */
export class StandardPage implements ProtocolPage {
  readonly shareDescription = 'it opens this protocol, environment, seed, rounds and policy.';
  readonly #shell: Shell;

  constructor(shell: Shell) {
    this.#shell = shell;
  }

  get lastNote(): string | undefined {
    return this.#shell.session.transcript.notes.findLast((n) => n.kind === 'note' || n.kind === 'violation')
      ?.text;
  }

  async restore(): Promise<void> {}

  /**
   * Back from another protocol, the shell's workspace still holds that protocol's environment, and maybe
   * its untouched sample: this protocol's default environment and sample replace them (code the learner
   * wrote stays). Nothing of its own to store.
   */
  keep(): void {
    const protocol = this.#shell.protocol;
    const workspace = this.#shell.workspace;
    if (!protocol.environments.some((e) => e.id === workspace.environment))
      workspace.environment = protocol.defaultEnvironment;
    const code = workspace.code;
    const foreignSample = PROTOCOLS.some(
      (p) => p.id !== protocol.id && p.samples.some((sample) => sample.code === code),
    );
    const sample = protocol.samples.find((s) => s.id === protocol.defaultSample);
    if (sample && (foreignSample || code.trim() === ''))
      workspace.replaceCode(sample.code, sample.language, sample.level);
  }

  async run(startPaused: boolean): Promise<void> {
    await this.#shell.run({ startPaused });
  }

  shareFragment(): string {
    return '';
  }
}

/** The standard page adapter of a protocol. */
export function defaultPageAdapter(protocol: Protocol): AnyPageAdapter {
  return pageAdapter({
    protocol,
    usesShellWorkspace: true,
    createPage: (shell) => new StandardPage(shell),
    Header,
    Workbench,
  });
}
