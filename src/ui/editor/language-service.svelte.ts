/**
 * Whether the TypeScript service of the policy editors is wanted yet: it starts when a learner first
 * reaches a policy editor (the pointer over it, the focus in it). Apart from Monaco, so that what only
 * feeds the service (the policy types a protocol computes, RDDLSim's by parsing its domain) can wait for
 * it too without loading the editor.
 */
class LanguageServiceGate {
  /** True once a policy editor was reached; never false again. */
  wanted = $state(false);
  readonly whenWanted: Promise<void>;
  #resolve: () => void = () => {};

  constructor() {
    this.whenWanted = new Promise<void>((resolve) => (this.#resolve = resolve));
  }

  /** Says the service is wanted (again is harmless). */
  want(): void {
    if (this.wanted) return;
    this.wanted = true;
    this.#resolve();
  }
}

export const languageService = new LanguageServiceGate();
