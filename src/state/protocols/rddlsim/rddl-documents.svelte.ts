/**
 * The RDDL texts the learner plays: a built-in example's domain and instance, or files opened from disk,
 * as edited in the editor. Every edit is checked in the language worker shortly after typing stops; the
 * diagnostics, the instances the texts define and the policy types of the chosen instance follow the
 * texts. Edits are kept per environment (a draft), so switching to another domain and back loses nothing.
 */
import { SvelteMap } from 'svelte/reactivity';
import { DEFAULT_EXAMPLE, EXAMPLE_DOMAINS, exampleSources } from '../../../core/envs/rddl/examples';
import type { RddlDiagnostic, RddlSource } from '../../../core/envs/rddl/api';
import { formatLocated } from '../../../core/errors';
import type { RddlSessionSource } from '../../../core/protocols/rddlsim/playground/runner';
import type { RddlLanguageClient } from './rddl-language-client';

/** The environment id of RDDL files opened from disk (built-in examples use their own ids). */
export const RDDL_FILES_ENVIRONMENT = 'rddl-files';

/** The texts of one environment as edited, beside the texts it started from. */
export interface RddlDraft {
  files: RddlSource[];
  /** The chosen instance, when the texts define several. */
  instance?: string;
  /** The texts before any edit: the example's, or the files as opened. */
  original: RddlSource[];
}

/** What is stored across reloads (untrusted when read back: see `sanitizeStoredRddl`). */
export interface RddlStoredState {
  /** The environment shown. */
  environment: string;
  /** Drafts by environment id: edited examples and opened files only. */
  drafts: Record<string, RddlDraft>;
  /** Reproduce rddlsim's evaluation quirks in the simulator. */
  quirks: boolean;
}

/** Options of the documents' checking. */
export interface RddlDocumentsOptions {
  /** The language worker's client. */
  language: RddlLanguageClient;
  /** Quiet time after the last edit before checking, in ms (default 300). */
  debounceMs?: number;
}

function builtInSources(environment: string): RddlSource[] | undefined {
  const example = EXAMPLE_DOMAINS.find((e) => e.id === environment);
  return example ? exampleSources(example) : undefined;
}

function sameTexts(a: readonly RddlSource[], b: readonly RddlSource[]): boolean {
  return a.length === b.length && a.every((file, i) => file.name === b[i]!.name && file.text === b[i]!.text);
}

function isSourceList(value: unknown): value is RddlSource[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (f: unknown) =>
        typeof f === 'object' &&
        f !== null &&
        typeof (f as RddlSource).name === 'string' &&
        typeof (f as RddlSource).text === 'string',
    )
  );
}

/** A draft from untrusted data, or undefined when it is not one. */
export function sanitizeDraft(value: unknown): RddlDraft | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { files, instance, original } = value as Partial<RddlDraft>;
  if (!isSourceList(files)) return undefined;
  return {
    files: files.map(({ name, text }) => ({ name, text })),
    ...(typeof instance === 'string' ? { instance } : {}),
    original: isSourceList(original) ? original.map(({ name, text }) => ({ name, text })) : files,
  };
}

/** Stored RDDL state from untrusted data: unknown environments and malformed drafts are dropped. */
export function sanitizeStoredRddl(value: unknown): RddlStoredState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const data = value as Partial<Record<keyof RddlStoredState, unknown>>;
  const drafts: Record<string, RddlDraft> = {};
  if (typeof data.drafts === 'object' && data.drafts !== null) {
    for (const [environment, draft] of Object.entries(data.drafts)) {
      const clean = sanitizeDraft(draft);
      if (clean && (environment === RDDL_FILES_ENVIRONMENT || builtInSources(environment)))
        drafts[environment] = clean;
    }
  }
  const environment =
    typeof data.environment === 'string' && (builtInSources(data.environment) || drafts[data.environment])
      ? data.environment
      : DEFAULT_EXAMPLE.id;
  return { environment, drafts, quirks: data.quirks === true };
}

/** The RDDL texts of the playground, reactive, with their checking. */
export class RddlDocuments {
  /** The environment shown: a built-in example's id, or `RDDL_FILES_ENVIRONMENT`. */
  environment = $state(DEFAULT_EXAMPLE.id);
  /** The texts, as edited. Replaced (never changed in place) on every edit. */
  files = $state.raw<readonly RddlSource[]>(builtInSources(DEFAULT_EXAMPLE.id)!);
  /** The chosen instance; undefined until the texts are checked (or when they define none). */
  instance = $state<string | undefined>();
  /** Bumped when the texts are replaced from outside the editor, so the editor reloads them. */
  replaced = $state(0);
  #quirks = $state(false);
  /** Problems of the current texts, in text order. */
  diagnostics = $state.raw<readonly RddlDiagnostic[]>([]);
  /** The instances the current texts define. */
  instances = $state.raw<readonly string[]>([]);
  /** Policy declarations generated from the chosen instance; the last good ones while the texts have errors. */
  policyTypes = $state<string | undefined>();
  /** A starting policy generated for the chosen instance (see `starterPolicy`), with its types. */
  starterPolicy = $state<string | undefined>();
  /** True from an edit until its check has finished. */
  checking = $state(false);
  /** Why the texts could not be checked (the check missed its deadline), in a sentence. */
  checkProblem = $state<string | undefined>();
  /** Names of the files opened from disk, empty when none were. */
  openedNames = $state.raw<readonly string[]>([]);
  /** Environments with texts edited away from their originals. */
  editedEnvironments = $state.raw<readonly string[]>([]);

