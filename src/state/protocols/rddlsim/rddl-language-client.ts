/**
 * The page's side of the RDDL language worker: every call has a deadline. A call that misses it terminates
 * the worker (a parse or grounding that runs away must not keep a core busy), fails the calls waiting on
 * it, and the next call starts a fresh worker. The worker is started on the first call.
 */
import * as Comlink from 'comlink';
import type { RddlDiagnostic, RddlSource } from '../../../core/envs/rddl/api';
import type { CheckOptions } from '../../../core/envs/rddl/load';
import type {
  CompletionResult,
  FoldingRange,
  HoverInfo,
  TextPosition,
} from '../../../core/envs/rddl/language';
import type { RddlLanguageWorkerApi } from '../../../../workers/rddl-language.worker';

/** How long each kind of call may take, in ms. */
export interface LanguageDeadlines {
  /** Checking and loading whole texts (diagnostics, instances, policy types): grounds every instance. */
  check: number;
  /** Answers while typing (completion, hover, folding): the learner is waiting for them. */
  interactive: number;
}

/** Generous for checks (a large competition instance grounds in a few hundred ms), short for typing. */
export const DEFAULT_DEADLINES: Readonly<LanguageDeadlines> = { check: 10_000, interactive: 2_000 };

/** A call that missed its deadline; the worker was stopped. */
export class LanguageServiceTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms / 1000} s and was stopped`);
    this.name = 'LanguageServiceTimeout';
  }
}

interface Running {
  worker: Worker;
  remote: Comlink.Remote<RddlLanguageWorkerApi>;
  /** Rejects every call waiting on this worker (it was terminated). */
  pending: Set<(error: Error) => void>;
}

/** The language services, asked of a worker. */
export class RddlLanguageClient {
  readonly #createWorker: () => Worker;
  readonly #deadlines: LanguageDeadlines;
  #running: Running | undefined;

  constructor(createWorker: () => Worker, deadlines: Partial<LanguageDeadlines> = {}) {
    this.#createWorker = createWorker;
    this.#deadlines = { ...DEFAULT_DEADLINES, ...deadlines };
  }

  /** Every problem of the texts, located, in the semantics `options` choose (rddlsim's, or the default). */
  diagnose(sources: readonly RddlSource[], options: CheckOptions = {}): Promise<RddlDiagnostic[]> {
    return this.#call('checking the RDDL', this.#deadlines.check, (api) =>
      api.diagnose([...sources], { ...options }),
    );
  }

  /** The instances the texts define, in order. */
  instances(sources: readonly RddlSource[]): Promise<string[]> {
    return this.#call('listing the instances', this.#deadlines.check, (api) => api.instances([...sources]));
  }

  /**
   * The policy editor's declarations for an instance, and a starting policy for it; rejects with the
   * located reason it cannot load.
   */
  policyTypes(
    sources: readonly RddlSource[],
    instance?: string,
    options: CheckOptions = {},
  ): Promise<{ types: string; starter: string }> {
    return this.#call('generating the policy types', this.#deadlines.check, (api) =>
      api.policyTypes([...sources], instance, { ...options }),
    );
  }

  completions(
    sources: readonly RddlSource[],
    sourceName: string,
    position: TextPosition,
  ): Promise<CompletionResult> {
    return this.#call('completing', this.#deadlines.interactive, (api) =>
      api.completions([...sources], sourceName, position),
    );
  }

  hover(
    sources: readonly RddlSource[],
    sourceName: string,
    position: TextPosition,
  ): Promise<HoverInfo | undefined> {
    return this.#call('hover information', this.#deadlines.interactive, (api) =>
      api.hover([...sources], sourceName, position),
    );
  }

  folding(text: string): Promise<FoldingRange[]> {
    return this.#call('folding', this.#deadlines.interactive, (api) => api.folding(text));
  }

  /** Stops the worker; a later call starts a new one. */
  dispose(): void {
    this.#stop(new Error('the RDDL language worker was stopped'));
  }

  #call<T>(
    what: string,
    ms: number,
    call: (api: Comlink.Remote<RddlLanguageWorkerApi>) => Promise<T>,
  ): Promise<T> {
    const running = this.#start();
    return new Promise<T>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        running.pending.delete(reject);
      };
      const timer = setTimeout(() => {
        settle();
        reject(new LanguageServiceTimeout(what, ms));
        if (this.#running === running) this.#stop(new LanguageServiceTimeout('an earlier call', ms));
      }, ms);
      running.pending.add(reject);
      call(running.remote).then(
        (value) => {
          settle();
          resolve(value);
        },
        (error: unknown) => {
          settle();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  #start(): Running {
    if (this.#running) return this.#running;
    const worker = this.#createWorker();
    const running: Running = { worker, remote: Comlink.wrap(worker), pending: new Set() };
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (this.#running === running)
        this.#stop(new Error(event.message || 'the RDDL language worker failed to start'));
    });
    this.#running = running;
    return running;
  }

  #stop(reason: Error): void {
    const running = this.#running;
    if (!running) return;
    this.#running = undefined;
    running.worker.terminate();
    for (const reject of running.pending) reject(reason);
    running.pending.clear();
  }
}
