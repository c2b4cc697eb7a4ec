/**
 * The page side of a protocol that brings no views of its own: the standard workbench (one policy, the
 * reward chart, the state panel, the messages and console) with an environment picker in the header.
 */
import type { Protocol } from '../../../core/protocols/contract';
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