  readonly #language: RddlLanguageClient;
  readonly #debounceMs: number;
  readonly #drafts = new SvelteMap<string, RddlDraft>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The check under way, if any; resolves when it has finished. */
  #inFlight: Promise<void> | undefined;
  /** Counts checks, so a slow check's result never overwrites a newer one's. */
  #generation = 0;

  constructor(options: RddlDocumentsOptions) {
    this.#language = options.language;
    this.#debounceMs = options.debounceMs ?? 300;
    this.#scheduleCheck(0);
  }

  /**
   * Reproduce rddlsim's evaluation quirks in the simulator ("rddlsim-compatible quirks", the CLI's
   * `--semantics rddlsim`). The texts are checked in the same semantics: switching re-checks them, and what
   * rddlsim runs although its types do not fit is then a warning rather than an error.
   */
  get quirks(): boolean {
    return this.#quirks;
  }

  set quirks(quirks: boolean) {
    if (quirks === this.#quirks) return;
    this.#quirks = quirks;
    this.#scheduleCheck(0);
  }

  /** The errors among the diagnostics. */
  get errors(): RddlDiagnostic[] {
    return this.diagnostics.filter((d) => d.severity === 'error');
  }

  /** True when the texts differ from the ones the environment started with. */
  get edited(): boolean {
    return !sameTexts(this.files, this.#original());
  }

  /** True when the texts are built in (no file opened), edited or not. */
  get builtIn(): boolean {
    return this.environment !== RDDL_FILES_ENVIRONMENT;
  }

  /** Shows another environment's texts: its draft when it was edited, else the built-in texts. */
  choose(environment: string): void {
    if (environment === this.environment) return;
    const draft = this.#drafts.get(environment);
    const files = draft?.files ?? builtInSources(environment);
    if (!files) return;
    this.environment = environment;
    this.#replace(files, draft?.instance);
  }

  /** Shows files opened from disk (domain, non-fluents and instance files, in any number). */
  open(files: readonly RddlSource[]): void {
    const copy = files.map(({ name, text }) => ({ name, text }));
    this.#drafts.set(RDDL_FILES_ENVIRONMENT, { files: copy, original: copy });
    this.#draftsChanged();
    this.environment = RDDL_FILES_ENVIRONMENT;
    this.#replace(copy, undefined);
  }

  /** Applies an edit of one text made in the editor. */
  edit(name: string, text: string): void {
    const index = this.files.findIndex((f) => f.name === name);
    if (index < 0 || this.files[index]!.text === text) return;
    const files = this.files.map((f, i) => (i === index ? { name, text } : f));
    this.files = files;
    this.#saveDraft();
    this.#scheduleCheck();
  }

  /** Chooses which instance to play when the texts define several. */
  chooseInstance(instance: string): void {
    if (!this.instances.includes(instance) || instance === this.instance) return;
    this.instance = instance;
    this.#saveDraft();
    this.#scheduleCheck(0);
  }

  /** Back to the texts the environment started with: the built-in example, or the files as opened. */
  reset(): void {
    const original = this.#original();
    if (this.environment === RDDL_FILES_ENVIRONMENT)
      this.#drafts.set(RDDL_FILES_ENVIRONMENT, { files: original, original });
    else this.#drafts.delete(this.environment);
    this.#draftsChanged();
    this.#replace(original, this.instance);
  }

  /** What a session needs to play the texts: the files, the instance and the simulator's quirks. */
  sessionSource(): RddlSessionSource {
    return {
      files: this.files.map(({ name, text }) => ({ name, text })),
      ...(this.instance ? { instance: this.instance } : {}),
      rddlsimQuirks: this.quirks,
    };
  }

  /**
   * Waits for the texts to be checked (now, if an edit is still waiting for its check), then says why a
   * session must not start, or undefined when it may: the texts have errors, or define no instance.
   */
  async runRefusal(): Promise<string | undefined> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      void this.check();
    }
    while (this.#inFlight) await this.#inFlight;
    if (this.checkProblem) return undefined; // unchecked: the session reports any error when it loads
    const errors = this.errors;
    if (errors.length) {
      const first = errors[0]!;
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
      return `Run refused: the RDDL has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}. ${formatLocated(first.message, first.location)}${more}`;
    }
    if (this.instances.length === 0)
      return 'Run refused: the RDDL defines no instance. Open or write an instance block (objects, init-state, horizon) too.';
    return undefined;
  }

  /** Checks the current texts now; resolves when the results are in (or superseded by a newer check). */
  check(): Promise<void> {
    const generation = ++this.#generation;
    const files = this.files;
    this.checking = true;
    const run = this.#checkTexts(files, generation).finally(() => {
      if (this.#inFlight === run) this.#inFlight = undefined;
      if (generation === this.#generation) this.checking = false;
    });
    this.#inFlight = run;
    return run;
  }

  /** The plain data stored across reloads. */
  toStored(): RddlStoredState {
    return {
      environment: this.environment,
      drafts: Object.fromEntries(this.#drafts),
      quirks: this.quirks,
    };
  }

  /** Restores stored state (already sanitised); the environment shown is the stored one. */
  restore(stored: RddlStoredState): void {
    this.#drafts.clear();
    for (const [environment, draft] of Object.entries(stored.drafts)) this.#drafts.set(environment, draft);
    this.#draftsChanged();
    this.quirks = stored.quirks;
    const environment =
      stored.drafts[stored.environment] || builtInSources(stored.environment)
        ? stored.environment
        : DEFAULT_EXAMPLE.id;
    this.environment = environment;
    const draft = this.#drafts.get(environment);
    this.#replace(draft?.files ?? builtInSources(environment)!, draft?.instance);
  }

  /** Shows a shared draft (from a link) for an environment, keeping the learner's own as the original. */
  applyShared(environment: string, draft: RddlDraft): void {
    if (environment !== RDDL_FILES_ENVIRONMENT && !builtInSources(environment)) return;
    const original = environment === RDDL_FILES_ENVIRONMENT ? draft.original : builtInSources(environment)!;
    this.#drafts.set(environment, { ...draft, original });
    this.#draftsChanged();
    this.environment = environment;
    this.#replace(draft.files, draft.instance);
  }

  /** The draft of the environment shown, when it differs from the built-in texts or was opened. */
  sharedDraft(): RddlDraft | undefined {
    if (!this.edited && this.builtIn) return undefined;
    return {
      files: [...this.files],
      ...(this.instance ? { instance: this.instance } : {}),
      original: this.#original(),
    };
  }

  async #checkTexts(files: readonly RddlSource[], generation: number): Promise<void> {
    const current = () => generation === this.#generation;
    try {
      const semantics = { rddlsimSemantics: this.quirks };
      const [diagnostics, instances] = await Promise.all([
        this.#language.diagnose(files, semantics),
        this.#language.instances(files),
      ]);
      if (!current()) return;
      this.checkProblem = undefined;
      this.diagnostics = diagnostics;
      this.instances = instances;
      if (!this.instance || !instances.includes(this.instance)) this.instance = instances[0];
      if (diagnostics.some((d) => d.severity === 'error') || !this.instance) return;
      const { types, starter } = await this.#language.policyTypes(files, this.instance, semantics);
      if (!current()) return;
      this.policyTypes = types;
      this.starterPolicy = starter;
    } catch (error) {
      if (!current()) return;
      this.checkProblem = `The RDDL could not be checked: ${error instanceof Error ? error.message : String(error)}.`;
    }
  }

  #original(): RddlSource[] {
    return this.#drafts.get(this.environment)?.original ?? builtInSources(this.environment) ?? [];
  }

