/**
 * RDDLSim's page state: the RDDL texts the learner edits, opens and checks (with their language service),
 * which editor tab is shown, the quirks switch, and what a run sends besides the shell's workspace (the
 * RDDL as edited). Kept in storage and in the share link.
 */
import { untrack } from 'svelte';
import { formatLocated } from '../../../core/errors';
import { rddlsimProtocol } from '../../../core/protocols/rddlsim/protocol';
import { starterPolicyDomain } from '../../../core/protocols/rddlsim/starter-policy';
import { fittingSample, isSampleOfAnotherDomain } from '../../../state/fitting-sample';
import type { RddlSessionSource } from '../../../core/protocols/rddlsim/playground/runner';
import { RddlDocuments } from '../../../state/protocols/rddlsim/rddl-documents.svelte';
import { RddlLanguageClient } from '../../../state/protocols/rddlsim/rddl-language-client';
import {
  keepRddlStored,
  rddlShareFragment,
  restoreRddl,
} from '../../../state/protocols/rddlsim/rddl-persistence';
import type { ProtocolPage, Shell } from '../adapter';
import { createRddlLanguageWorker } from './language-worker';

/** The RDDLSim page. */
export class RddlsimPage implements ProtocolPage {
  readonly language = new RddlLanguageClient(createRddlLanguageWorker);
  readonly documents = new RddlDocuments({ language: this.language });
  /** The RDDL text shown in the editor, or undefined for the policy. */
  editorTab = $state<string | undefined>();
  /** The RDDL editor is created the first time an RDDL tab is shown, then kept. */
  rddlEditorWanted = $state(false);
  readonly shareDescription = 'it opens this protocol, domain, seed, rounds and policy.';
  readonly #shell: Shell;
  /** The domain whose policy was last fitted (see `#fitPolicy`). */
  #fittedFor: string | undefined;

  constructor(shell: Shell) {
    this.#shell = shell;
  }

  /** The RDDL file shown in the editor, or undefined while the policy is. */
  get shownFile(): string | undefined {
    if (this.editorTab === undefined) return undefined;
    return (this.documents.files.find((f) => f.name === this.editorTab) ?? this.documents.files[0])?.name;
  }

  get problem(): string | undefined {
    const first = this.documents.errors[0];
    return first ? `RDDL: ${formatLocated(first.message, first.location)}` : undefined;
  }

  get lastNote(): string | undefined {
    return this.#shell.session.transcript.notes.findLast((n) => n.kind === 'note' || n.kind === 'violation')
      ?.text;
  }

  async restore(fragment: string): Promise<void> {
    await restoreRddl(this.documents, this.#shell.workspace, fragment);
  }

  keep(): () => void {
    const workspace = this.#shell.workspace;
    // Back from another protocol, the RDDL domain shown is the one played.
    if (workspace.environment !== this.documents.environment)
      workspace.environment = this.documents.environment;
    this.#fitPolicy();
    return keepRddlStored(this.documents);
  }

  /**
   * Once a newly shown domain is checked, gives it a policy that fits when the policy is still a starting
   * point made for another domain (another domain's sample or starting policy, or the generic fallback
   * picked for a domain without a sample): the domain's own sample, or a starting policy generated from
   * its action fluents.
   */
  #fitPolicy(): void {
    const starter = this.documents.starterPolicy;
    const environment = this.documents.environment;
    if (starter === undefined || this.#shell.workspace.protocol !== rddlsimProtocol.id) return;
    const domain = starterPolicyDomain(starter);
    const shownFor = `${environment}/${domain}`;
    if (shownFor === this.#fittedFor) return;
    this.#fittedFor = shownFor;
    untrack(() => {
      const workspace = this.#shell.workspace;
      const { samples, defaultSample } = rddlsimProtocol;
      const fitting = fittingSample(samples, defaultSample, environment);
      const own = fitting?.environments?.includes(environment) ? fitting : undefined;
      const code = workspace.code;
      const startingPoint =
        isSampleOfAnotherDomain(samples, code, environment) ||
        (starterPolicyDomain(code) !== undefined && code !== starter) ||
        (!own && code === fitting?.code);
      if (!startingPoint) return;
      if (own) workspace.replaceCode(own.code, own.language, own.level);
      else workspace.replaceCode(starter, 'ts', 'policy');
    });
  }

  async run(startPaused: boolean): Promise<void> {
    const refusal = await this.documents.runRefusal();
    if (refusal) {
      this.#shell.notify(refusal);
      const first = this.documents.errors[0]?.location.source;
      if (first) this.showTab(first);
      return;
    }
    const options: RddlSessionSource = this.documents.sessionSource();
    await this.#shell.run({ startPaused, options });
  }

  async evaluationSettings(): Promise<unknown> {
    const refusal = await this.documents.runRefusal();
    if (refusal) throw new Error(refusal);
    return this.documents.sessionSource();
  }

  shareFragment(): string {
    return rddlShareFragment(this.documents);
  }

  /** Shows an editor tab: a file's name, or '' for the policy. */
  showTab(id: string): void {
    this.editorTab = id || undefined;
    if (this.editorTab !== undefined) this.rddlEditorWanted = true;
  }

  /** Shows a built-in domain. */
  choose(environment: string): void {
    this.documents.choose(environment);
    this.#shell.workspace.environment = this.documents.environment;
  }

  /** Opens RDDL texts handed over by a course page (the embedding API's `load`). */
  openTexts(files: { name: string; text: string }[]): void {
    this.open(files);
  }

  /** Opens RDDL files from disk. */
  open(files: { name: string; text: string }[]): void {
    this.documents.open(files);
    this.#shell.workspace.environment = this.documents.environment;
    this.showTab(files[0]!.name);
    this.#shell.notify(`Opened ${files.map((f) => f.name).join(', ')}`);
  }
}
