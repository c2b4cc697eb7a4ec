/**
 * Paces a session from the outside: every policy decision first passes the gate, which holds it while the
 * learner has paused, lets exactly one through per "step", spaces decisions by the animation delay, and
 * turns them all away once the session is stopped. The session itself never looks at a clock or a button.
 */

/** Why the gate is holding, as reported to whoever shows it. */
export type GateState = 'open' | 'paused' | 'stopped';

/** Options of a gate. */
export interface TurnGateOptions {
  /** Pause before each decision, in ms (0: none). */
  delayMs: number;
  /** Hold the first decision until `resume` or `step`. */
  startPaused: boolean;
  /** Told whenever the state changes (e.g. a step ends in a pause). */
  onStateChange?: (state: GateState) => void;
}

/** The gate in front of each policy decision. */
export class TurnGate {
  #state: GateState;
  #delayMs: number;
  /** Decisions allowed through while paused (one per step). */
  #steps = 0;
  #wake: (() => void) | undefined;
  #delayTimer: { handle: unknown; finish: () => void } | undefined;
  readonly #onStateChange: ((state: GateState) => void) | undefined;

  constructor(options: TurnGateOptions) {
    this.#state = options.startPaused ? 'paused' : 'open';
    this.#delayMs = options.delayMs;
    this.#onStateChange = options.onStateChange;
  }

  get state(): GateState {
    return this.#state;
  }

  pause(): void {
    this.#set('paused');
  }

  resume(): void {
    this.#steps = 0;
    this.#set('open');
  }

  /** Lets one decision through, then holds again. */
  step(): void {
    if (this.#state === 'stopped') return;
    this.#steps++;
    this.#set('paused');
  }

  /** Turns every waiting and future decision away. */
  stop(): void {
    this.#set('stopped');
    this.#delayTimer?.finish();
  }

  setDelay(ms: number): void {
    this.#delayMs = ms;
    // A long pause already under way should not outlast a switch to "as fast as possible".
    if (ms === 0) this.#delayTimer?.finish();
  }

  /**
   * Waits until the next decision may happen. Resolves true to go on, false when the session is stopped.
   * `first` skips the animation delay (nothing to watch yet before the first decision).
   */
  async pass(first = false): Promise<boolean> {
    if (!first && this.#delayMs > 0 && this.#state === 'open') await this.#sleep(this.#delayMs);
    for (;;) {
      if (this.#state === 'stopped') return false;
      if (this.#state === 'open') return true;
      if (this.#steps > 0) {
        this.#steps--;
        return true;
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }

  #set(state: GateState): void {
    if (this.#state === 'stopped') return; // stopping is final
    const changed = this.#state !== state;
    this.#state = state;
    this.#wake?.(); // a waiting decision looks again
    if (changed) this.#onStateChange?.(state);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(handle);
        this.#delayTimer = undefined;
        resolve();
      };
      const handle = setTimeout(finish, ms);
      this.#delayTimer = { handle, finish };
    });
  }
}