  #replace(files: readonly RddlSource[], instance: string | undefined): void {
    this.files = files;
    this.instance = instance;
    this.diagnostics = [];
    this.instances = [];
    this.policyTypes = undefined;
    this.starterPolicy = undefined;
    this.checkProblem = undefined;
    this.replaced++;
    this.#scheduleCheck(0);
  }

  #saveDraft(): void {
    const original = this.#original();
    const files = [...this.files];
    if (this.environment !== RDDL_FILES_ENVIRONMENT && sameTexts(files, original))
      this.#drafts.delete(this.environment);
    else
      this.#drafts.set(this.environment, {
        files,
        ...(this.instance ? { instance: this.instance } : {}),
        original,
      });
    this.#draftsChanged();
  }

  #draftsChanged(): void {
    const opened = this.#drafts.get(RDDL_FILES_ENVIRONMENT)?.original.map((f) => f.name) ?? [];
    if (opened.join('\n') !== this.openedNames.join('\n')) this.openedNames = opened;
    const edited = [...this.#drafts]
      .filter(([, draft]) => !sameTexts(draft.files, draft.original))
      .map(([environment]) => environment);
    if (edited.join('\n') !== this.editedEnvironments.join('\n')) this.editedEnvironments = edited;
  }

  #scheduleCheck(delay = this.#debounceMs): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.checking = true;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.check();
    }, delay);
  }
}
